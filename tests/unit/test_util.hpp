// Helpers shared by the unit tests: synthetic pictures, feature writers that
// keep what an extractor writes, and extractor specs by options.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/family.hpp"
#include "vqx/picture.hpp"

namespace vqx::testutil {

// A double's bits: twins' values compared, and printed, bit for bit.
inline std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// ---------------------------------------------------------------------------
// Pictures

inline PictureFormat format(unsigned w, unsigned h, unsigned bpc,
                            ChromaFormat chroma = ChromaFormat::k420) {
  PictureFormat f;
  f.width = w;
  f.height = h;
  f.bpc = bpc;
  f.chroma = chroma;
  return f;
}

inline void set_sample(Plane& p, unsigned x, unsigned y, std::uint32_t v) {
  if (p.bytes_per_sample() == 1) {
    p.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
  } else {
    p.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
  }
}

// A sample value from its position in a plane.
using SampleFn = std::function<std::uint32_t(unsigned x, unsigned y)>;
// A sample value from its plane and its position there.
using PlaneSampleFn = std::function<std::uint32_t(unsigned p, unsigned x, unsigned y)>;

// Picture::make(fmt), failing the test if it refuses the format.
inline Picture new_picture(const PictureFormat& fmt) {
  auto pic = Picture::make(fmt);
  EXPECT_TRUE(pic.ok()) << pic.status().message();
  return std::move(pic).value();
}

// Sets every sample of plane p to fn(p, x, y); fn is called plane by plane,
// row by row, once a sample.
inline void fill_planes(Picture& pic, const PlaneSampleFn& fn) {
  for (unsigned p = 0; p < pic.plane_count(); ++p) {
    Plane& pl = pic.plane(p);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) {
        set_sample(pl, x, y, fn(p, x, y));
      }
    }
  }
}

// A picture whose plane p holds fn(p, x, y), filled as fill_planes() does.
inline Picture make_picture_per_plane(const PictureFormat& fmt, const PlaneSampleFn& fn) {
  Picture pic = Picture::make(fmt).value();
  fill_planes(pic, fn);
  return pic;
}

// A picture whose luma is luma(x, y) (called row by row, once a sample) and
// whose chroma samples are all `chroma`.
inline Picture make_picture(const PictureFormat& fmt, const SampleFn& luma, std::uint32_t chroma) {
  return make_picture_per_plane(
      fmt, [&](unsigned p, unsigned x, unsigned y) { return p == 0 ? luma(x, y) : chroma; });
}

inline Picture flat_picture(const PictureFormat& fmt, std::uint32_t value, std::uint32_t chroma) {
  return make_picture(
      fmt, [value](unsigned, unsigned) { return value; }, chroma);
}

// Luma uniform in [0, 2^bpc), drawn from rng in row order.
inline Picture random_picture(const PictureFormat& fmt, std::mt19937& rng, std::uint32_t chroma) {
  const std::uint32_t max = (1U << fmt.bpc) - 1;
  return make_picture(
      fmt, [&](unsigned, unsigned) { return rng() % (max + 1); }, chroma);
}

// Mid-grey at the format's depth.
inline std::uint32_t mid_grey(const PictureFormat& fmt) { return 1U << (fmt.bpc - 1); }

// The same three with the chroma a test file uses throughout: 0 ...
namespace zero_chroma {
inline Picture make_picture(const PictureFormat& fmt, const SampleFn& luma) {
  return testutil::make_picture(fmt, luma, 0);
}
inline Picture flat_picture(const PictureFormat& fmt, std::uint32_t value) {
  return testutil::flat_picture(fmt, value, 0);
}
inline Picture random_picture(const PictureFormat& fmt, std::mt19937& rng) {
  return testutil::random_picture(fmt, rng, 0);
}
}  // namespace zero_chroma

// ... or mid-grey.
namespace grey_chroma {
inline Picture make_picture(const PictureFormat& fmt, const SampleFn& luma) {
  return testutil::make_picture(fmt, luma, mid_grey(fmt));
}
inline Picture flat_picture(const PictureFormat& fmt, std::uint32_t value) {
  return testutil::flat_picture(fmt, value, mid_grey(fmt));
}
inline Picture random_picture(const PictureFormat& fmt, std::mt19937& rng) {
  return testutil::random_picture(fmt, rng, mid_grey(fmt));
}
}  // namespace grey_chroma

// Samples uniform in [lo, hi] (8-bit units) from an mt19937 seeded with
// `seed`, one draw a call, shifted to bpc bits.
inline SampleFn noise(unsigned seed, unsigned lo, unsigned hi, unsigned bpc = 8) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [rng, lo, hi, bpc](unsigned, unsigned) {
    return (lo + static_cast<std::uint32_t>((*rng)() % (hi - lo + 1))) << (bpc - 8);
  };
}

// Smooth content, max * (0.5 + 0.35 sin(fx x) cos(fy y)), plus normal noise
// of deviation noise * max, in [0, 2^bpc); chroma 0.
inline Picture textured_picture(const PictureFormat& fmt, std::mt19937& rng, double noise,
                                double fx, double fy) {
  const double max = static_cast<double>((1U << fmt.bpc) - 1);
  std::normal_distribution<double> n(0.0, noise * max);
  return zero_chroma::make_picture(fmt, [&](unsigned x, unsigned y) {
    const double v = max * (0.5 + 0.35 * std::sin(fx * x) * std::cos(fy * y)) + n(rng);
    return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0, max)));
  });
}

// `base`'s luma with normal noise of deviation noise * max added to every
// sample, rounded and clamped; chroma 0.
inline Picture distorted(const Picture& base, std::mt19937& rng, double noise) {
  const double max = static_cast<double>((1U << base.bpc()) - 1);
  std::normal_distribution<double> n(0.0, noise * max);
  return zero_chroma::make_picture(base.format(), [&](unsigned x, unsigned y) {
    const double v = base.plane(0).at(x, y) + n(rng);
    return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0, max)));
  });
}

// The synthetic pictures that ciede's and psnr_hvs's expected values were
// computed on (with libvmaf 3.2.0): plane p at (x, y) is a diagonal ramp,
// ((x * 7 + y * 3 + p * 50) << (bpc - 8)) mod 2^bpc, plus, when `noisy`,
// +-5 (8-bit units) of hashed noise, clamped to [0, 2^bpc).
inline std::uint32_t ramp_sample(unsigned p, unsigned x, unsigned y, unsigned bpc, bool noisy) {
  const unsigned max = (1U << bpc) - 1;
  const unsigned base = ((x * 7 + y * 3 + p * 50) << (bpc - 8)) % (max + 1);
  if (!noisy) return base;
  std::uint32_t h = x * 73856093U ^ y * 19349663U ^ p * 83492791U ^ 1U * 2654435761U;
  h ^= h >> 13;
  h *= 0x5bd1e995U;
  h ^= h >> 15;
  const int offset = (static_cast<int>(h % 11) - 5) * (1 << (bpc - 8));
  return static_cast<unsigned>(
      std::clamp(static_cast<int>(base) + offset, 0, static_cast<int>(max)));
}

// ---------------------------------------------------------------------------
// Writers

// What LastValueWriter puts in slots never written, unless told otherwise.
inline constexpr double kUnwritten = -12345.0;

// The last value written to each slot (and the last frame written); slots
// below the highest written that were never written hold `unwritten`.
class LastValueWriter final : public FeatureWriter {
 public:
  explicit LastValueWriter(double unwritten = kUnwritten) : unwritten_(unwritten) {}
  void write(std::size_t slot, unsigned frame, double value) override {
    if (slot >= values.size()) values.resize(slot + 1, unwritten_);
    values[slot] = value;
    last_frame = frame;
  }
  std::vector<double> values;
  unsigned last_frame = 0;

 private:
  double unwritten_;
};

// Every write, in order.
class RecordingWriter : public FeatureWriter {
 public:
  struct Entry {
    std::size_t slot;
    unsigned frame;
    double value;
  };
  // Room for `reserve` entries up front (then write() need not allocate).
  explicit RecordingWriter(std::size_t reserve = 0) { entries.reserve(reserve); }
  void write(std::size_t slot, unsigned frame, double value) override {
    entries.push_back({slot, frame, value});
  }
  // The value written for (slot, frame); fails the test unless written once.
  double get(std::size_t slot, unsigned frame) const {
    int found = 0;
    double v = -1;
    for (const Entry& e : entries) {
      if (e.slot == slot && e.frame == frame) {
        ++found;
        v = e.value;
      }
    }
    EXPECT_EQ(found, 1) << "slot " << slot << " frame " << frame;
    return v;
  }
  std::vector<Entry> entries;
};

// The last value written for each (slot, frame) and each aggregate slot.
class MapWriter final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned frame, double value) override {
    values[{slot, frame}] = value;
  }
  void write_aggregate(std::size_t slot, double value) override { aggregates[slot] = value; }
  std::map<std::pair<std::size_t, unsigned>, double> values;
  std::map<std::size_t, double> aggregates;
};

// ---------------------------------------------------------------------------
// Specs and runs

// The family's spec for `options`; fails the test (and returns an empty
// spec) if the family refuses them.
inline ExtractorSpec spec_for(const ExtractorFamily& family, const OptionMap& options) {
  auto spec = family.make_spec(options);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec.ok() ? std::move(spec).value() : ExtractorSpec{};
}

// The slot of the output whose base name is `base`; fails the test if none.
inline std::size_t slot_of(const ExtractorSpec& spec, const std::string& base) {
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    if (spec.outputs[i].base == base) return i;
  }
  ADD_FAILURE() << "no output " << base;
  return 0;
}

// Runs one pair as frame 0 through a new extractor of `spec`: the values of
// a LastValueWriter(unwritten).
inline std::vector<double> last_values(const ExtractorSpec& spec, const Picture& ref,
                                       const Picture& dist, double unwritten = kUnwritten) {
  auto ex = spec.make();
  const Status init = ex->init(ref.format());
  EXPECT_TRUE(init.ok()) << init.message();
  LastValueWriter out(unwritten);
  const Status st = ex->extract(ref, dist, 0, out);
  EXPECT_TRUE(st.ok()) << st.message();
  return out.values;
}

// last_values(), which must hold a value for every output of the spec.
inline std::vector<double> output_values(const ExtractorSpec& spec, const Picture& ref,
                                         const Picture& dist, double unwritten = kUnwritten) {
  std::vector<double> values = last_values(spec, ref, dist, unwritten);
  EXPECT_EQ(values.size(), spec.outputs.size());
  return values;
}

// Resident memory of this process, bytes (/proc/self/statm's second field,
// in pages).
inline std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0;
  std::size_t resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// How much the resident memory grows, in MB, while an extractor of `spec` is
// initialised for `fmt` and extracts its first frame (two patterned
// pictures made beforehand): what one instance keeps, for the tests of
// families that should hold no copy of the pictures.
inline double first_frame_growth_mb(const ExtractorSpec& spec, const PictureFormat& fmt) {
  const Picture ref =
      grey_chroma::make_picture(fmt, [](unsigned x, unsigned y) { return (x * 7 + y * 3) % 256; });
  const Picture dist =
      grey_chroma::make_picture(fmt, [](unsigned x, unsigned y) { return (x * 5 + y * 11) % 256; });
  auto ex = spec.make();
  RecordingWriter out;
  const std::size_t before = resident_bytes();
  EXPECT_TRUE(ex->init(fmt).ok());
  EXPECT_TRUE(ex->extract(ref, dist, 0, out).ok());
  return static_cast<double>(resident_bytes() - before) / 1e6;
}

}  // namespace vqx::testutil

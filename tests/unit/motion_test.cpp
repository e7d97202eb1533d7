// Unit tests of the integer motion extractor ("motion"): the SAD kernel
// against a from-the-definition reference and hand-computed values, the
// extractor's scores, temporal bookkeeping (which frame gets which value,
// and when), options, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/motion/cpu.hpp"
#include "metrics/motion/params.hpp"
#include "simd_targets.hpp"
#include "test_util.hpp"

// Counts this thread's heap allocations, to check that extract() allocates
// nothing. This replaces the global operator new/delete of the unit-test
// program (counting only; other threads' allocations are not counted).
// noinline keeps GCC from pairing the inlined malloc/free with new/delete.
namespace {
thread_local long t_allocations = 0;
long allocations() { return t_allocations; }
}  // namespace

[[gnu::noinline]] void* operator new(std::size_t n) {
  ++t_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) {
    return p;
  }
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace vqx {
namespace {

// ---------------------------------------------------------------------------
// Helpers

using testutil::format;
using testutil::set_sample;
using testutil::slot_of;
using testutil::grey_chroma::flat_picture;
using testutil::grey_chroma::make_picture;
using testutil::grey_chroma::random_picture;

// Records every write, in order, with room reserved so that write() does
// not allocate.
class RecordingWriter final : public testutil::RecordingWriter {
 public:
  RecordingWriter() : testutil::RecordingWriter(4096) {}
};

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(integer_motion_family(), options);
}

std::vector<Picture> random_sequence(const PictureFormat& fmt, int n, std::mt19937& rng) {
  std::vector<Picture> frames;
  frames.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    frames.push_back(random_picture(fmt, rng));
  }
  return frames;
}

// Flat luma pictures at the given levels, in 8-bit units scaled to fmt.bpc.
std::vector<Picture> flat_sequence(const PictureFormat& fmt,
                                   const std::vector<std::uint32_t>& levels) {
  std::vector<Picture> frames;
  frames.reserve(levels.size());
  for (std::uint32_t l : levels) {
    frames.push_back(flat_picture(fmt, l << (fmt.bpc - 8)));
  }
  return frames;
}

// Runs a whole sequence: init, extract every frame in order, flush.
RecordingWriter run_sequence(const ExtractorSpec& spec, const std::vector<Picture>& frames) {
  RecordingWriter out;
  auto ex = spec.make();
  EXPECT_TRUE(ex->init(frames.at(0).format()).ok());
  for (unsigned i = 0; i < frames.size(); ++i) {
    const Status s = ex->extract(frames[i], frames[i], i, out);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  EXPECT_TRUE(ex->flush(out).ok());
  return out;
}

// The SAD from its definition (libvmaf integer_motion.c): 64-bit sums, taps
// 3571, 16004, 26386, 16004, 3571; vertical pass rounded and shifted by bpc,
// horizontal pass by 16; borders mirrored without repeating the edge.
std::uint64_t reference_sad(const Plane& prev, const Plane& cur, unsigned bpc) {
  const std::int64_t taps[5] = {3571, 16004, 26386, 16004, 3571};
  const int w = static_cast<int>(prev.width());
  const int h = static_cast<int>(prev.height());
  auto mirror = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i); };
  std::vector<std::int64_t> vert(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      std::int64_t s = 0;
      for (int k = 0; k < 5; ++k) {
        const auto r = static_cast<unsigned>(mirror(y - 2 + k, h));
        const auto c = static_cast<unsigned>(x);
        s += taps[k] * (std::int64_t{prev.at(c, r)} - std::int64_t{cur.at(c, r)});
      }
      vert[static_cast<std::size_t>(y) * w + x] = (s + (std::int64_t{1} << (bpc - 1))) >> bpc;
    }
  }
  std::uint64_t sad = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      std::int64_t s = 0;
      for (int k = 0; k < 5; ++k) {
        s += taps[k] * vert[static_cast<std::size_t>(y) * w + mirror(x - 2 + k, w)];
      }
      const std::int64_t v = (s + (1 << 15)) >> 16;
      sad += static_cast<std::uint64_t>(v < 0 ? -v : v);
    }
  }
  return sad;
}

double reference_score(const Picture& prev, const Picture& cur) {
  const double pixels = static_cast<double>(prev.width() * prev.height());
  return static_cast<double>(reference_sad(prev.plane(0), cur.plane(0), prev.bpc())) / 256.0 /
         pixels;
}

std::uint64_t kernel_sad(const Picture& prev, const Picture& cur) {
  const unsigned w = prev.width();
  std::vector<std::int32_t> scratch(motion::scratch_size(w));
  const Plane& a = prev.plane(0);
  const Plane& b = cur.plane(0);
  if (prev.bpc() == 8) {
    return motion::blurred_difference_sad(
        {a.row<std::uint8_t>(0), static_cast<std::ptrdiff_t>(a.stride_bytes())},
        {b.row<std::uint8_t>(0), static_cast<std::ptrdiff_t>(b.stride_bytes())}, w, prev.height(),
        scratch);
  }
  return motion::blurred_difference_sad(
      {a.row<std::uint16_t>(0), static_cast<std::ptrdiff_t>(a.stride_bytes() / 2)},
      {b.row<std::uint16_t>(0), static_cast<std::ptrdiff_t>(b.stride_bytes() / 2)}, w,
      prev.height(), prev.bpc(), scratch);
}

// ---------------------------------------------------------------------------
// The kernel

TEST(MotionKernel, ImpulseMatchesHandComputation) {
  // A single 8-bit difference of 1 in the middle of a 9x9 picture. Vertical
  // pass: (tap + 128) >> 8 = 14, 63, 103, 63, 14 down the centre column.
  // Horizontal pass of those, (tap * v + 32768) >> 16 summed over the five
  // taps: 14 -> 1+3+6+3+1 = 14, 63 -> 3+15+25+15+3 = 61, 103 -> 6+25+41+25+6
  // = 103. Total 14 + 61 + 103 + 61 + 14 = 253.
  const PictureFormat fmt = format(9, 9, 8);
  const Picture prev =
      make_picture(fmt, [](unsigned x, unsigned y) { return x == 4 && y == 4 ? 1U : 0U; });
  const Picture cur = flat_picture(fmt, 0);
  EXPECT_EQ(kernel_sad(prev, cur), 253U);
  EXPECT_EQ(reference_sad(prev.plane(0), cur.plane(0), 8), 253U);
  // The blur is odd-symmetric in the difference.
  EXPECT_EQ(kernel_sad(cur, prev), 253U);
}

TEST(MotionKernel, FlatDifferenceIsExactAtEveryDepth) {
  // A constant difference D survives both passes unchanged in units of
  // 2^(16 - bpc): the vertical pass gives D * 65536 >> bpc, the horizontal
  // pass keeps it. So the SAD is w * h * D * 2^(16 - bpc).
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const PictureFormat fmt = format(7, 5, bpc);
    const std::uint32_t max = (1U << bpc) - 1;
    for (std::uint32_t d : {1U, 3U, max / 2, max}) {
      const Picture a = flat_picture(fmt, d);
      const Picture b = flat_picture(fmt, 0);
      const std::uint64_t expected = std::uint64_t{7} * 5 * d * (std::uint64_t{1} << (16 - bpc));
      EXPECT_EQ(kernel_sad(a, b), expected) << "bpc " << bpc << " d " << d;
      EXPECT_EQ(kernel_sad(b, a), expected) << "bpc " << bpc << " d " << d;
    }
  }
}

// Every vector target the CPU runs (checkasm-style) against the definition:
// random pictures, random near-equal pairs (small differences, most rows
// all zero after the vertical pass), full-scale checkerboards of opposite
// phase (the largest magnitudes both passes can see) and flat extremes, at
// every depth and at widths around every vector length.
TEST(MotionKernel, EveryTargetMatchesTheDefinition) {
  std::mt19937 rng(7);
  const std::vector<std::pair<unsigned, unsigned>> sizes = {
      {3, 3},  {4, 7},  {5, 40}, {7, 4},  {8, 3},  {9, 5},  {15, 6},  {16, 3},  {17, 11},
      {31, 4}, {33, 5}, {63, 3}, {64, 3}, {65, 4}, {67, 9}, {127, 3}, {129, 5}, {200, 6}};
  struct Case {
    std::string what;
    Picture a, b;
    std::uint64_t expected;
  };
  std::vector<Case> cases;
  for (unsigned bpc : {8U, 9U, 10U, 12U, 14U, 15U, 16U}) {
    const std::uint32_t max = (1U << bpc) - 1;
    for (auto [w, h] : sizes) {
      const PictureFormat fmt = format(w, h, bpc);
      const std::string at =
          " bpc " + std::to_string(bpc) + " " + std::to_string(w) + "x" + std::to_string(h);
      auto add = [&](const std::string& what, Picture a, Picture b) {
        const std::uint64_t expected = reference_sad(a.plane(0), b.plane(0), bpc);
        cases.push_back({what + at, std::move(a), std::move(b), expected});
      };
      add("random", random_picture(fmt, rng), random_picture(fmt, rng));
      std::uniform_int_distribution<std::uint32_t> sample(0, max);
      std::uniform_int_distribution<int> nudge(-2, 2);
      std::bernoulli_distribution touched(0.05);
      std::vector<std::uint32_t> base(std::size_t{w} * h), near(base.size());
      for (std::size_t i = 0; i < base.size(); ++i) {
        base[i] = sample(rng);
        const int v = static_cast<int>(base[i]) + (touched(rng) ? nudge(rng) : 0);
        near[i] = static_cast<std::uint32_t>(std::clamp(v, 0, static_cast<int>(max)));
      }
      auto from = [w](const std::vector<std::uint32_t>& s) {
        return [&s, w](unsigned x, unsigned y) { return s[std::size_t{y} * w + x]; };
      };
      add("near-equal", make_picture(fmt, from(base)), make_picture(fmt, from(near)));
      add("checkerboard",
          make_picture(fmt, [max](unsigned x, unsigned y) { return (x + y) % 2 ? max : 0U; }),
          make_picture(fmt, [max](unsigned x, unsigned y) { return (x + y) % 2 ? 0U : max; }));
      add("flat extremes", flat_picture(fmt, 0), flat_picture(fmt, max));
    }
  }
  const auto ran = test::for_each_simd_target([&](const std::string& target) {
    for (const Case& c : cases) {
      ASSERT_EQ(kernel_sad(c.a, c.b), c.expected) << c.what << " on " << target;
    }
  });
  EXPECT_GE(ran.size(), 2U) << "the vector targets and the scalar one";
}

// ---------------------------------------------------------------------------
// Scores

TEST(Motion, StaticVideoGivesZero) {
  std::mt19937 rng(1);
  const PictureFormat fmt = format(32, 18, 8);
  const Picture still = random_picture(fmt, rng);
  std::vector<Picture> frames;
  frames.reserve(5);
  for (int i = 0; i < 5; ++i) {
    frames.push_back(
        make_picture(fmt, [&](unsigned x, unsigned y) { return still.plane(0).at(x, y); }));
  }
  const ExtractorSpec spec = spec_for({});
  const RecordingWriter out = run_sequence(spec, frames);
  EXPECT_EQ(out.entries.size(), 15U);
  for (const auto& e : out.entries) {
    EXPECT_EQ(e.value, 0.0);
  }
}

TEST(Motion, OnePixelShiftOfStripesHasAKnownScore) {
  // One-pixel-wide vertical stripes 0/255 moved one pixel: the difference is
  // +-255 alternating by column. Vertical pass: +-255 * 256 = +-65280.
  // Horizontal pass: 65280 * (26386 - 2 * 16004 + 2 * 3571) = 65280 * 1520,
  // (99225600 + 32768) >> 16 = 1514 in magnitude at every pixel (the mirror
  // keeps the alternation at the borders). Score 1514 / 256.
  const PictureFormat fmt = format(21, 13, 8);
  std::vector<Picture> frames;
  frames.push_back(make_picture(fmt, [](unsigned x, unsigned) { return x % 2 ? 255U : 0U; }));
  frames.push_back(make_picture(fmt, [](unsigned x, unsigned) { return x % 2 ? 0U : 255U; }));
  const ExtractorSpec spec = spec_for({});
  const RecordingWriter out = run_sequence(spec, frames);
  EXPECT_EQ(out.get(slot_of(spec, "VMAF_integer_feature_motion_sad_score"), 1), 1514.0 / 256.0);
  EXPECT_EQ(reference_score(frames[0], frames[1]), 1514.0 / 256.0);
}

TEST(Motion, BrightnessStepsAtEveryDepth) {
  // Flat frames 10, 20, 40, 45, 45 (8-bit units): SAD 0, 10, 20, 5, 0.
  // motion2 = min of a frame's and the next frame's SAD (the last frame
  // keeps its own; frame 0 has 0); motion3 = motion2, and for frame 0 the
  // SAD of frame 1.
  const std::vector<std::uint32_t> levels = {10, 20, 40, 45, 45};
  const std::vector<double> sad = {0, 10, 20, 5, 0};
  const std::vector<double> m2 = {0, 10, 5, 0, 0};
  const std::vector<double> m3 = {10, 10, 5, 0, 0};
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(16, 9, bpc);
    const std::vector<Picture> frames = flat_sequence(fmt, levels);
    const ExtractorSpec spec = spec_for({});
    const RecordingWriter out = run_sequence(spec, frames);
    for (unsigned i = 0; i < levels.size(); ++i) {
      EXPECT_EQ(out.get(slot_of(spec, "VMAF_integer_feature_motion_sad_score"), i), sad[i])
          << "bpc " << bpc << " frame " << i;
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion2"), i), m2[i]) << "bpc " << bpc;
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), i), m3[i]) << "bpc " << bpc;
    }
  }
}

TEST(Motion, OddSizesAndDepthsMatchTheDefinition) {
  std::mt19937 rng(3);
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    for (auto [w, h] : {std::pair{3U, 3U}, {17U, 11U}, {31U, 7U}, {5U, 23U}}) {
      const PictureFormat fmt = format(w, h, bpc, ChromaFormat::k420);
      const std::vector<Picture> frames = random_sequence(fmt, 4, rng);
      const ExtractorSpec spec = spec_for({});
      const RecordingWriter out = run_sequence(spec, frames);
      const std::size_t sad_slot = slot_of(spec, "VMAF_integer_feature_motion_sad_score");
      EXPECT_EQ(out.get(sad_slot, 0), 0.0);
      for (unsigned i = 1; i < frames.size(); ++i) {
        EXPECT_EQ(out.get(sad_slot, i), reference_score(frames[i - 1], frames[i]))
            << w << "x" << h << " bpc " << bpc << " frame " << i;
      }
      EXPECT_EQ(out.entries.size(), 3 * frames.size());
    }
  }
}

TEST(Motion, UsesOnlyTheReferenceLuma) {
  std::mt19937 rng(4);
  const PictureFormat fmt = format(24, 16, 10, ChromaFormat::k444);
  const std::vector<Picture> refs = random_sequence(fmt, 3, rng);
  const ExtractorSpec spec = spec_for({{"debug", "true"}});
  const RecordingWriter a = run_sequence(spec, refs);

  // Same reference luma, different chroma, and a different distorted picture.
  RecordingWriter b;
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(fmt).ok());
  for (unsigned i = 0; i < refs.size(); ++i) {
    Picture ref = random_picture(fmt, rng);
    for (unsigned y = 0; y < fmt.height; ++y) {
      for (unsigned x = 0; x < fmt.width; ++x) {
        set_sample(ref.plane(0), x, y, refs[i].plane(0).at(x, y));
      }
    }
    const Picture dist = random_picture(fmt, rng);
    ASSERT_TRUE(ex->extract(ref, dist, i, b).ok());
  }
  ASSERT_TRUE(ex->flush(b).ok());
  ASSERT_EQ(a.entries.size(), b.entries.size());
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    EXPECT_EQ(a.entries[i].slot, b.entries[i].slot);
    EXPECT_EQ(a.entries[i].frame, b.entries[i].frame);
    EXPECT_EQ(a.entries[i].value, b.entries[i].value);
  }
}

// ---------------------------------------------------------------------------
// Temporal bookkeeping

TEST(Motion, WritesEachValueAsSoonAsItsInputsExist) {
  const PictureFormat fmt = format(8, 8, 8);
  const ExtractorSpec spec = spec_for({});
  const std::size_t sad = slot_of(spec, "VMAF_integer_feature_motion_sad_score");
  const std::size_t m2 = slot_of(spec, "integer_motion2");
  const std::size_t m3 = slot_of(spec, "integer_motion3");
  const std::vector<Picture> frames = flat_sequence(fmt, {0, 4, 12, 13});

  auto ex = spec.make();
  ASSERT_TRUE(ex->init(fmt).ok());
  RecordingWriter out;
  using Key = std::tuple<std::size_t, unsigned, double>;
  auto since = [&](std::size_t from) {
    std::vector<Key> keys;
    for (std::size_t i = from; i < out.entries.size(); ++i) {
      keys.emplace_back(out.entries[i].slot, out.entries[i].frame, out.entries[i].value);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  auto sorted = [](std::vector<Key> k) {
    std::sort(k.begin(), k.end());
    return k;
  };

  ASSERT_TRUE(ex->extract(frames[0], frames[0], 0, out).ok());
  EXPECT_EQ(since(0), sorted({{sad, 0, 0.0}}));
  std::size_t mark = out.entries.size();
  ASSERT_TRUE(ex->extract(frames[1], frames[1], 1, out).ok());  // SAD 4
  EXPECT_EQ(since(mark), sorted({{sad, 1, 4.0}, {m2, 0, 0.0}, {m3, 0, 4.0}}));
  mark = out.entries.size();
  ASSERT_TRUE(ex->extract(frames[2], frames[2], 2, out).ok());  // SAD 8
  EXPECT_EQ(since(mark), sorted({{sad, 2, 8.0}, {m2, 1, 4.0}, {m3, 1, 4.0}}));
  mark = out.entries.size();
  ASSERT_TRUE(ex->extract(frames[3], frames[3], 3, out).ok());  // SAD 1
  EXPECT_EQ(since(mark), sorted({{sad, 3, 1.0}, {m2, 2, 1.0}, {m3, 2, 1.0}}));
  mark = out.entries.size();
  ASSERT_TRUE(ex->flush(out).ok());
  EXPECT_EQ(since(mark), sorted({{m2, 3, 1.0}, {m3, 3, 1.0}}));
  mark = out.entries.size();
  ASSERT_TRUE(ex->flush(out).ok());  // a second flush writes nothing
  EXPECT_EQ(out.entries.size(), mark);
}

TEST(Motion, ShortSequences) {
  const PictureFormat fmt = format(8, 6, 8);
  const ExtractorSpec spec = spec_for({});
  const std::size_t m3 = slot_of(spec, "integer_motion3");
  {  // no frame: flush writes nothing
    auto ex = spec.make();
    ASSERT_TRUE(ex->init(fmt).ok());
    RecordingWriter out;
    ASSERT_TRUE(ex->flush(out).ok());
    EXPECT_TRUE(out.entries.empty());
  }
  {  // one frame: everything 0
    std::vector<Picture> frames;
    frames.push_back(flat_picture(fmt, 50));
    const RecordingWriter out = run_sequence(spec, frames);
    EXPECT_EQ(out.entries.size(), 3U);
    for (const auto& e : out.entries) {
      EXPECT_EQ(e.value, 0.0);
    }
  }
  {  // two frames: frame 0's motion3 is frame 1's SAD
    std::vector<Picture> frames;
    frames.push_back(flat_picture(fmt, 50));
    frames.push_back(flat_picture(fmt, 57));
    const RecordingWriter out = run_sequence(spec, frames);
    EXPECT_EQ(out.get(m3, 0), 7.0);
    EXPECT_EQ(out.get(m3, 1), 7.0);
    EXPECT_EQ(out.get(slot_of(spec, "integer_motion2"), 1), 7.0);
  }
  {  // five-frame window, two frames: no SAD at all, everything 0
    const ExtractorSpec ffw = spec_for({{"motion_five_frame_window", "true"}});
    std::vector<Picture> frames;
    frames.push_back(flat_picture(fmt, 50));
    frames.push_back(flat_picture(fmt, 57));
    const RecordingWriter out = run_sequence(ffw, frames);
    EXPECT_EQ(out.entries.size(), 6U);
    for (const auto& e : out.entries) {
      EXPECT_EQ(e.value, 0.0);
    }
  }
}

TEST(Motion, FiveFrameWindowAndMovingAverage) {
  // Flat 8-bit frames; with the window the SAD compares frame i with i - 2.
  const PictureFormat fmt = format(10, 10, 8);
  const std::vector<Picture> frames = flat_sequence(fmt, {0, 10, 30, 35, 50, 52});
  const std::vector<double> sad = {0, 0, 30, 25, 20, 17};
  // motion2: 0 before frame 2; frame 2 takes frame 3's SAD; then the min of
  // the SAD one frame before and one after; the last frame its own.
  const std::vector<double> m2 = {0, 0, 25, 20, 17, 17};
  {
    const ExtractorSpec spec = spec_for({{"mffw", "true"}});
    const RecordingWriter out = run_sequence(spec, frames);
    const std::vector<double> m3 = {30, 30, 25, 20, 17, 17};  // frames 0, 1: frame 2's SAD
    for (unsigned i = 0; i < frames.size(); ++i) {
      EXPECT_EQ(out.get(slot_of(spec, "VMAF_integer_feature_motion_sad_score"), i), sad[i]) << i;
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion2"), i), m2[i]) << i;
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), i), m3[i]) << i;
    }
  }
  {
    const ExtractorSpec spec = spec_for({{"mffw", "true"}, {"mma", "true"}});
    const RecordingWriter out = run_sequence(spec, frames);
    // The mean of this frame's and the previous frame's value (the stamp
    // for frame 2).
    const std::vector<double> m3 = {30, 30, 27.5, 22.5, 18.5, 17};
    for (unsigned i = 0; i < frames.size(); ++i) {
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), i), m3[i]) << i;
    }
  }
  {  // the vmaf_v1.0.16 configuration: clipped at 18
    const ExtractorSpec spec = spec_for({{"motion_five_frame_window", "true"},
                                         {"motion_max_val", "18"},
                                         {"motion_moving_average", "true"}});
    const RecordingWriter out = run_sequence(spec, frames);
    const std::vector<double> csad = {0, 0, 18, 18, 18, 17};
    const std::vector<double> cm2 = {0, 0, 18, 18, 17, 17};
    const std::vector<double> cm3 = {18, 18, 18, 18, 17.5, 17};
    for (unsigned i = 0; i < frames.size(); ++i) {
      EXPECT_EQ(out.get(slot_of(spec, "VMAF_integer_feature_motion_sad_score"), i), csad[i]);
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion2"), i), cm2[i]) << i;
      EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), i), cm3[i]) << i;
    }
  }
}

TEST(Motion, MovingAverageWithoutWindow) {
  const PictureFormat fmt = format(10, 10, 8);
  const std::vector<Picture> frames = flat_sequence(fmt, {0, 8, 20, 22});
  // SAD 0, 8, 12, 2; motion2 0, 8, 2, 2; stamp 8; averaged: 8, (8+8)/2, (2+8)/2, (2+2)/2.
  const ExtractorSpec spec = spec_for({{"motion_moving_average", "true"}});
  const RecordingWriter out = run_sequence(spec, frames);
  const std::vector<double> m3 = {8, 8, 5, 2};
  for (unsigned i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), i), m3[i]) << i;
  }
}

TEST(Motion, BlendFpsWeightAndClip) {
  const PictureFormat fmt = format(10, 10, 8);
  const std::vector<Picture> frames = flat_sequence(fmt, {0, 10, 12});
  {
    // motion3 = m2 * f + (1 - f) * min(offset, m2), f = 0.5, offset 3.
    const ExtractorSpec spec = spec_for({{"motion_blend_factor", "0.5"}, {"mbo", "3"}});
    const RecordingWriter out = run_sequence(spec, frames);
    // SAD 0, 10, 2; motion2 0, 2, 2; motion3: stamp blend(10) = 6.5, then
    // blend(2) = 2, 2.
    EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), 0), 6.5);
    EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), 1), 2.0);
    EXPECT_EQ(out.get(slot_of(spec, "integer_motion3"), 2), 2.0);
  }
  {
    const ExtractorSpec spec = spec_for({{"mfw", "2"}, {"mmxv", "15"}});
    const RecordingWriter out = run_sequence(spec, frames);
    const std::size_t sad = slot_of(spec, "VMAF_integer_feature_motion_sad_score");
    EXPECT_EQ(out.get(sad, 1), 15.0);  // 20, clipped
    EXPECT_EQ(out.get(sad, 2), 4.0);
  }
}

TEST(Motion, ForceZero) {
  std::mt19937 rng(5);
  const PictureFormat fmt = format(12, 12, 8);
  const std::vector<Picture> frames = random_sequence(fmt, 4, rng);
  const ExtractorSpec spec = spec_for({{"force_0", "true"}, {"debug", "true"}});
  const RecordingWriter out = run_sequence(spec, frames);
  EXPECT_EQ(out.entries.size(), 16U);
  for (const auto& e : out.entries) {
    EXPECT_EQ(e.value, 0.0);
  }
}

TEST(Motion, DebugAddsTheRawScore) {
  const PictureFormat fmt = format(10, 10, 8);
  const std::vector<Picture> frames = flat_sequence(fmt, {0, 3, 9});
  const ExtractorSpec spec = spec_for({{"debug", "true"}});
  const RecordingWriter out = run_sequence(spec, frames);
  const std::size_t dbg = slot_of(spec, "integer_motion");
  const std::size_t sad = slot_of(spec, "VMAF_integer_feature_motion_sad_score");
  for (unsigned i = 0; i < frames.size(); ++i) {
    EXPECT_EQ(out.get(dbg, i), out.get(sad, i));
  }
}

TEST(Motion, ExtractDoesNotAllocate) {
  std::mt19937 rng(6);
  for (const OptionMap& opts :
       {OptionMap{}, OptionMap{{"mffw", "true"}, {"mma", "true"}, {"debug", "true"}}}) {
    for (unsigned bpc : {8U, 10U, 16U}) {
      const PictureFormat fmt = format(40, 30, bpc);
      const std::vector<Picture> frames = random_sequence(fmt, 5, rng);
      const ExtractorSpec spec = spec_for(opts);
      auto ex = spec.make();
      const long at_init = allocations();
      ASSERT_TRUE(ex->init(fmt).ok());
      EXPECT_GT(allocations(), at_init);  // the counter sees init's buffers
      RecordingWriter out;
      const long before = allocations();
      for (unsigned i = 0; i < frames.size(); ++i) {
        ASSERT_TRUE(ex->extract(frames[i], frames[i], i, out).ok());
      }
      ASSERT_TRUE(ex->flush(out).ok());
      EXPECT_EQ(allocations(), before) << "bpc " << bpc;
    }
  }
}

TEST(Motion, InitStartsAFreshSequence) {
  std::mt19937 rng(8);
  const PictureFormat fmt = format(20, 12, 8);
  const std::vector<Picture> frames = random_sequence(fmt, 3, rng);
  const ExtractorSpec spec = spec_for({});
  auto ex = spec.make();
  RecordingWriter first;
  RecordingWriter second;
  for (RecordingWriter* out : {&first, &second}) {
    ASSERT_TRUE(ex->init(fmt).ok());
    for (unsigned i = 0; i < frames.size(); ++i) {
      ASSERT_TRUE(ex->extract(frames[i], frames[i], i, *out).ok());
    }
    ASSERT_TRUE(ex->flush(*out).ok());
  }
  ASSERT_EQ(first.entries.size(), second.entries.size());
  for (std::size_t i = 0; i < first.entries.size(); ++i) {
    EXPECT_EQ(first.entries[i].value, second.entries[i].value);
  }
}

// ---------------------------------------------------------------------------
// Errors

TEST(Motion, RefusesPicturesSmallerThan3x3) {
  const ExtractorSpec spec = spec_for({});
  for (auto [w, h] : {std::pair{2U, 5U}, {5U, 2U}, {1U, 1U}}) {
    auto ex = spec.make();
    const Status s = ex->init(format(w, h, 8));
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), Errc::kUnsupported);
  }
  auto ex = spec.make();
  EXPECT_TRUE(ex->init(format(3, 3, 8)).ok());
}

TEST(Motion, RefusesFramesOutOfOrderOrOfAnotherFormat) {
  const PictureFormat fmt = format(8, 8, 8);
  const ExtractorSpec spec = spec_for({});
  const Picture a = flat_picture(fmt, 1);
  RecordingWriter out;
  {
    auto ex = spec.make();
    ASSERT_TRUE(ex->init(fmt).ok());
    EXPECT_FALSE(ex->extract(a, a, 1, out).ok());  // must start at 0
    ASSERT_TRUE(ex->extract(a, a, 0, out).ok());
    EXPECT_FALSE(ex->extract(a, a, 0, out).ok());  // repeated
    EXPECT_FALSE(ex->extract(a, a, 2, out).ok());  // skipped
    const Picture other = flat_picture(format(8, 8, 10), 1);
    const Status s = ex->extract(other, other, 1, out);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), Errc::kMismatch);
    ASSERT_TRUE(ex->extract(a, a, 1, out).ok());
    ASSERT_TRUE(ex->flush(out).ok());
    EXPECT_FALSE(ex->extract(a, a, 2, out).ok());  // after flush
  }
  {
    auto ex = spec.make();
    EXPECT_FALSE(ex->extract(a, a, 0, out).ok());  // before init
  }
}

// ---------------------------------------------------------------------------
// Options and names

std::vector<std::string> names(const ExtractorSpec& spec) {
  std::vector<std::string> n;
  n.reserve(spec.outputs.size());
  for (const auto& o : spec.outputs) {
    n.push_back(o.name);
  }
  return n;
}

TEST(MotionSpec, DefaultNamesAndFlags) {
  const ExtractorSpec spec = spec_for({});
  EXPECT_EQ(spec.family, "motion");
  EXPECT_TRUE(spec.temporal);
  EXPECT_EQ(names(spec), (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score",
                                                   "integer_motion2", "integer_motion3"}));
  const ExtractorSpec debug = spec_for({{"debug", "true"}});
  EXPECT_EQ(names(debug),
            (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score", "integer_motion",
                                      "integer_motion2", "integer_motion3"}));
  EXPECT_NE(spec.key, debug.key);
}

TEST(MotionSpec, OptionSuffixesAsLibvmaf) {
  // vmaf_v1.0.16 models: motion_max_val=18, and the window variant.
  EXPECT_EQ(names(spec_for({{"motion_max_val", "18"}})),
            (std::vector<std::string>{"VMAF_integer_feature_motion_sad_score_mmxv_18",
                                      "integer_motion2_mmxv_18", "integer_motion3_mmxv_18"}));
  const ExtractorSpec v16 = spec_for({{"motion_five_frame_window", "true"},
                                      {"motion_max_val", "18.0"},
                                      {"motion_moving_average", "true"},
                                      {"debug", "true"}});
  EXPECT_EQ(names(v16), (std::vector<std::string>{
                            "VMAF_integer_feature_motion_sad_score_mffw_mmxv_18_mma",
                            "integer_motion_mffw_mmxv_18_mma", "integer_motion2_mffw_mmxv_18_mma",
                            "integer_motion3_mffw_mmxv_18_mma"}));
  // Aliases are accepted as keys; values are printed with %g; suffixes are
  // sorted by option name (blend_factor < blend_offset < force_zero < fps).
  EXPECT_EQ(spec_for({{"mbf", "0.25"}, {"mbo", "12.5"}, {"force_0", "true"}, {"mfw", "2"}})
                .outputs[1]
                .name,
            "integer_motion2_mbf_0.25_mbo_12.5_force_0_mfw_2");
  // A default value given explicitly adds nothing.
  EXPECT_EQ(spec_for({{"motion_max_val", "10000"}, {"mma", "false"}}).outputs[2].name,
            "integer_motion3");
  EXPECT_NE(spec_for({{"mmxv", "18"}}).key, spec_for({}).key);
  EXPECT_EQ(spec_for({{"mmxv", "18"}}).key, spec_for({{"motion_max_val", "18"}}).key);
}

TEST(MotionSpec, RejectsBadOptions) {
  const ExtractorFamily& fam = integer_motion_family();
  EXPECT_FALSE(fam.make_spec({{"motion_max_val", "10001"}}).ok());
  EXPECT_FALSE(fam.make_spec({{"motion_max_val", "-1"}}).ok());
  EXPECT_FALSE(fam.make_spec({{"motion_blend_factor", "1.5"}}).ok());
  EXPECT_FALSE(fam.make_spec({{"motion_blend_offset", "1000.5"}}).ok());
  EXPECT_FALSE(fam.make_spec({{"motion_fps_weight", "5.01"}}).ok());
  EXPECT_FALSE(fam.make_spec({{"mffw", "maybe"}}).ok());
  EXPECT_FALSE(fam.make_spec({{"motion_filter_size", "3"}}).ok());
  EXPECT_TRUE(fam.make_spec({{"motion_max_val", "0"}, {"mfw", "5"}, {"mbo", "1000"}}).ok());
}

TEST(MotionSpec, ModelAliases) {
  const ExtractorFamily& fam = integer_motion_family();
  EXPECT_STREQ(fam.name, "motion");
  std::map<std::string, std::string> provides;
  for (const FeatureAlias& a : fam.provides) {
    provides[a.model_name] = a.base;
  }
  EXPECT_EQ(provides["VMAF_integer_feature_motion2_score"], "integer_motion2");
  EXPECT_EQ(provides["VMAF_integer_feature_motion3_score"], "integer_motion3");
  EXPECT_EQ(provides["VMAF_integer_feature_motion_score"], "integer_motion");
  EXPECT_EQ(provides["VMAF_integer_feature_motion_sad_score"],
            "VMAF_integer_feature_motion_sad_score");
}

}  // namespace
}  // namespace vqx

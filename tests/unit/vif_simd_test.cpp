// Integer VIF's Highway row kernels (src/metrics/vif/simd.hpp) against
// their plain reference forms, under every Highway target this CPU runs
// (checkasm-style): each kernel on adversarial rows (all zero, all at the
// maximum, random over the full range, near-equal reference and
// distortion) at every width from 1 to 67 and every depth, and whole
// frames of CpuKernel::compute against CpuKernel::compute_reference (the
// plain loops) at odd sizes, the smallest, wider than a strip, and every
// depth.
// The kernels are compiled for AVX3_DL too (simd.cpp): ask for it here, so
// that for_each_simd_target runs it; and, on CPUs with AVX512_VNNI, for
// AVX3 with vpdpwssd (simd_avx3_vnni.cpp), which for_each_vif_target runs
// besides.
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL 1
#endif
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "metrics/vif/cpu.hpp"
#include "metrics/vif/simd.hpp"
#include "simd_targets.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using vif::simd::kBlock;
using vif::simd::kPad;
using vif::simd::kRowPlanes;
using vif::simd::kSourcePlanes;

// Every Highway target this CPU runs (AVX3 with its plain pairwise
// multiply-adds), then, where the CPU has AVX512_VNNI, AVX3 once more as a
// CPU with VNNI but without Highway's AVX3_DL runs it: with vpdpwssd
// (simd_avx3_vnni.cpp).
template <typename Check>
void for_each_vif_target(Check&& check) {
  vif::simd::set_avx3_vnni_enabled(false);
  vqx::test::for_each_simd_target(check);
  vif::simd::set_avx3_vnni_enabled(true);
  if (!vif::simd::avx3_vnni_available() || (hwy::SupportedTargets() & HWY_AVX3) == 0) {
    std::printf("[ simd     ] AVX3 with VNNI (simd_avx3_vnni.cpp): not executable here\n");
    return;
  }
  hwy::SetSupportedTargetsForTest(HWY_AVX3);
  {
    SCOPED_TRACE("Highway target AVX3 with VNNI (simd_avx3_vnni.cpp)");
    check(std::string("AVX3+VNNI"));
  }
  hwy::SetSupportedTargetsForTest(0);
  std::printf("[ simd     ] ran under: AVX3 with VNNI (simd_avx3_vnni.cpp) too\n");
}

enum class Content { kZero, kMax, kRandom, kNearEqual, kFlatRef };
constexpr Content kContents[] = {Content::kZero, Content::kMax, Content::kRandom,
                                 Content::kNearEqual, Content::kFlatRef};

std::string name(Content c) {
  switch (c) {
    case Content::kZero:
      return "zero";
    case Content::kMax:
      return "max";
    case Content::kRandom:
      return "random";
    case Content::kNearEqual:
      return "near-equal";
    default:
      return "flat-ref";
  }
}

// Reference and distorted samples of `count` values below 2^bpc.
struct Samples {
  std::vector<std::uint32_t> ref;
  std::vector<std::uint32_t> dis;
};
Samples make_samples(std::size_t count, unsigned bpc, Content c, std::mt19937& rng) {
  const std::uint32_t maxv = (1U << bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, maxv);
  std::uniform_int_distribution<int> near(-3, 3);
  Samples s{std::vector<std::uint32_t>(count), std::vector<std::uint32_t>(count)};
  const std::uint32_t flat = any(rng);
  for (std::size_t i = 0; i < count; ++i) {
    switch (c) {
      case Content::kZero:
        s.ref[i] = s.dis[i] = 0;
        break;
      case Content::kMax:
        s.ref[i] = s.dis[i] = maxv;
        break;
      case Content::kRandom:
        s.ref[i] = any(rng);
        s.dis[i] = any(rng);
        break;
      case Content::kNearEqual:
        s.ref[i] = any(rng);
        s.dis[i] = static_cast<std::uint32_t>(
            std::clamp<std::int64_t>(std::int64_t{s.ref[i]} + near(rng), 0, maxv));
        break;
      default:
        s.ref[i] = flat;
        s.dis[i] = any(rng);
        break;
    }
  }
  return s;
}

// kRowPlanes (or kSourcePlanes) rows of int16 with kPad margins, the
// margins and the columns past the width filled with `fill`.
struct PlaneRows {
  PlaneRows(int count, std::size_t width, std::int16_t fill)
      : stride(kPad + round_up(width, kBlock) + kPad),
        data(static_cast<std::size_t>(count) * stride, fill) {
    for (int p = 0; p < count; ++p) rows.push_back(data.data() + p * stride + kPad);
  }
  std::size_t stride;
  std::vector<std::int16_t> data;
  std::vector<std::int16_t*> rows;
};

void expect_rows_equal(const PlaneRows& got, const PlaneRows& want, int count, std::size_t w) {
  for (int p = 0; p < count; ++p) {
    for (std::size_t j = 0; j < w; ++j) {
      ASSERT_EQ(got.rows[p][j], want.rows[p][j]) << "plane " << p << " column " << j;
    }
  }
}

// 17 source rows of 8-bit samples, each padded to kBlock.
TEST(VifSimd, Vertical8BitMatchesReference) {
  std::mt19937 rng(12);
  for_each_vif_target([&](const std::string&) {
    for (const Content c : kContents) {
      for (std::size_t w = 1; w <= 67; ++w) {
        SCOPED_TRACE(name(c) + " width " + std::to_string(w));
        const std::size_t padded = round_up(w, kBlock);
        std::vector<std::vector<std::uint8_t>> ref(17), dis(17);
        vif::simd::Taps8 taps{};
        for (int k = 0; k < 17; ++k) {
          const Samples s = make_samples(padded, 8, c, rng);
          ref[k].assign(s.ref.begin(), s.ref.end());
          dis[k].assign(s.dis.begin(), s.dis.end());
          taps.ref[k] = ref[k].data();
          taps.dis[k] = dis[k].data();
        }
        PlaneRows got(kRowPlanes, w, 7), want(kRowPlanes, w, 7);
        vif::simd::vertical_8bit(taps, w, got.rows.data());
        vif::simd::reference::vertical_8bit(taps, w, want.rows.data());
        expect_rows_equal(got, want, kRowPlanes, w);
      }
    }
  });
}

// The Q11 log2 of every table index (the top 16 significant bits), at
// several exponents and with the bits below the index set or clear: the
// entries the AVX-512 target computes instead of loading must equal the
// table's, all 32768 of them.
TEST(VifSimd, Log2EntriesEqualTheTable) {
  const std::uint16_t* lut = vif::log2_q11_table().data();
  constexpr std::uint64_t kFirst = 1U << 15;
  constexpr std::uint64_t kIndices = kFirst;  // 2^15 .. 2^16 - 1
  std::mt19937_64 rng(23);
  for_each_vif_target([&](const std::string&) {
    for (const int shift : {1, 9, 16, 37}) {
      for (const bool low_bits : {false, true}) {
        SCOPED_TRACE("index << " + std::to_string(shift) + (low_bits ? ", low bits set" : ""));
        std::vector<double> v(kIndices);
        for (std::uint64_t i = 0; i < kIndices; ++i) {
          const std::uint64_t below = low_bits ? rng() & ((std::uint64_t{1} << shift) - 1) : 0;
          v[i] = static_cast<double>(((kFirst + i) << shift) | below);
        }
        std::vector<std::int32_t> got(kIndices), want(kIndices);
        vif::simd::log2_q11(lut, v.data(), v.size(), got.data());
        vif::simd::reference::log2_q11(lut, v.data(), v.size(), want.data());
        for (std::uint64_t i = 0; i < kIndices; ++i) {
          ASSERT_EQ(got[i], want[i]) << "index " << kFirst + i;
          // Independently of the reference form: the whole part and the entry.
          ASSERT_EQ(want[i], (shift << vif::kLogFracBits) + lut[kFirst + i])
              << "index " << kFirst + i;
        }
      }
    }
  });
}

TEST(VifSimd, Prepare16BitMatchesReference) {
  std::mt19937 rng(13);
  for_each_vif_target([&](const std::string&) {
    for (const unsigned bpc : {8U, 10U, 12U, 16U}) {
      for (const Content c : kContents) {
        for (std::size_t w = 1; w <= 67; w += 3) {
          SCOPED_TRACE(name(c) + " bpc " + std::to_string(bpc) + " width " + std::to_string(w));
          const Samples s = make_samples(round_up(w, kBlock), bpc, c, rng);
          const std::vector<std::uint16_t> ref(s.ref.begin(), s.ref.end());
          const std::vector<std::uint16_t> dis(s.dis.begin(), s.dis.end());
          PlaneRows got(kSourcePlanes, w, 0), want(kSourcePlanes, w, 0);
          vif::simd::prepare_16bit(ref.data(), dis.data(), w, got.rows.data());
          vif::simd::reference::prepare_16bit(ref.data(), dis.data(), w, want.rows.data());
          expect_rows_equal(got, want, kSourcePlanes, w);
        }
      }
    }
  });
}

// Prepared rows of tap k for filter `scale`, made by the reference.
struct PreparedTaps {
  PreparedTaps(int scale, std::size_t w, unsigned bpc, Content c, std::mt19937& rng) {
    const int taps_count = 2 * vif::kFilters[scale].half + 1;
    for (int k = 0; k < taps_count; ++k) {
      const Samples s = make_samples(round_up(w, kBlock), bpc, c, rng);
      const std::vector<std::uint16_t> ref(s.ref.begin(), s.ref.end());
      const std::vector<std::uint16_t> dis(s.dis.begin(), s.dis.end());
      rows.emplace_back(kSourcePlanes, w, 0);
      vif::simd::reference::prepare_16bit(ref.data(), dis.data(), round_up(w, kBlock),
                                          rows.back().rows.data());
    }
    for (int k = 0; k < taps_count; ++k) {
      for (int p = 0; p < kSourcePlanes; ++p) taps.rows[p][k] = rows[k].rows[p];
    }
  }
  std::vector<PlaneRows> rows;
  vif::simd::Taps16 taps{};
};

TEST(VifSimd, Vertical16BitMatchesReference) {
  std::mt19937 rng(14);
  for_each_vif_target([&](const std::string&) {
    for (int scale = 0; scale < vif::kScaleCount; ++scale) {
      for (const unsigned bpc : {8U, 10U, 12U, 16U}) {
        // Scale 0 takes bpc-bit samples; the others 16-bit ones.
        if (scale == 0 && bpc == 8) continue;
        const unsigned sample_bpc = scale == 0 ? bpc : 16;
        const vif::Rounding means = vif::mean_rounding(scale, bpc);
        const vif::Rounding squares = vif::square_rounding(scale, bpc);
        for (const Content c : kContents) {
          for (std::size_t w = 1; w <= 67; w += 2) {
            SCOPED_TRACE(name(c) + " scale " + std::to_string(scale) + " bpc " +
                         std::to_string(bpc) + " width " + std::to_string(w));
            // Up to kVerticalRows output rows of taps of their own in one
            // call: each must equal the reference's of that row alone (the
            // reference filters its rows one after the other).
            const int rows = 1 + static_cast<int>(w % vif::simd::kVerticalRows);
            std::vector<PreparedTaps> in;
            in.reserve(static_cast<std::size_t>(rows));
            std::vector<vif::simd::Taps16> taps;
            for (int r = 0; r < rows; ++r) {
              in.emplace_back(scale, w, sample_bpc, c, rng);
              taps.push_back(in.back().taps);
            }
            PlaneRows got(rows * kRowPlanes, w, 3);
            vif::simd::vertical_16bit(scale, taps.data(), rows, w, means, squares, got.rows.data());
            PlaneRows want(rows * kRowPlanes, w, 3);
            vif::simd::reference::vertical_16bit(scale, taps.data(), rows, w, means, squares,
                                                 want.rows.data());
            expect_rows_equal(got, want, rows * kRowPlanes, w);
          }
        }
      }
    }
  });
}

// Row planes as the vertical pass makes them from adversarial samples,
// borders mirrored: the statistics then take every branch.
TEST(VifSimd, RowStatsMatchesReference) {
  std::mt19937 rng(15);
  const std::uint16_t* lut = vif::log2_q11_table().data();
  for_each_vif_target([&](const std::string&) {
    for (int scale = 0; scale < vif::kScaleCount; ++scale) {
      const int half = vif::kFilters[scale].half;
      for (const unsigned bpc : {8U, 10U, 16U}) {
        const unsigned sample_bpc = scale == 0 ? bpc : 16;
        for (const Content c : kContents) {
          for (unsigned w = static_cast<unsigned>(half) + 1; w <= 67; ++w) {
            SCOPED_TRACE(name(c) + " scale " + std::to_string(scale) + " bpc " +
                         std::to_string(bpc) + " width " + std::to_string(w));
            const PreparedTaps in(scale, w, sample_bpc, c, rng);
            PlaneRows planes(kRowPlanes, w, -5);
            vif::simd::reference::vertical_16bit(
                scale, &in.taps, 1, w, vif::mean_rounding(scale, bpc),
                vif::square_rounding(scale, bpc), planes.rows.data());
            for (std::int16_t* row : planes.rows) pad_reflect101(row, static_cast<int>(w), half);
            std::vector<std::uint16_t> scratch(vif::simd::row_stats_scratch(w));
            for (const double gain_limit : {100.0, 1.0}) {
              vif::simd::RowSums got, want;
              vif::simd::row_stats(scale, planes.rows.data(), w, gain_limit, lut, scratch.data(),
                                   got);
              vif::simd::reference::row_stats(scale, planes.rows.data(), w, gain_limit, lut, want);
              ASSERT_EQ(got.num_log, want.num_log);
              ASSERT_EQ(got.den_log, want.den_log);
              ASSERT_EQ(got.num_lin, want.num_lin);
              ASSERT_EQ(got.den_lin, want.den_lin);
            }
          }
        }
      }
    }
  });
}

// Row planes made piecewise constant, segment by segment, so that the
// pixels inside a segment have exactly the statistics chosen for it (the
// means are constant along the row, so mu1^2, mu2^2 and mu1 mu2 are exact,
// and the filters' taps sum to 2^16): flat pixels (sigma1^2 at most
// sigma_nsq - 1, some below 0), sigma1^2 exactly sigma_nsq, informative
// pixels without a gain term (sigma12 <= 0 or sigma2^2 <= 0) and with one
// (gains below and above the limit). Segments of 1 to 40 columns mix the
// kinds within every vector, and long ones make whole vectors of one kind,
// on the flat path the kernels skip and on each of the others; the pixels
// between segments are mixtures of their neighbours' statistics. Every
// segment keeps sigma12^2 <= sigma1^2 sigma2^2, as real pictures do.
TEST(VifSimd, RowStatsSegmentsAtTheThresholds) {
  std::mt19937 rng(17);
  const std::uint16_t* lut = vif::log2_q11_table().data();
  constexpr std::int64_t kNsq = vif::kSigmaNsq;
  const auto uniform = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  // (sigma1^2, sigma2^2 before its clamp at 0, sigma12) of one segment.
  struct Stats {
    std::int64_t s11, s22, s12;
  };
  const auto within = [&](std::int64_t s11, std::int64_t s22, std::int64_t lo) {
    // sigma12 in [lo, sqrt(s11 * s22)], or 0 where that is empty.
    const auto bound =
        static_cast<std::int64_t>(std::sqrt(static_cast<double>(std::max<std::int64_t>(s11, 0)) *
                                            static_cast<double>(std::max<std::int64_t>(s22, 0))));
    return lo <= bound ? uniform(lo, bound) : 0;
  };
  const auto pick = [&]() -> Stats {
    const std::int64_t s22 = uniform(0, 3) == 0 ? uniform(-3, 1) : uniform(0, 1 << 26);
    switch (uniform(0, 5)) {
      case 0: {  // flat
        const std::int64_t s11 = uniform(0, 2) == 0 ? kNsq - 1 : uniform(-5, kNsq - 1);
        return {s11, s22, within(s11, s22, -within(s11, s22, 0))};
      }
      case 1:  // exactly at the noise: informative
        return {kNsq, s22, uniform(0, 1) == 0 ? uniform(-1, 1) : within(kNsq, s22, 0)};
      case 2: {  // informative, no gain term
        const std::int64_t s11 = uniform(kNsq, 1 << 30);
        return uniform(0, 1) == 0 ? Stats{s11, s22, -within(s11, s22, 0)}
                                  : Stats{s11, uniform(-3, 0), 0};
      }
      case 3: {  // a gain below 1
        const std::int64_t s11 = uniform(kNsq, 1 << 30);
        const std::int64_t s22p = uniform(1, 1 << 26);
        return {s11, s22p, within(s11, std::min(s22p, s11), 1)};
      }
      case 4: {  // a gain above 1 (the limit of 1.0 caps it)
        const std::int64_t s11 = uniform(kNsq, 1 << 22);
        const std::int64_t s12 = uniform(s11 + 1, 4 * s11);
        return {s11, s12 * s12 / s11 + uniform(1, 1000), s12};
      }
      default: {  // anything informative
        const std::int64_t s11 = uniform(kNsq - 3, 1 << 30);
        return {s11, s22, within(s11, s22, -within(s11, s22, 0))};
      }
    }
  };
  for_each_vif_target([&](const std::string&) {
    for (int scale = 0; scale < vif::kScaleCount; ++scale) {
      const int half = vif::kFilters[scale].half;
      for (const unsigned w : {17U, 40U, 64U, 101U, 257U, 700U, 1100U}) {
        for (int round = 0; round < 4; ++round) {
          SCOPED_TRACE("scale " + std::to_string(scale) + " width " + std::to_string(w) +
                       " round " + std::to_string(round));
          PlaneRows planes(kRowPlanes, w, -5);
          const auto m1 = static_cast<std::uint32_t>(uniform(0, 65535));
          const auto m2 = static_cast<std::uint32_t>(uniform(0, 65535));
          const auto biased = [](std::uint32_t v) {
            return static_cast<std::int16_t>(static_cast<std::int32_t>(v & 0xffffU) - 32768);
          };
          // Long segments in the first rounds, short ones after.
          const std::int64_t longest = round < 2 ? 200 : 40;
          for (unsigned j = 0; j < w;) {
            const Stats st = pick();
            const auto end =
                static_cast<unsigned>(std::min<std::int64_t>(w, j + uniform(1, longest)));
            const auto xx = static_cast<std::uint32_t>(std::int64_t{m1} * m1 + st.s11);
            const auto yy = static_cast<std::uint32_t>(std::int64_t{m2} * m2 + st.s22);
            const auto xy = static_cast<std::uint32_t>(std::int64_t{m1} * m2 + st.s12);
            for (; j < end; ++j) {
              planes.rows[vif::simd::kMu1][j] = biased(m1);
              planes.rows[vif::simd::kMu2][j] = biased(m2);
              planes.rows[vif::simd::kXxHi][j] = biased(xx >> 16);
              planes.rows[vif::simd::kXxLo][j] = biased(xx);
              planes.rows[vif::simd::kYyHi][j] = biased(yy >> 16);
              planes.rows[vif::simd::kYyLo][j] = biased(yy);
              planes.rows[vif::simd::kXyHi][j] = biased(xy >> 16);
              planes.rows[vif::simd::kXyLo][j] = biased(xy);
            }
          }
          for (std::int16_t* row : planes.rows) pad_reflect101(row, static_cast<int>(w), half);
          std::vector<std::uint16_t> scratch(vif::simd::row_stats_scratch(w));
          for (const double gain_limit : {100.0, 1.0}) {
            vif::simd::RowSums got, want;
            vif::simd::row_stats(scale, planes.rows.data(), w, gain_limit, lut, scratch.data(),
                                 got);
            vif::simd::reference::row_stats(scale, planes.rows.data(), w, gain_limit, lut, want);
            ASSERT_EQ(got.num_log, want.num_log);
            ASSERT_EQ(got.den_log, want.den_log);
            ASSERT_EQ(got.num_lin, want.num_lin);
            ASSERT_EQ(got.den_lin, want.den_lin);
          }
        }
      }
    }
  });
}

// One row of the pyramid: 8-bit scale 0, and 16-bit sources through each
// filter (scale 0 at 10 to 16 bits, scales 1 and 2), with the vertical
// rounding of each (params.hpp), at odd and even widths.
TEST(VifSimd, DownsampleMatchesReference) {
  std::mt19937 rng(18);
  for_each_vif_target([&](const std::string&) {
    struct Case {
      int scale;
      unsigned bpc;
    };
    for (const Case cs :
         {Case{0, 8}, Case{0, 10}, Case{0, 16}, Case{1, 8}, Case{1, 12}, Case{2, 8}}) {
      const int filter = cs.scale + 1;
      const int taps_count = 2 * vif::kFilters[filter].half + 1;
      const unsigned sample_bpc = cs.scale == 0 ? cs.bpc : 16;
      const vif::Rounding vertical = vif::mean_rounding(cs.scale, cs.bpc);
      for (const Content c : kContents) {
        for (unsigned w = 2; w <= 70; w += (w < 40 ? 1 : 7)) {
          SCOPED_TRACE(name(c) + " scale " + std::to_string(cs.scale) + " bpc " +
                       std::to_string(cs.bpc) + " width " + std::to_string(w));
          const std::size_t padded = round_up(std::size_t{w}, kBlock);
          std::vector<std::vector<std::uint16_t>> rows16(taps_count);
          std::vector<std::vector<std::uint8_t>> rows8(taps_count);
          const std::uint16_t* p16[2 * vif::kMaxHalf + 1] = {};
          const std::uint8_t* p8[2 * vif::kMaxHalf + 1] = {};
          for (int k = 0; k < taps_count; ++k) {
            const Samples s = make_samples(padded, sample_bpc, c, rng);
            rows16[k].assign(s.ref.begin(), s.ref.end());
            rows8[k].assign(s.ref.begin(), s.ref.end());
            p16[k] = rows16[k].data();
            p8[k] = rows8[k].data();
          }
          PlaneRows conv_got(1, w, 0), conv_want(1, w, 0);
          std::vector<std::uint16_t> got(padded, 0), want(padded, 0);
          if (sample_bpc == 8) {
            vif::simd::downsample_8bit(p8, w, vertical, conv_got.rows[0], got.data());
            vif::simd::reference::downsample_8bit(p8, w, vertical, conv_want.rows[0], want.data());
          } else {
            vif::simd::downsample_16bit(filter, p16, w, vertical, conv_got.rows[0], got.data());
            vif::simd::reference::downsample_16bit(filter, p16, w, vertical, conv_want.rows[0],
                                                   want.data());
          }
          for (unsigned j = 0; j < w / 2; ++j) ASSERT_EQ(got[j], want[j]) << "column " << j;
        }
      }
    }
  });
}

// Whole frames: the row kernels against the plain loops of cpu.cpp.
Picture random_picture(unsigned w, unsigned h, unsigned bpc, const Samples& s) {
  Picture p = std::move(Picture::make(PictureFormat{w, h, bpc, ChromaFormat::k420}).value());
  for (unsigned y = 0; y < h; ++y) {
    for (unsigned x = 0; x < w; ++x) testutil::set_sample(p.plane(0), x, y, s.ref[y * w + x]);
  }
  return p;
}

TEST(VifSimd, FramesMatchThePlainLoops) {
  std::mt19937 rng(16);
  struct Size {
    unsigned w, h;
  };
  // Wider than a strip of the row kernels at scales 0 and 1 (1024 columns
  // of 16-bit sources, 4096 of 8-bit ones: cpu.cpp).
  const Size sizes[] = {{16, 16},  {17, 19},   {37, 29},   {67, 33},
                        {130, 71}, {1100, 17}, {2100, 16}, {4200, 17}};
  for_each_vif_target([&](const std::string&) {
    for (const unsigned bpc : {8U, 10U, 12U, 16U}) {
      for (const Size size : sizes) {
        for (const Content c : kContents) {
          SCOPED_TRACE(name(c) + " bpc " + std::to_string(bpc) + " " + std::to_string(size.w) +
                       "x" + std::to_string(size.h));
          const Samples s = make_samples(std::size_t{size.w} * size.h, bpc, c, rng);
          const Picture ref = random_picture(size.w, size.h, bpc, s);
          const Picture dis = random_picture(size.w, size.h, bpc, Samples{s.dis, s.dis});
          vif::CpuKernel kernel;
          ASSERT_TRUE(kernel.init(size.w, size.h, bpc).ok());
          for (const double gain_limit : {100.0, 1.0}) {
            vif::FrameSums got, want;
            const vif::KernelParams params{.gain_limit = gain_limit};
            kernel.compute(ref.plane(0), dis.plane(0), params, got);
            kernel.compute_reference(ref.plane(0), dis.plane(0), params, want);
            for (int k = 0; k < vif::kScaleCount; ++k) {
              EXPECT_EQ(got[k].num, want[k].num) << "scale " << k;
              EXPECT_EQ(got[k].den, want[k].den) << "scale " << k;
            }
          }
        }
      }
    }
  });
}

}  // namespace
}  // namespace vqx

// Unit tests of the integer PSNR family ("psnr"): the SSE kernel against a
// brute-force sum, hand-computed scores at several depths and chroma
// formats, the caps (lossless pictures, min_sse, reduced_hbd_peak), the
// optional mse and aggregate outputs, names, options and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/psnr/cpu.hpp"
#include "metrics/psnr/params.hpp"
#include "metrics/psnr/score.hpp"
#include "simd_targets.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

// ---------------------------------------------------------------------------
// Helpers

using testutil::format;
using testutil::make_picture_per_plane;
using testutil::MapWriter;

// Every plane, chroma too, is `value`.
Picture flat_picture(const PictureFormat& fmt, std::uint32_t value) {
  return make_picture_per_plane(fmt, [value](unsigned, unsigned, unsigned) { return value; });
}

// Every plane, chroma too, uniform in [0, 2^bpc), drawn in plane and row order.
Picture random_picture(const PictureFormat& fmt, std::mt19937& rng) {
  const std::uint32_t max = (1U << fmt.bpc) - 1;
  return make_picture_per_plane(fmt,
                                [&](unsigned, unsigned, unsigned) { return rng() % (max + 1); });
}

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(psnr_family(), options);
}

std::vector<std::string> names(const std::vector<ExtractorOutput>& outputs) {
  std::vector<std::string> out;
  out.reserve(outputs.size());
  for (const auto& o : outputs) {
    out.push_back(o.name);
  }
  return out;
}

// Runs init, extract on every pair (as frames 0, 1, ...) and flush.
using Frames = std::vector<std::pair<const Picture*, const Picture*>>;
MapWriter run(const ExtractorSpec& spec, const Frames& frames) {
  MapWriter out;
  auto ex = spec.make();
  const Status init = ex->init(frames.at(0).first->format());
  EXPECT_TRUE(init.ok()) << init.message();
  for (unsigned i = 0; i < frames.size(); ++i) {
    const Status s = ex->extract(*frames[i].first, *frames[i].second, i, out);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  EXPECT_TRUE(ex->flush(out).ok());
  return out;
}

MapWriter run_one(const ExtractorSpec& spec, const Picture& ref, const Picture& dist) {
  return run(spec, {{&ref, &dist}});
}

std::uint64_t brute_force_sse(const Plane& a, const Plane& b) {
  std::uint64_t sse = 0;
  for (unsigned y = 0; y < a.height(); ++y) {
    for (unsigned x = 0; x < a.width(); ++x) {
      const std::int64_t e = std::int64_t{a.at(x, y)} - std::int64_t{b.at(x, y)};
      sse += static_cast<std::uint64_t>(e * e);
    }
  }
  return sse;
}

// ---------------------------------------------------------------------------
// The kernel

// Every vector target the CPU runs (checkasm-style) against the brute-force
// sum: random pictures, and full scale against zero (the largest squares,
// which the 32-bit lane sums must not overflow), at every depth and at
// widths around every vector length.
TEST(PsnrKernel, EveryTargetMatchesBruteForceAtEveryDepth) {
  std::mt19937 rng(3);
  struct Case {
    std::string what;
    Picture a, b;
    std::uint64_t expected;
  };
  std::vector<Case> cases;
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const std::uint32_t max = (1U << bpc) - 1;
    for (auto [w, h] : {std::pair{1U, 1U},
                        {3U, 2U},
                        {17U, 9U},
                        {31U, 3U},
                        {33U, 2U},
                        {64U, 5U},
                        {65U, 3U},
                        {7U, 33U},
                        {127U, 2U},
                        {1000U, 2U},
                        {4099U, 1U}}) {
      const PictureFormat fmt = format(w, h, bpc, ChromaFormat::k400);
      const std::string at =
          std::to_string(bpc) + " bits, " + std::to_string(w) + "x" + std::to_string(h);
      auto add = [&](const std::string& what, Picture a, Picture b) {
        const std::uint64_t expected = brute_force_sse(a.plane(0), b.plane(0));
        cases.push_back({what + ", " + at, std::move(a), std::move(b), expected});
      };
      add("random", random_picture(fmt, rng), random_picture(fmt, rng));
      add("full scale", flat_picture(fmt, max), flat_picture(fmt, 0));
      add("zero against full scale", flat_picture(fmt, 0), flat_picture(fmt, max));
    }
  }
  const auto ran = test::for_each_simd_target([&](const std::string& target) {
    for (const Case& c : cases) {
      const unsigned bpc = c.a.bpc();
      ASSERT_EQ(psnr::plane_sse(c.a.plane(0), c.b.plane(0), bpc), c.expected)
          << c.what << " on " << target;
    }
  });
  EXPECT_GE(ran.size(), 2U) << "the vector targets and the scalar one";
}

TEST(PsnrKernel, LargestDifferencesDoNotOverflow) {
  // Full scale against zero: (2^bpc - 1)^2 per sample, in either order, on
  // the widest rows (the 9 to 12-bit kernel flushes its 32-bit sums every
  // few hundred samples).
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const std::uint64_t max = (1U << bpc) - 1;
    const PictureFormat fmt = format(kMaxDimension, 2, bpc, ChromaFormat::k400);
    const Picture full = flat_picture(fmt, static_cast<std::uint32_t>(max));
    const Picture zero = flat_picture(fmt, 0);
    const std::uint64_t expected = max * max * kMaxDimension * 2;
    EXPECT_EQ(psnr::plane_sse(full.plane(0), zero.plane(0), bpc), expected) << bpc;
    EXPECT_EQ(psnr::plane_sse(zero.plane(0), full.plane(0), bpc), expected) << bpc;
  }
}

// ---------------------------------------------------------------------------
// Scores

TEST(Psnr, FlatDifferenceMatchesHandComputation) {
  // 8 bits, every sample off by 10: mse 100, psnr 10 log10(255^2 / 100).
  const PictureFormat fmt = format(16, 8, 8, ChromaFormat::k420);
  const Picture a = flat_picture(fmt, 110);
  const Picture b = flat_picture(fmt, 100);
  const MapWriter out = run_one(spec_for({{"enable_mse", "true"}}), a, b);
  for (std::size_t plane = 0; plane < 3; ++plane) {
    EXPECT_DOUBLE_EQ(out.values.at({2 * plane, 0}), 28.130803608679106) << plane;
    EXPECT_EQ(out.values.at({2 * plane + 1, 0}), 100.0) << plane;
  }
}

TEST(Psnr, TenBitPeakAndReducedPeak) {
  // 10 bits, off by 4: mse 16; the peak is 1023, or 255 * 4 = 1020 with
  // reduced_hbd_peak.
  const PictureFormat fmt = format(8, 6, 10, ChromaFormat::k444);
  const Picture a = flat_picture(fmt, 600);
  const Picture b = flat_picture(fmt, 596);
  EXPECT_DOUBLE_EQ(run_one(spec_for({}), a, b).values.at({0, 0}), 48.156312847683949);
  EXPECT_DOUBLE_EQ(run_one(spec_for({{"reduced_hbd_peak", "true"}}), a, b).values.at({0, 0}),
                   48.130803608679102);
  EXPECT_EQ(psnr::peak(10, false), 1023U);
  EXPECT_EQ(psnr::peak(10, true), 1020U);
  EXPECT_EQ(psnr::peak(8, true), 255U);
  EXPECT_EQ(psnr::peak(16, false), 65535U);
  EXPECT_EQ(psnr::peak(16, true), 65280U);
}

TEST(Psnr, LosslessGivesTheCapAtEveryDepth) {
  // mse 0 is floored at 1e-16, so the cap 6 * bpc + 12 applies.
  std::mt19937 rng(5);
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    for (ChromaFormat c : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
      const Picture a = random_picture(format(9, 7, bpc, c), rng);
      const MapWriter out = run_one(spec_for({{"enable_mse", "true"}}), a, a);
      for (std::size_t plane = 0; plane < 3; ++plane) {
        EXPECT_EQ(out.values.at({2 * plane, 0}), 6.0 * bpc + 12) << bpc << " plane " << plane;
        EXPECT_EQ(out.values.at({2 * plane + 1, 0}), 0.0);
      }
    }
  }
}

TEST(Psnr, MinSseCapsWithLibvmafsRoundedDownChromaSize) {
  // min_sse = 1 on 17x17 4:2:0: luma cap ceil(10 log10(255^2 * 289)) = 73;
  // chroma counts (17 / 2)^2 = 64 pixels (not the 9x9 it has): 67, not 68.
  const PictureFormat fmt = format(17, 17, 8, ChromaFormat::k420);
  const Picture a = flat_picture(fmt, 50);
  const MapWriter out = run_one(spec_for({{"min_sse", "1"}}), a, a);
  EXPECT_EQ(out.values.at({0, 0}), 73.0);
  EXPECT_EQ(out.values.at({1, 0}), 67.0);
  EXPECT_EQ(out.values.at({2, 0}), 67.0);
  // 4:2:2 halves only the width: 8 * 17 = 136 pixels -> ceil(69.47) = 70.
  EXPECT_EQ(psnr::psnr_max(format(17, 17, 8, ChromaFormat::k422), 1, 255, 1.0), 70.0);
  // Without min_sse: 6 * bpc + 12.
  EXPECT_EQ(psnr::psnr_max(fmt, 1, 255, 0.0), 60.0);
  EXPECT_EQ(psnr::psnr_max(format(4, 4, 12, ChromaFormat::k444), 2, 4095, 0.0), 84.0);
}

TEST(Psnr, PlanesAreScoredSeparately) {
  // Luma off by 1, Cb by 2, Cr by 4 (4:2:2, 10 bits): mse 1, 4, 16.
  const PictureFormat fmt = format(11, 5, 10, ChromaFormat::k422);
  const std::uint32_t offsets[3] = {1, 2, 4};
  const Picture a = flat_picture(fmt, 512);
  const Picture b =
      make_picture_per_plane(fmt, [&](unsigned p, unsigned, unsigned) { return 512 + offsets[p]; });
  const MapWriter out = run_one(spec_for({{"enable_mse", "true"}}), a, b);
  for (std::size_t p = 0; p < 3; ++p) {
    const double mse = static_cast<double>(offsets[p] * offsets[p]);
    EXPECT_EQ(out.values.at({2 * p + 1, 0}), mse);
    EXPECT_EQ(out.values.at({2 * p, 0}), 10. * std::log10(1023.0 * 1023.0 / mse));
  }
}

TEST(Psnr, MonochromeWritesLumaOnly) {
  const PictureFormat fmt = format(6, 4, 8, ChromaFormat::k400);
  const ExtractorSpec spec = spec_for({{"enable_mse", "true"}});
  const Picture a = flat_picture(fmt, 10);
  const Picture b = flat_picture(fmt, 12);
  const MapWriter out = run_one(spec, a, b);
  ASSERT_EQ(out.values.size(), 2U);
  EXPECT_DOUBLE_EQ(out.values.at({0, 0}), 10. * std::log10(65025.0 / 4.0));
  EXPECT_EQ(out.values.at({1, 0}), 4.0);
}

// ---------------------------------------------------------------------------
// Aggregate PSNR

TEST(Psnr, AggregateSumsEveryFrame) {
  // 8x8 luma: frame 0 off by 1 (sse 64), frame 1 off by 3 (sse 576):
  // 640 over 128 pixels, mse 5, apsnr 10 log10(255^2 / 5).
  const PictureFormat fmt = format(8, 8, 8, ChromaFormat::k420);
  const Picture ref = flat_picture(fmt, 100);
  const Picture off1 = flat_picture(fmt, 101);
  const Picture off3 = flat_picture(fmt, 97);
  const ExtractorSpec spec = spec_for({{"enable_apsnr", "true"}});
  EXPECT_TRUE(spec.temporal);
  EXPECT_EQ(names(spec.aggregates), (std::vector<std::string>{"apsnr_y", "apsnr_cb", "apsnr_cr"}));
  const MapWriter out = run(spec, {{&ref, &off1}, {&ref, &off3}});
  ASSERT_EQ(out.aggregates.size(), 3U);
  for (std::size_t p = 0; p < 3; ++p) {
    EXPECT_NEAR(out.aggregates.at(p), 41.141103565318915, 1e-12) << p;
    EXPECT_EQ(out.aggregates.at(p),
              psnr::aggregate_psnr(640 / (p == 0 ? 1 : 4), 128 / (p == 0 ? 1 : 4), 255));
  }
}

TEST(Psnr, AggregateOfLosslessAndOfMissingPlanes) {
  // Lossless: the cap ceil(10 log10(2 * 255^2 * pixels)); 128 pixels -> 73.
  EXPECT_EQ(psnr::aggregate_psnr(0, 128, 255), 73.0);
  // A plane never measured (4:0:0 chroma): libvmaf's -infinity.
  EXPECT_EQ(psnr::aggregate_psnr(0, 0, 255), -std::numeric_limits<double>::infinity());

  const PictureFormat fmt = format(8, 8, 8, ChromaFormat::k400);
  const Picture a = flat_picture(fmt, 7);
  const MapWriter out = run(spec_for({{"enable_apsnr", "true"}}), {{&a, &a}, {&a, &a}});
  EXPECT_EQ(out.aggregates.at(0), 73.0);
  EXPECT_EQ(out.aggregates.at(1), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(out.aggregates.at(2), -std::numeric_limits<double>::infinity());
}

TEST(Psnr, WithoutApsnrThereAreNoAggregatesAndFramesAreIndependent) {
  const ExtractorSpec spec = spec_for({});
  EXPECT_FALSE(spec.temporal);
  EXPECT_TRUE(spec.aggregates.empty());
  // Any frame order gives the same values.
  std::mt19937 rng(9);
  const PictureFormat fmt = format(12, 10, 12, ChromaFormat::k420);
  const Picture a = random_picture(fmt, rng);
  const Picture b = random_picture(fmt, rng);
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(fmt).ok());
  MapWriter out;
  ASSERT_TRUE(ex->extract(a, b, 5, out).ok());
  ASSERT_TRUE(ex->extract(b, a, 2, out).ok());
  ASSERT_TRUE(ex->flush(out).ok());
  EXPECT_TRUE(out.aggregates.empty());
  for (std::size_t slot = 0; slot < 3; ++slot) {
    EXPECT_EQ(out.values.at({slot, 5}), out.values.at({slot, 2}));  // PSNR is symmetric
  }
}

// ---------------------------------------------------------------------------
// Names, options, errors

TEST(Psnr, OutputNamesFollowTheOptions) {
  EXPECT_EQ(names(spec_for({}).outputs),
            (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr"}));
  EXPECT_EQ(
      names(spec_for({{"enable_mse", "true"}}).outputs),
      (std::vector<std::string>{"psnr_y", "mse_y", "psnr_cb", "mse_cb", "psnr_cr", "mse_cr"}));
  EXPECT_EQ(names(spec_for({{"enable_chroma", "false"}, {"enable_mse", "true"}}).outputs),
            (std::vector<std::string>{"psnr_y", "mse_y"}));
  // No option is a feature parameter: names never get a suffix.
  EXPECT_EQ(names(spec_for({{"min_sse", "0.5"}, {"reduced_hbd_peak", "true"}}).outputs),
            (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr"}));
}

TEST(Psnr, KeysTellConfigurationsApart) {
  EXPECT_EQ(spec_for({}).key, spec_for({{"enable_chroma", "true"}}).key);
  EXPECT_NE(spec_for({}).key, spec_for({{"min_sse", "0.5"}}).key);
  EXPECT_NE(spec_for({}).key, spec_for({{"enable_apsnr", "true"}}).key);
}

TEST(Psnr, BadOptionsAreRefused) {
  for (const OptionMap& bad : std::vector<OptionMap>{{{"enable_msee", "true"}},
                                                     {{"enable_mse", "yes"}},
                                                     {{"min_sse", "-1"}},
                                                     {{"min_sse", "abc"}}}) {
    const auto spec = psnr_family().make_spec(bad);
    ASSERT_FALSE(spec.ok());
    EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
    EXPECT_NE(spec.status().message().find("psnr"), std::string::npos);
  }
}

TEST(Psnr, MisuseIsAnErrorNotACrash) {
  const PictureFormat fmt = format(8, 8, 8, ChromaFormat::k420);
  const Picture a = flat_picture(fmt, 1);
  MapWriter out;
  auto ex = spec_for({}).make();
  EXPECT_EQ(ex->extract(a, a, 0, out).code(), Errc::kInternal);  // before init()
  ASSERT_TRUE(ex->init(fmt).ok());
  const Picture other = flat_picture(format(8, 8, 10, ChromaFormat::k420), 1);
  EXPECT_EQ(ex->extract(a, other, 0, out).code(), Errc::kMismatch);
  PictureFormat bad = fmt;
  bad.bpc = 17;
  EXPECT_FALSE(spec_for({}).make()->init(bad).ok());
}

TEST(Psnr, ProvidesTheModelFeatures) {
  const auto& provides = psnr_family().provides;
  ASSERT_EQ(provides.size(), 3U);
  EXPECT_STREQ(provides[0].model_name, "psnr_y");
  EXPECT_STREQ(provides[0].base, "psnr_y");
  EXPECT_STREQ(psnr_family().name, "psnr");
}

}  // namespace
}  // namespace vqx

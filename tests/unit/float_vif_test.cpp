// Unit tests of the float VIF extractor ("float_vif"): its Gaussian
// filters and log2 approximation, the shared picture scalers, scores on
// hand-checkable pictures (flat, identical, noise), bit depths, odd sizes,
// options, names and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_vif/gaussian.hpp"
#include "metrics/float_vif/statistic.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using float_common::FloatImage;

// ---------------------------------------------------------------------------
// Helpers

using testutil::format;
using testutil::last_values;
using testutil::noise;
using testutil::slot_of;
using testutil::grey_chroma::make_picture;

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(float_vif_family(), options);
}

// ---------------------------------------------------------------------------
// Filters and the log2 approximation

TEST(FloatVifFilters, SizesFollowTheKernelScale) {
  const unsigned base[] = {17, 9, 5, 3};
  const unsigned half[] = {9, 5, 3, 3};
  const unsigned triple[] = {51, 27, 15, 9};
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(float_vif::filter_taps(s, 1.0f), base[s]);
    EXPECT_EQ(float_vif::filter_taps(s, 0.5f), half[s]);
    EXPECT_EQ(float_vif::filter_taps(s, 3.0f), triple[s]);
  }
}

TEST(FloatVifFilters, GaussiansAreNormalisedAndSymmetric) {
  for (int s = 0; s < 4; ++s) {
    const std::vector<float> g = float_vif::gaussian_filter(s, 1.0f);
    EXPECT_NEAR(std::accumulate(g.begin(), g.end(), 0.0), 1.0, 1e-6);
    for (std::size_t k = 0; k < g.size(); ++k) EXPECT_EQ(g[k], g[g.size() - 1 - k]);
    // Peaked in the middle: the centre tap is the largest.
    for (float t : g) EXPECT_LE(t, g[g.size() / 2]);
  }
  // Scale 3 (sigma 0.6): exp(-1/0.72) relative weight each side.
  const std::vector<float> g3 = float_vif::gaussian_filter(3, 1.0f);
  EXPECT_NEAR(g3[0] / g3[1], std::exp(-1.0 / 0.72), 1e-6);
}

TEST(FloatVifFilters, ValidKernelScales) {
  EXPECT_TRUE(float_vif::valid_kernelscale(1.0f));
  EXPECT_TRUE(float_vif::valid_kernelscale(360.0f / 97.0f));
  EXPECT_TRUE(float_vif::valid_kernelscale(0.6667f));
  EXPECT_FALSE(float_vif::valid_kernelscale(0.9f));
  EXPECT_FALSE(float_vif::valid_kernelscale(4.0f));
}

TEST(FloatVifLog2, ExactAtPowersOfTwoAndCloseElsewhere) {
  EXPECT_EQ(float_vif::log2_approx(1.0f), 0.0f);
  EXPECT_EQ(float_vif::log2_approx(2.0f), 1.0f);
  EXPECT_EQ(float_vif::log2_approx(8.0f), 3.0f);
  EXPECT_EQ(float_vif::log2_approx(0.25f), -2.0f);
  for (float x : {1.1f, 1.5f, 1.9f, 3.7f, 100.0f, 12345.0f}) {
    EXPECT_NEAR(float_vif::log2_approx(x), std::log2(x), 2e-6) << x;
  }
  EXPECT_TRUE(std::isinf(float_vif::log2_approx(0.0f)));
  EXPECT_TRUE(std::isnan(float_vif::log2_approx(-1.0f)));
}

// ---------------------------------------------------------------------------
// Picture scalers (float_common/resample)

TEST(FloatCommonResample, NearestPicksTruncatedPositions) {
  FloatImage src;
  FloatImage dst;
  src.resize(4, 2);
  dst.resize(2, 1);
  for (unsigned y = 0; y < 2; ++y) {
    for (unsigned x = 0; x < 4; ++x) src.row(y)[x] = static_cast<float>(10 * y + x);
  }
  float_common::Resampler r;
  r.init(float_common::ScaleMethod::kNearest, 4, 2, 2, 1);
  r.run(src, dst);
  EXPECT_EQ(dst.row(0)[0], 0.0f);
  EXPECT_EQ(dst.row(0)[1], 2.0f);
}

TEST(FloatCommonResample, ScalersKeepFlatPicturesAndRamps) {
  using float_common::ScaleMethod;
  for (ScaleMethod m : {ScaleMethod::kBilinear, ScaleMethod::kBicubic, ScaleMethod::kLanczos4}) {
    FloatImage src;
    FloatImage dst;
    src.resize(16, 12);
    dst.resize(8, 6);
    for (unsigned y = 0; y < 12; ++y) {
      for (unsigned x = 0; x < 16; ++x) src.row(y)[x] = 7.0f;
    }
    float_common::Resampler r;
    r.init(m, 16, 12, 8, 6);
    EXPECT_FALSE(r.identity());
    r.run(src, dst);
    for (unsigned y = 0; y < 6; ++y) {
      for (unsigned x = 0; x < 8; ++x) EXPECT_NEAR(dst.row(y)[x], 7.0f, 1e-5f);
    }
  }
  // Halving a horizontal ramp bilinearly: output x samples between source
  // columns 2x and 2x + 1.
  FloatImage src;
  FloatImage dst;
  src.resize(8, 4);
  dst.resize(4, 2);
  for (unsigned y = 0; y < 4; ++y) {
    for (unsigned x = 0; x < 8; ++x) src.row(y)[x] = static_cast<float>(x);
  }
  float_common::Resampler r;
  r.init(ScaleMethod::kBilinear, 8, 4, 4, 2);
  r.run(src, dst);
  for (unsigned x = 0; x < 4; ++x)
    EXPECT_FLOAT_EQ(dst.row(1)[x], 2.0f * static_cast<float>(x) + 0.5f);
}

TEST(FloatCommonResample, MethodNames) {
  EXPECT_EQ(float_common::parse_scale_method("nearest"), float_common::ScaleMethod::kNearest);
  EXPECT_EQ(float_common::parse_scale_method("lanczos4"), float_common::ScaleMethod::kLanczos4);
  EXPECT_FALSE(float_common::parse_scale_method("lanczos").has_value());
}

// ---------------------------------------------------------------------------
// Scores

TEST(FloatVif, FlatPicturesScoreOneAtEveryScale) {
  // No variance (up to float rounding of the filtered moments) anywhere:
  // every pixel's term is 1 - sigma2^2 * 4 / 255^2 over 1, whatever the
  // means.
  const PictureFormat fmt = format(32, 24, 8);
  const ExtractorSpec spec = spec_for({{"debug", "true"}});
  const auto v = last_values(spec, make_picture(fmt, [](unsigned, unsigned) { return 50U; }),
                             make_picture(fmt, [](unsigned, unsigned) { return 200U; }));
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(v[s], 1.0, 1e-6) << s;
  EXPECT_NEAR(v[slot_of(spec, "vif")], 1.0, 1e-6);
  // The denominators count the pixels of each scale: 32x24, 16x12, 8x6, 4x3.
  const double pixels[] = {768, 192, 48, 12};
  for (int s = 0; s < 4; ++s) {
    EXPECT_NEAR(v[slot_of(spec, "vif_num_scale" + std::to_string(s))], pixels[s], 1e-3);
    EXPECT_EQ(v[slot_of(spec, "vif_den_scale" + std::to_string(s))], pixels[s]);
  }
  EXPECT_EQ(v[slot_of(spec, "vif_den")], 1020.0);
}

TEST(FloatVif, IdenticalPicturesScoreOne) {
  const PictureFormat fmt = format(48, 40, 8);
  const Picture a = make_picture(fmt, noise(1, 0, 255));
  const auto v = last_values(spec_for({}), a, a);
  for (int s = 0; s < 4; ++s) EXPECT_NEAR(v[s], 1.0, 1e-5) << s;
}

TEST(FloatVif, FlatDistortionOfNoiseScoresNearZero) {
  // All detail lost: the distorted variance is 0, so the numerator keeps
  // only the flat-area terms.
  const PictureFormat fmt = format(48, 40, 8);
  const auto v = last_values(spec_for({}), make_picture(fmt, noise(2, 0, 255)),
                             make_picture(fmt, [](unsigned, unsigned) { return 128U; }));
  for (int s = 0; s < 4; ++s) {
    EXPECT_GE(v[s], 0.0) << s;
    EXPECT_LT(v[s], 0.05) << s;
  }
}

TEST(FloatVif, AddedNoiseLowersTheScores) {
  const PictureFormat fmt = format(64, 48, 8);
  std::mt19937 rng(5);
  std::vector<std::uint32_t> ref(64 * 48);
  for (auto& s : ref) s = 40 + static_cast<std::uint32_t>(rng() % 160);
  std::vector<std::uint32_t> dist = ref;
  for (auto& s : dist) s = s + static_cast<std::uint32_t>(rng() % 41) - 20;
  const auto v = last_values(
      spec_for({}), make_picture(fmt, [&](unsigned x, unsigned y) { return ref[y * 64 + x]; }),
      make_picture(fmt, [&](unsigned x, unsigned y) { return dist[y * 64 + x]; }));
  for (int s = 0; s < 4; ++s) {
    EXPECT_GT(v[s], 0.2) << s;
    EXPECT_LT(v[s], 0.95) << s;
  }
}

TEST(FloatVif, DeeperSamplesOfTheSameValuesScoreTheSame) {
  std::vector<double> first;
  for (unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(40, 33, bpc);
    const auto v =
        last_values(spec_for({{"debug", "true"}}), make_picture(fmt, noise(3, 0, 255, bpc)),
                    make_picture(fmt, noise(4, 20, 230, bpc)));
    if (first.empty()) {
      first = v;
    } else {
      EXPECT_EQ(v, first) << bpc;
    }
  }
}

TEST(FloatVif, SkipScale0) {
  const PictureFormat fmt = format(40, 32, 8);
  const ExtractorSpec spec = spec_for({{"vif_skip_scale0", "true"}, {"debug", "true"}});
  EXPECT_EQ(spec.outputs[0].name, "vif_scale0_ssclz");
  const auto v =
      last_values(spec, make_picture(fmt, noise(5, 0, 255)), make_picture(fmt, noise(6, 0, 255)));
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[slot_of(spec, "vif_num_scale0")], 0.0);
  EXPECT_EQ(v[slot_of(spec, "vif_den_scale0")], -1.0);
  EXPECT_GT(v[1], 0.0);
}

TEST(FloatVif, MinimumValuesRaiseScales1To3) {
  const PictureFormat fmt = format(40, 32, 8);
  const Picture a = make_picture(fmt, noise(7, 0, 255));
  const Picture b = make_picture(fmt, noise(8, 0, 255));
  const auto v = last_values(spec_for({{"vif_scale1_min_val", "0.9"},
                                       {"vif_scale2_min_val", "0.95"},
                                       {"vif_scale3_min_val", "0.99"}}),
                             a, b);
  EXPECT_LT(v[0], 0.9);
  EXPECT_EQ(v[1], 0.9);
  EXPECT_EQ(v[2], 0.95);
  EXPECT_EQ(v[3], 0.99);
}

TEST(FloatVif, OddSizesAndTheSmallestPicture) {
  for (unsigned w : {16U, 17U, 31U}) {
    const PictureFormat fmt = format(w, 16, 8, ChromaFormat::k400);
    const Picture a = make_picture(fmt, noise(9, 0, 255));
    const auto v = last_values(spec_for({}), a, a);
    for (int s = 0; s < 4; ++s) EXPECT_NEAR(v[s], 1.0, 1e-5) << w << " " << s;
  }
}

TEST(FloatVif, PrescalingAndKernelScales) {
  const PictureFormat fmt = format(40, 36, 8);
  const Picture a = make_picture(fmt, noise(10, 0, 255));
  for (const OptionMap& o :
       {OptionMap{{"vif_prescale", "2"}},
        OptionMap{{"vif_prescale", "0.5"}, {"vif_kernelscale", "0.5"}},
        OptionMap{{"vif_prescale", "1.5"}, {"vif_prescale_method", "bicubic"}},
        OptionMap{{"vif_prescale", "1.2"}, {"vif_prescale_method", "lanczos4"}},
        OptionMap{{"vif_prescale", "1.5"}, {"vif_prescale_method", "bilinear"}},
        OptionMap{{"vif_kernelscale", "1.5"}}}) {
    const auto v = last_values(spec_for(o), a, a);
    for (int s = 0; s < 4; ++s) EXPECT_NEAR(v[s], 1.0, 1e-5) << s;
  }
}

// ---------------------------------------------------------------------------
// Names, options and errors

TEST(FloatVif, OutputNames) {
  const ExtractorSpec spec = spec_for({});
  ASSERT_EQ(spec.outputs.size(), 4U);
  EXPECT_EQ(spec.outputs[0].name, "vif_scale0");
  EXPECT_EQ(spec.outputs[3].name, "vif_scale3");
  EXPECT_FALSE(spec.temporal);
  const ExtractorSpec debug = spec_for({{"debug", "true"}, {"vif_enhn_gain_limit", "1"}});
  ASSERT_EQ(debug.outputs.size(), 15U);
  EXPECT_EQ(debug.outputs[0].name, "vif_scale0_egl_1");
  EXPECT_EQ(debug.outputs[4].name, "vif_egl_1");
  EXPECT_EQ(debug.outputs[14].name, "vif_den_scale3_egl_1");
  const ExtractorSpec method =
      spec_for({{"vif_prescale_method", "bilinear"}, {"vif_prescale", "0.5"}});
  EXPECT_EQ(method.outputs[0].name, "vif_scale0_ps_0.5_pm_bilinear");
}

TEST(FloatVif, BadOptionsAreRefused) {
  const OptionMap bad[] = {
      {{"vif_kernelscale", "0.9"}},      // not a kernel scale libvmaf accepts
      {{"vif_kernelscale", "5"}},        // out of range
      {{"vif_prescale_method", "box"}},  // unknown method
      {{"vif_enhn_gain_limit", "0.5"}},  // below 1
      {{"vif_sigma_nsq", "nan"}},       {{"vif_skip", "true"}},
  };
  for (const OptionMap& o : bad) {
    const auto spec = float_vif_family().make_spec(o);
    ASSERT_FALSE(spec.ok()) << o.begin()->first;
    EXPECT_NE(spec.status().message().find("float_vif"), std::string::npos);
  }
}

TEST(FloatVif, TooSmallPicturesAreRefused) {
  for (const PictureFormat& fmt : {format(15, 32, 8), format(32, 15, 8)}) {
    auto ex = spec_for({}).make();
    const Status st = ex->init(fmt);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("scale 3"), std::string::npos) << st.message();
  }
  {
    // Lanczos needs 6 source samples each way.
    auto ex = spec_for({{"vif_prescale", "4"}, {"vif_prescale_method", "lanczos4"}}).make();
    EXPECT_FALSE(ex->init(format(5, 5, 8)).ok());
  }
  {
    auto ex = spec_for({{"vif_prescale", "4"}}).make();
    EXPECT_TRUE(ex->init(format(5, 5, 8)).ok());
  }
}

TEST(FloatVif, AnInstanceKeepsNoFloatCopyOfThePictures) {
  // Scale 0 is read from the pictures' rows (FloatRows), as in float_adm's
  // test; each instance used to copy both pictures into float first.
  const double grown_mb = testutil::first_frame_growth_mb(spec_for({}), format(3840, 2160, 8));
  // Scales 1 to 3 of both pictures (the decimated images): 25 MB.
  EXPECT_LT(grown_mb, 50.0) << "an instance at 3840x2160 grew by " << grown_mb << " MB";
}

}  // namespace
}  // namespace vqx

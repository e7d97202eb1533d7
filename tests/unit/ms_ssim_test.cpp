// Unit tests of the float_ms_ssim extractor: the 9x9 low-pass subsampling
// against a plain implementation of libvmaf's arithmetic, the score as the
// product over the five scales, hand-checked values, equal pictures, bit
// depths, the pictures libvmaf refuses (176x144 and smaller), the dB
// options, names, options and errors. The SSIM window itself is tested in
// ssim_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/ssim/decimate.hpp"
#include "metrics/ssim/image.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/window.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using ssim::FloatImage;
using ssim::RowSource;

// ---------------------------------------------------------------------------
// Helpers

using testutil::distorted;
using testutil::format;
using testutil::LastValueWriter;
using testutil::zero_chroma::flat_picture;
using testutil::zero_chroma::make_picture;

// Smooth content plus noise, in [0, 2^bpc).
Picture textured_picture(const PictureFormat& fmt, std::mt19937& rng, double noise) {
  return testutil::textured_picture(fmt, rng, noise, 0.05, 0.04);
}

ExtractorSpec ms_ssim_spec(const OptionMap& options = {}) {
  return testutil::spec_for(float_ms_ssim_family(), options);
}

// Runs one frame pair; the values by slot.
std::vector<double> run_ms_ssim(const Picture& ref, const Picture& dist,
                                const OptionMap& options = {}) {
  return testutil::output_values(ms_ssim_spec(options), ref, dist, std::nan(""));
}

// libvmaf's _iqa_decimate with ms_ssim.c's 9x9 low-pass and factor 2,
// written plainly: each output sample from _iqa_filter_pixel, products of
// float samples and taps added in double row by row, the border mirrored
// with the edge repeated.
FloatImage plain_low_pass(const FloatImage& src) {
  const int w = src.width();
  const int h = src.height();
  auto mirror = [](int i, int len) { return i < 0 ? -1 - i : (i >= len ? 2 * len - 1 - i : i); };
  FloatImage dst((w + 1) / 2, (h + 1) / 2);
  for (int y = 0; y < dst.height(); ++y) {
    for (int x = 0; x < dst.width(); ++x) {
      double sum = 0.0;
      for (int v = 0; v < 9; ++v) {
        for (int u = 0; u < 9; ++u) {
          const float s = src.row(mirror(2 * y + v - 4, h))[mirror(2 * x + u - 4, w)];
          sum += s * ssim::kLowPass[static_cast<std::size_t>(v * 9 + u)];
        }
      }
      dst.row(y)[x] = static_cast<float>(sum);
    }
  }
  return dst;
}

FloatImage luma_as_floats(const Picture& p) {
  FloatImage img(static_cast<int>(p.width()), static_cast<int>(p.height()));
  const double unit = std::ldexp(1.0, 8 - static_cast<int>(p.bpc()));
  for (unsigned y = 0; y < p.height(); ++y) {
    for (unsigned x = 0; x < p.width(); ++x) {
      img.row(static_cast<int>(y))[x] = static_cast<float>(p.plane(0).at(x, y) * unit);
    }
  }
  return img;
}

// ---------------------------------------------------------------------------
// The low-pass subsampling

TEST(MsSsimDecimator, LowPassMatchesPlainImplementationBitForBit) {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> sample(0, 65535);
  ssim::Decimator dec;
  dec.init(203, ssim::kLpfSize, 2);
  for (const auto& [w, h] :
       std::vector<std::pair<int, int>>{{5, 5}, {22, 22}, {37, 41}, {203, 57}}) {
    FloatImage src(w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) src.row(y)[x] = static_cast<float>(sample(rng)) / 256.0f;
    }
    FloatImage got((w + 1) / 2, (h + 1) / 2);
    dec.run(RowSource(src), ssim::kLowPass, got);
    const FloatImage want = plain_low_pass(src);
    for (int y = 0; y < got.height(); ++y) {
      for (int x = 0; x < got.width(); ++x) {
        ASSERT_EQ(got.row(y)[x], want.row(y)[x]) << w << "x" << h << " at " << x << "," << y;
      }
    }
  }
}

TEST(MsSsimDecimator, LowPassKeepsFlatPicturesNearlyFlat) {
  // The taps sum to 1 within their 6 printed decimals.
  double sum = 0.0;
  for (float t : ssim::kLowPass) sum += t;
  EXPECT_NEAR(sum, 1.0, 1e-4);
  FloatImage src(30, 20);
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 30; ++x) src.row(y)[x] = 100.0f;
  }
  ssim::Decimator dec;
  dec.init(30, ssim::kLpfSize, 2);
  FloatImage dst(15, 10);
  dec.run(RowSource(src), ssim::kLowPass, dst);
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 15; ++x) EXPECT_NEAR(dst.row(y)[x], 100.0 * sum, 1e-4);
  }
}

// ---------------------------------------------------------------------------
// The extractor's values

TEST(FloatMsSsim, ScoreIsTheWeightedProductOverFiveScales) {
  std::mt19937 rng(32);
  const PictureFormat fmt = format(203, 181, 10);
  const Picture ref = textured_picture(fmt, rng, 0.04);
  const Picture dist = distorted(ref, rng, 0.06);

  // The pyramid, and the window's means at every scale.
  std::vector<FloatImage> r, d;
  r.push_back(luma_as_floats(ref));
  d.push_back(luma_as_floats(dist));
  for (int k = 1; k < ssim::kScales; ++k) {
    r.push_back(plain_low_pass(r.back()));
    d.push_back(plain_low_pass(d.back()));
  }
  EXPECT_EQ(r.back().width(), 13);   // 203 -> 102 -> 51 -> 26 -> 13
  EXPECT_EQ(r.back().height(), 12);  // 181 -> 91 -> 46 -> 23 -> 12
  ssim::SsimWindow window;
  window.init(203);
  double score = 1.0;
  std::vector<ssim::WindowMeans> means;
  for (int k = 0; k < ssim::kScales; ++k) {
    means.push_back(window.compute(RowSource(r[k]), RowSource(d[k])));
    score *= std::pow(static_cast<double>(means[k].l), static_cast<double>(ssim::kAlphas[k])) *
             std::pow(static_cast<double>(means[k].c), static_cast<double>(ssim::kBetas[k])) *
             std::pow(static_cast<double>(means[k].s), static_cast<double>(ssim::kGammas[k]));
  }

  const std::vector<double> v = run_ms_ssim(ref, dist, {{"enable_lcs", "true"}});
  ASSERT_EQ(v.size(), 16U);
  EXPECT_EQ(v[0], score);
  EXPECT_GT(score, 0.5);
  EXPECT_LT(score, 1.0);
  for (int k = 0; k < ssim::kScales; ++k) {
    EXPECT_EQ(v[1 + k], static_cast<double>(means[k].l)) << "l scale " << k;
    EXPECT_EQ(v[6 + k], static_cast<double>(means[k].c)) << "c scale " << k;
    EXPECT_EQ(v[11 + k], static_cast<double>(means[k].s)) << "s scale " << k;
  }
}

TEST(FloatMsSsim, EqualPicturesScoreExactlyOne) {
  std::mt19937 rng(33);
  for (unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    for (ChromaFormat chroma : {ChromaFormat::k400, ChromaFormat::k420}) {
      const PictureFormat fmt = format(181, 176, bpc, chroma);
      // A flat 8-bit picture of 3 is one where libvmaf's rounding gives
      // 0.999999992 instead of 1.
      const Picture flat = flat_picture(fmt, 3U << (bpc - 8));
      const Picture textured = textured_picture(fmt, rng, 0.1);
      for (const Picture* p : {&flat, &textured}) {
        const std::vector<double> v = run_ms_ssim(*p, *p, {{"enable_lcs", "true"}});
        ASSERT_EQ(v.size(), 16U);
        for (double x : v) EXPECT_EQ(x, 1.0) << "bpc " << bpc;
      }
    }
  }
}

TEST(FloatMsSsim, FlatPicturesScoreTheCoarsestLuminanceTerm) {
  // Two flat pictures: c = s = 1 at every scale, and only the coarsest
  // scale weighs luminance, so the score is l^0.1333 with
  // l = (2ab + C1) / (a^2 + b^2 + C1), a = 100, b = 110.
  const PictureFormat fmt = format(256, 192, 8);
  const std::vector<double> v =
      run_ms_ssim(flat_picture(fmt, 100), flat_picture(fmt, 110), {{"enable_lcs", "true"}});
  const double l = (2.0 * 100 * 110 + 6.5025) / (100.0 * 100 + 110.0 * 110 + 6.5025);
  EXPECT_NEAR(v[0], std::pow(l, 0.1333), 1e-6);  // 0.99939...
  for (int k = 0; k < ssim::kScales; ++k) {
    EXPECT_NEAR(v[1 + k], l, 1e-5) << k;
    EXPECT_NEAR(v[6 + k], 1.0, 1e-6) << k;
    EXPECT_NEAR(v[11 + k], 1.0, 1e-6) << k;
  }
}

TEST(FloatMsSsim, EveryDepthMeansTheSameInEightBitUnits) {
  std::mt19937 rng(34);
  const PictureFormat fmt8 = format(180, 177, 8);
  const Picture ref8 = textured_picture(fmt8, rng, 0.05);
  const Picture dist8 = distorted(ref8, rng, 0.05);
  const std::vector<double> want = run_ms_ssim(ref8, dist8, {{"enable_lcs", "true"}});
  for (unsigned bpc : {9U, 10U, 12U, 14U, 16U}) {
    const PictureFormat fmt = format(180, 177, bpc);
    auto shifted = [&](const Picture& p) {
      return make_picture(fmt,
                          [&](unsigned x, unsigned y) { return p.plane(0).at(x, y) << (bpc - 8); });
    };
    EXPECT_EQ(run_ms_ssim(shifted(ref8), shifted(dist8), {{"enable_lcs", "true"}}), want)
        << "bpc " << bpc;
  }
}

TEST(FloatMsSsim, DbOptions) {
  std::mt19937 rng(35);
  const PictureFormat fmt = format(200, 180, 8);
  const Picture ref = textured_picture(fmt, rng, 0.05);
  const Picture dist = distorted(ref, rng, 0.05);
  const std::vector<double> plain = run_ms_ssim(ref, dist, {{"enable_lcs", "true"}});
  const std::vector<double> db =
      run_ms_ssim(ref, dist, {{"enable_lcs", "true"}, {"enable_db", "true"}});
  EXPECT_DOUBLE_EQ(db[0], -10.0 * std::log10(1.0 - plain[0]));
  for (std::size_t i = 1; i < plain.size(); ++i) EXPECT_EQ(db[i], plain[i]);

  EXPECT_EQ(run_ms_ssim(ref, ref, {{"enable_db", "true"}})[0],
            std::numeric_limits<double>::infinity());
  // ceil(10 log10(255^2 * 2 * 200 * 180)) = ceil(96.70...) = 97.
  EXPECT_EQ(run_ms_ssim(ref, ref, {{"enable_db", "true"}, {"clip_db", "true"}})[0], 97.0);
}

// ---------------------------------------------------------------------------
// Sizes, names, options, errors

TEST(FloatMsSsim, RefusesPicturesWhoseCoarsestScaleIsBelowTheWindow) {
  auto init = [](unsigned w, unsigned h) { return ms_ssim_spec().make()->init(format(w, h, 8)); };
  // libvmaf: "scale below 1x1!" unless floor(side / 16) >= 11 on both
  // sides. The corpus's P9 (176x144) is such a picture.
  const Status p9 = init(176, 144);
  EXPECT_EQ(p9.code(), Errc::kUnsupported);
  EXPECT_NE(p9.message().find("float_ms_ssim"), std::string::npos);
  EXPECT_NE(p9.message().find("176x144"), std::string::npos);
  EXPECT_NE(p9.message().find("at least 176x176"), std::string::npos) << p9.message();
  EXPECT_EQ(init(175, 400).code(), Errc::kUnsupported);
  EXPECT_EQ(init(400, 175).code(), Errc::kUnsupported);
  EXPECT_TRUE(init(176, 176).ok());
  EXPECT_TRUE(init(177, 191).ok());

  // The smallest picture computes: its coarsest scale is 11x11.
  std::mt19937 rng(36);
  const Picture ref = textured_picture(format(176, 176, 8), rng, 0.05);
  const double v = run_ms_ssim(ref, distorted(ref, rng, 0.05))[0];
  EXPECT_GT(v, 0.0);
  EXPECT_LT(v, 1.0);
}

TEST(FloatMsSsim, OutputNames) {
  const ExtractorSpec plain = ms_ssim_spec();
  ASSERT_EQ(plain.outputs.size(), 1U);
  EXPECT_EQ(plain.outputs[0].name, "float_ms_ssim");
  EXPECT_EQ(plain.family, "float_ms_ssim");
  EXPECT_FALSE(plain.temporal);

  const ExtractorSpec lcs =
      ms_ssim_spec({{"enable_lcs", "true"}, {"enable_db", "true"}, {"clip_db", "true"}});
  ASSERT_EQ(lcs.outputs.size(), 16U);
  EXPECT_EQ(lcs.outputs[0].name, "float_ms_ssim");
  const char* terms = "lcs";
  for (int t = 0; t < 3; ++t) {
    for (int k = 0; k < 5; ++k) {
      EXPECT_EQ(lcs.outputs[1 + 5 * t + k].name,
                std::string("float_ms_ssim_") + terms[t] + "_scale" + std::to_string(k));
    }
  }
  EXPECT_NE(lcs.key, plain.key);

  ASSERT_EQ(float_ms_ssim_family().provides.size(), 1U);
  EXPECT_STREQ(float_ms_ssim_family().provides[0].model_name, "float_ms_ssim");
  EXPECT_STREQ(float_ms_ssim_family().provides[0].base, "float_ms_ssim");
}

TEST(FloatMsSsim, BadOptionsAreRefused) {
  // float_ms_ssim has no "scale" option (float_ssim has).
  for (const OptionMap& bad : std::vector<OptionMap>{
           {{"scale", "2"}}, {{"enable_db", "yes please"}}, {{"no_such_option", "1"}}}) {
    const auto spec = float_ms_ssim_family().make_spec(bad);
    ASSERT_FALSE(spec.ok()) << bad.begin()->first;
    EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
    EXPECT_NE(spec.status().message().find("float_ms_ssim"), std::string::npos);
  }
}

TEST(FloatMsSsim, RejectsFramesOfAnotherSizeOrDepth) {
  const ExtractorSpec spec = ms_ssim_spec();
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(format(200, 180, 8)).ok());
  LastValueWriter out(std::nan(""));
  const Picture good = flat_picture(format(200, 180, 8), 9);
  const Picture wider = flat_picture(format(202, 180, 8), 9);
  const Picture deeper = flat_picture(format(200, 180, 12), 9);
  EXPECT_EQ(ex->extract(good, wider, 0, out).code(), Errc::kMismatch);
  EXPECT_EQ(ex->extract(deeper, deeper, 0, out).code(), Errc::kMismatch);
  EXPECT_TRUE(ex->extract(good, good, 0, out).ok());
}

}  // namespace
}  // namespace vqx

// Unit tests of the float_ssim extractor and of the SSIM kernels it shares
// with float_ms_ssim: the window statistics and the box subsampling against
// plain implementations of libvmaf's arithmetic (same float/double steps,
// whole-picture buffers, no rings or phase splitting), hand-checked values,
// equal pictures, bit depths, the automatic scale, the dB options, names,
// options and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/ssim/db.hpp"
#include "metrics/ssim/decimate.hpp"
#include "metrics/ssim/image.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"
#include "metrics/ssim/window.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using ssim::FloatImage;
using ssim::RowSource;
using ssim::WindowMeans;

// ---------------------------------------------------------------------------
// Helpers

using testutil::distorted;
using testutil::format;
using testutil::LastValueWriter;
using testutil::make_picture;
using testutil::zero_chroma::make_picture;

// Smooth content plus noise, in [0, 2^bpc).
Picture textured_picture(const PictureFormat& fmt, std::mt19937& rng, double noise) {
  return testutil::textured_picture(fmt, rng, noise, 0.11, 0.07);
}

ExtractorSpec ssim_spec(const OptionMap& options = {}) {
  return testutil::spec_for(float_ssim_family(), options);
}

// Runs one frame pair; the values by slot.
std::vector<double> run_ssim(const Picture& ref, const Picture& dist,
                             const OptionMap& options = {}) {
  return testutil::output_values(ssim_spec(options), ref, dist, std::nan(""));
}

// A float image of random values in 8-bit units: smooth content plus noise,
// on a grid of 2^-8 (the values 16-bit samples take).
FloatImage random_image(int w, int h, std::mt19937& rng) {
  FloatImage img(w, h);
  std::uniform_int_distribution<int> noise(-2000, 2000);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const double smooth = 32768.0 + 20000.0 * std::sin(0.3 * x + 0.2 * y);
      const double v = std::clamp(smooth + noise(rng), 0.0, 65535.0);
      img.row(y)[x] = static_cast<float>(v) / 256.0f;
    }
  }
  return img;
}

// `img` with every sample nudged, as a distorted version.
FloatImage nudged(const FloatImage& img, std::mt19937& rng) {
  FloatImage out(img.width(), img.height());
  std::uniform_int_distribution<int> d(-700, 700);
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < img.width(); ++x) {
      const float v = img.row(y)[x] + static_cast<float>(d(rng)) / 256.0f;
      out.row(y)[x] = std::clamp(v, 0.0f, 255.99609375f);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Plain implementations of libvmaf's arithmetic

// The separable 11-tap Gaussian over the valid region, as iqa/convolve.c
// computes it: horizontal pass over every row, then vertical; per output
// the float products added in double in tap order, rounded to float.
std::vector<float> plain_convolve(const std::vector<float>& img, int w, int h) {
  const int ow = w - 10;
  const int oh = h - 10;
  std::vector<float> tmp(static_cast<std::size_t>(ow) * h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < ow; ++x) {
      double sum = 0.0;
      for (int t = 0; t < 11; ++t) sum += img[y * w + x + t] * ssim::kGaussian[t];
      tmp[y * ow + x] = static_cast<float>(sum);
    }
  }
  std::vector<float> out(static_cast<std::size_t>(ow) * oh);
  for (int y = 0; y < oh; ++y) {
    for (int x = 0; x < ow; ++x) {
      double sum = 0.0;
      for (int v = 0; v < 11; ++v) sum += tmp[(y + v) * ow + x] * ssim::kGaussian[v];
      out[y * ow + x] = static_cast<float>(sum);
    }
  }
  return out;
}

// libvmaf's _iqa_ssim with default arguments (iqa/ssim_tools.c).
WindowMeans plain_window(const FloatImage& ref, const FloatImage& cmp) {
  const int w = ref.width();
  const int h = ref.height();
  std::vector<float> a(static_cast<std::size_t>(w) * h);
  std::vector<float> b(a.size());
  std::vector<float> aa(a.size());
  std::vector<float> bb(a.size());
  std::vector<float> ab(a.size());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      a[i] = ref.row(y)[x];
      b[i] = cmp.row(y)[x];
      aa[i] = a[i] * a[i];
      bb[i] = b[i] * b[i];
      ab[i] = a[i] * b[i];
    }
  }
  const std::vector<float> mu1 = plain_convolve(a, w, h);
  const std::vector<float> mu2 = plain_convolve(b, w, h);
  std::vector<float> s11 = plain_convolve(aa, w, h);
  std::vector<float> s22 = plain_convolve(bb, w, h);
  std::vector<float> s12 = plain_convolve(ab, w, h);
  const float c1 = (0.01f * 255) * (0.01f * 255);
  const float c2 = (0.03f * 255) * (0.03f * 255);
  const float c3 = c2 / 2.0f;
  std::vector<double> t_ssim(mu1.size());
  std::vector<double> t_l(mu1.size());
  std::vector<double> t_c(mu1.size());
  std::vector<double> t_s(mu1.size());
  for (std::size_t i = 0; i < mu1.size(); ++i) {
    s11[i] -= mu1[i] * mu1[i];
    s22[i] -= mu2[i] * mu2[i];
    s11[i] = (0.0 > s11[i]) ? 0.0f : s11[i];
    s22[i] = (0.0 > s22[i]) ? 0.0f : s22[i];
    s12[i] -= mu1[i] * mu2[i];
    const auto sd = static_cast<float>(std::sqrt(static_cast<double>(s11[i] * s22[i])));
    const double l = (2.0 * mu1[i] * mu2[i] + c1) / (mu1[i] * mu1[i] + mu2[i] * mu2[i] + c1);
    const double c = (2.0 * sd + c2) / (s11[i] + s22[i] + c2);
    const float cov = (s12[i] < 0.0f && sd <= 0.0f) ? 0.0f : s12[i];
    const double s = (cov + c3) / (sd + c3);
    t_ssim[i] = l * c * s;
    t_l[i] = l;
    t_c[i] = c;
    t_s[i] = s;
  }
  // VQX's fixed order (params.hpp), written out here on its own: within a
  // row, runs of 16 positions, the runs of each group of 256, the groups;
  // then the rows. (libvmaf adds all positions in one chain.)
  const int ow = w - 10;
  const int oh = h - 10;
  auto sum_of = [&](const std::vector<double>& t) {
    double total = 0.0;
    for (int y = 0; y < oh; ++y) {
      double row = 0.0;
      for (int g = 0; g < ow; g += 256) {
        double group = 0.0;
        for (int r = g; r < std::min(g + 256, ow); r += 16) {
          double run = 0.0;
          for (int x = r; x < std::min({r + 16, g + 256, ow}); ++x) run += t[y * ow + x];
          group += run;
        }
        row += group;
      }
      total += row;
    }
    return total;
  };
  const auto n = static_cast<double>(mu1.size());
  return {static_cast<float>(sum_of(t_ssim) / n), static_cast<float>(sum_of(t_l) / n),
          static_cast<float>(sum_of(t_c) / n), static_cast<float>(sum_of(t_s) / n)};
}

// libvmaf's _iqa_decimate with an n x n filter: every output sample from
// _iqa_filter_pixel, the border mirrored with the edge repeated.
FloatImage plain_decimate(const FloatImage& src, const std::vector<float>& taps, int n,
                          int factor) {
  const int w = src.width();
  const int h = src.height();
  auto mirror = [](int i, int len) { return i < 0 ? -1 - i : (i >= len ? 2 * len - 1 - i : i); };
  FloatImage dst(ssim::decimated_size(w, factor), ssim::decimated_size(h, factor));
  for (int y = 0; y < dst.height(); ++y) {
    for (int x = 0; x < dst.width(); ++x) {
      double sum = 0.0;
      for (int v = 0; v < n; ++v) {
        for (int u = 0; u < n; ++u) {
          const float s =
              src.row(mirror(y * factor + v - n / 2, h))[mirror(x * factor + u - n / 2, w)];
          sum += s * taps[static_cast<std::size_t>(v * n + u)];
        }
      }
      dst.row(y)[x] = static_cast<float>(sum);
    }
  }
  return dst;
}

void expect_same(const WindowMeans& got, const WindowMeans& want, const std::string& what) {
  EXPECT_EQ(got.ssim, want.ssim) << what;
  EXPECT_EQ(got.l, want.l) << what;
  EXPECT_EQ(got.c, want.c) << what;
  EXPECT_EQ(got.s, want.s) << what;
}

// ---------------------------------------------------------------------------
// Kernels

TEST(SsimWindow, MatchesPlainImplementationBitForBit) {
  std::mt19937 rng(11);
  const std::vector<std::pair<int, int>> sizes = {
      {11, 11}, {12, 30}, {37, 23}, {100, 64}, {257, 19}};
  ssim::SsimWindow window;
  window.init(257);
  for (const auto& [w, h] : sizes) {
    const FloatImage ref = random_image(w, h, rng);
    const FloatImage cmp = nudged(ref, rng);
    const WindowMeans got = window.compute(RowSource(ref), RowSource(cmp));
    expect_same(got, plain_window(ref, cmp), std::to_string(w) + "x" + std::to_string(h));
    EXPECT_GT(got.ssim, 0.5f);
    EXPECT_LT(got.ssim, 1.0f);
  }
}

// The order of the sums over the positions (params.hpp, pointwise.hpp's
// row_sum, which both twins follow): values where each level shows. Adding
// 2^-53 to 1 leaves 1 (ties to even), so these differ from one chain.
TEST(SsimWindow, RowSumFollowsTheFixedOrder) {
  constexpr double kTiny = 0x1p-53;
  std::vector<double> v(300, 0.0);
  v[0] = 1.0;
  double chain = 0.0;
  v[16] = v[17] = kTiny;  // one run: 2^-52 before it meets the 1
  for (const double x : v) chain += x;
  EXPECT_EQ(chain, 1.0);
  EXPECT_EQ(ssim::row_sum(v.data(), 300), 1.0 + 0x1p-52);
  v[16] = v[17] = 0.0;
  v[256] = v[272] = kTiny;  // two runs of the second group: 2^-52 together
  EXPECT_EQ(ssim::row_sum(v.data(), 300), 1.0 + 0x1p-52);
  v[256] = 0.0;  // one: lost against the first group's 1
  EXPECT_EQ(ssim::row_sum(v.data(), 300), 1.0);
  v[0] = 0.0;
  EXPECT_EQ(ssim::row_sum(v.data(), 0), 0.0);
  EXPECT_EQ(ssim::row_sum(v.data(), 300), kTiny);
}

TEST(SsimWindow, ReadsPlanesOfEveryDepthInEightBitUnits) {
  std::mt19937 rng(12);
  ssim::SsimWindow window;
  window.init(40);
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const PictureFormat fmt = format(40, 30, bpc, ChromaFormat::k400);
    const Picture ref = textured_picture(fmt, rng, 0.05);
    const Picture dist = distorted(ref, rng, 0.05);
    FloatImage fref(40, 30);
    FloatImage fdist(40, 30);
    const double unit = std::ldexp(1.0, 8 - static_cast<int>(bpc));
    for (unsigned y = 0; y < 30; ++y) {
      for (unsigned x = 0; x < 40; ++x) {
        fref.row(static_cast<int>(y))[x] = static_cast<float>(ref.plane(0).at(x, y) * unit);
        fdist.row(static_cast<int>(y))[x] = static_cast<float>(dist.plane(0).at(x, y) * unit);
      }
    }
    const WindowMeans got =
        window.compute(RowSource(ref.plane(0), bpc, 40, 30), RowSource(dist.plane(0), bpc, 40, 30));
    expect_same(got, plain_window(fref, fdist), "bpc " + std::to_string(bpc));
  }
}

TEST(SsimDecimator, BoxFilterMatchesPlainImplementationBitForBit) {
  std::mt19937 rng(13);
  for (int factor = 2; factor <= ssim::kMaxScale; ++factor) {
    const std::vector<float> box(static_cast<std::size_t>(factor * factor),
                                 1.0f / static_cast<float>(factor * factor));
    for (const auto& [w, h] : std::vector<std::pair<int, int>>{{115, 97}, {120, 111}, {133, 140}}) {
      const FloatImage src = random_image(w, h, rng);
      ssim::Decimator dec;
      dec.init(w, factor, factor);
      FloatImage got(ssim::decimated_size(w, factor), ssim::decimated_size(h, factor));
      dec.run(RowSource(src), box, got);
      const FloatImage want = plain_decimate(src, box, factor, factor);
      for (int y = 0; y < got.height(); ++y) {
        for (int x = 0; x < got.width(); ++x) {
          ASSERT_EQ(got.row(y)[x], want.row(y)[x])
              << "factor " << factor << " " << w << "x" << h << " at " << x << "," << y;
        }
      }
    }
  }
}

TEST(SsimDecimator, SizeRule) {
  // n / factor, plus one for odd n (libvmaf decimate.c).
  EXPECT_EQ(ssim::decimated_size(1920, 4), 480);
  EXPECT_EQ(ssim::decimated_size(1081, 4), 271);
  EXPECT_EQ(ssim::decimated_size(113, 3), 38);
  EXPECT_EQ(ssim::decimated_size(112, 3), 37);
  EXPECT_EQ(ssim::decimated_size(577, 2), 289);
}

TEST(SsimParams, StabilisingConstants) {
  // (0.01 * 255)^2 and (0.03 * 255)^2 in float; C3 = C2 / 2.
  EXPECT_FLOAT_EQ(ssim::kC1, 6.5025f);
  EXPECT_FLOAT_EQ(ssim::kC2, 58.5225f);
  EXPECT_FLOAT_EQ(ssim::kC3, 29.26125f);
  float sum = 0.0f;
  for (float t : ssim::kGaussian) sum += t;
  EXPECT_NEAR(sum, 1.0f, 1e-5f);
}

// ---------------------------------------------------------------------------
// The extractor's values

TEST(FloatSsim, EqualPicturesScoreExactlyOne) {
  std::mt19937 rng(21);
  for (unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    for (ChromaFormat chroma : {ChromaFormat::k400, ChromaFormat::k420, ChromaFormat::k444}) {
      const PictureFormat fmt = format(37, 29, bpc, chroma);
      // A flat 8-bit picture of 3 is one where libvmaf's rounding gives
      // 0.99999994 instead of 1.
      const Picture flat = make_picture(fmt, [bpc](unsigned, unsigned) { return 3U << (bpc - 8); });
      const Picture textured = textured_picture(fmt, rng, 0.1);
      for (const Picture* p : {&flat, &textured}) {
        const std::vector<double> v = run_ssim(*p, *p, {{"enable_lcs", "true"}});
        ASSERT_EQ(v.size(), 4U);
        for (double x : v) EXPECT_EQ(x, 1.0) << "bpc " << bpc;
      }
    }
  }
}

TEST(FloatSsim, FlatPicturesScoreTheLuminanceTerm) {
  // Two flat pictures: no variance, so c = s = 1 and SSIM is the luminance
  // term (2ab + C1) / (a^2 + b^2 + C1) with a = 100, b = 110.
  const PictureFormat fmt = format(64, 48, 8);
  const Picture a = make_picture(fmt, [](unsigned, unsigned) { return 100U; });
  const Picture b = make_picture(fmt, [](unsigned, unsigned) { return 110U; });
  const std::vector<double> v = run_ssim(a, b, {{"enable_lcs", "true"}});
  const double l = (2.0 * 100 * 110 + 6.5025) / (100.0 * 100 + 110.0 * 110 + 6.5025);
  EXPECT_NEAR(v[0], l, 1e-6);  // 0.9954763...
  EXPECT_NEAR(v[1], l, 1e-6);
  EXPECT_NEAR(v[2], 1.0, 1e-6);
  EXPECT_NEAR(v[3], 1.0, 1e-6);
}

TEST(FloatSsim, ExtractorIsTheWindowOnTheLuma) {
  std::mt19937 rng(22);
  const PictureFormat fmt = format(91, 67, 8);
  const Picture ref = textured_picture(fmt, rng, 0.05);
  const Picture dist = distorted(ref, rng, 0.08);
  FloatImage fref(91, 67);
  FloatImage fdist(91, 67);
  for (unsigned y = 0; y < 67; ++y) {
    for (unsigned x = 0; x < 91; ++x) {
      fref.row(static_cast<int>(y))[x] = static_cast<float>(ref.plane(0).at(x, y));
      fdist.row(static_cast<int>(y))[x] = static_cast<float>(dist.plane(0).at(x, y));
    }
  }
  const WindowMeans want = plain_window(fref, fdist);
  const std::vector<double> v = run_ssim(ref, dist, {{"enable_lcs", "true"}});
  EXPECT_EQ(v[0], static_cast<double>(want.ssim));
  EXPECT_EQ(v[1], static_cast<double>(want.l));
  EXPECT_EQ(v[2], static_cast<double>(want.c));
  EXPECT_EQ(v[3], static_cast<double>(want.s));

  // With scale=3 the window sees the box-subsampled pictures.
  const std::vector<float> box(9, 1.0f / 9.0f);
  const WindowMeans small =
      plain_window(plain_decimate(fref, box, 3, 3), plain_decimate(fdist, box, 3, 3));
  const std::vector<double> v3 = run_ssim(ref, dist, {{"enable_lcs", "true"}, {"scale", "3"}});
  EXPECT_EQ(v3[0], static_cast<double>(small.ssim));
  EXPECT_EQ(v3[3], static_cast<double>(small.s));
  EXPECT_NE(v3[0], v[0]);
}

TEST(FloatSsim, EveryDepthMeansTheSameInEightBitUnits) {
  // The same picture at 8 bits and shifted to 9..16 bits: samples divided
  // by 2^(bpc - 8) are equal, so every value is equal.
  std::mt19937 rng(23);
  const PictureFormat fmt8 = format(50, 40, 8);
  const Picture ref8 = textured_picture(fmt8, rng, 0.05);
  const Picture dist8 = distorted(ref8, rng, 0.05);
  const std::vector<double> want = run_ssim(ref8, dist8, {{"enable_lcs", "true"}});
  for (unsigned bpc = 9; bpc <= 16; ++bpc) {
    const PictureFormat fmt = format(50, 40, bpc);
    auto shifted = [&](const Picture& p) {
      return make_picture(fmt,
                          [&](unsigned x, unsigned y) { return p.plane(0).at(x, y) << (bpc - 8); });
    };
    EXPECT_EQ(run_ssim(shifted(ref8), shifted(dist8), {{"enable_lcs", "true"}}), want)
        << "bpc " << bpc;
  }
}

TEST(FloatSsim, ReadsOnlyTheLuma) {
  std::mt19937 rng(24);
  const PictureFormat fmt = format(48, 36, 10, ChromaFormat::k444);
  const Picture ref = textured_picture(fmt, rng, 0.05);
  const Picture dist = distorted(ref, rng, 0.05);
  const Picture dist_other_chroma = make_picture(
      fmt, [&](unsigned x, unsigned y) { return dist.plane(0).at(x, y); }, 1000);
  const double score = run_ssim(ref, dist)[0];
  EXPECT_EQ(run_ssim(ref, dist_other_chroma)[0], score);

  const PictureFormat gray = format(48, 36, 10, ChromaFormat::k400);
  auto luma_of = [&](const Picture& p) {
    return make_picture(gray, [&](unsigned x, unsigned y) { return p.plane(0).at(x, y); });
  };
  EXPECT_EQ(run_ssim(luma_of(ref), luma_of(dist))[0], score);
}

TEST(FloatSsim, AutomaticScaleRoundsShorterSideOver256) {
  // max(1, round(min(w, h) / 256)), halves rounded up: 383 -> 1, 384 -> 2,
  // 639 -> 2, 640 -> 3.
  std::mt19937 rng(25);
  auto check = [&](unsigned w, unsigned h, int expected) {
    const PictureFormat fmt = format(w, h, 8, ChromaFormat::k400);
    const Picture ref = textured_picture(fmt, rng, 0.05);
    const Picture dist = distorted(ref, rng, 0.1);
    const double automatic = run_ssim(ref, dist)[0];
    EXPECT_EQ(automatic, run_ssim(ref, dist, {{"scale", std::to_string(expected)}})[0])
        << w << "x" << h;
    const int other = expected == 1 ? 2 : expected - 1;
    EXPECT_NE(automatic, run_ssim(ref, dist, {{"scale", std::to_string(other)}})[0])
        << w << "x" << h;
  };
  check(400, 383, 1);
  check(384, 500, 2);
  check(700, 639, 2);
  check(640, 641, 3);
}

TEST(FloatSsim, DbOptions) {
  std::mt19937 rng(26);
  const PictureFormat fmt = format(64, 48, 8);
  const Picture ref = textured_picture(fmt, rng, 0.05);
  const Picture dist = distorted(ref, rng, 0.05);
  const std::vector<double> plain = run_ssim(ref, dist, {{"enable_lcs", "true"}});

  // -10 log10(1 - score); the l, c, s means stay as they are.
  const std::vector<double> db =
      run_ssim(ref, dist, {{"enable_lcs", "true"}, {"enable_db", "true"}});
  EXPECT_DOUBLE_EQ(db[0], -10.0 * std::log10(1.0 - plain[0]));
  EXPECT_EQ(db[1], plain[1]);
  EXPECT_EQ(db[3], plain[3]);

  // Equal pictures: infinitely many dB, unless clipped to
  // ceil(10 log10(255^2 / (0.5 / (64 * 48)))) = ceil(86.015...) = 87.
  EXPECT_EQ(run_ssim(ref, ref, {{"enable_db", "true"}})[0],
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(run_ssim(ref, ref, {{"enable_db", "true"}, {"clip_db", "true"}})[0], 87.0);
  // clip_db alone changes nothing.
  EXPECT_EQ(run_ssim(ref, ref, {{"clip_db", "true"}})[0], 1.0);
  // At 10 bits: ceil(10 log10(1023^2 * 2 * 3072)) = ceil(98.08...) = 99.
  EXPECT_EQ(ssim::max_db(true, 10, 64, 48), 99.0);
}

// ---------------------------------------------------------------------------
// Names, options, errors

TEST(FloatSsim, OutputNames) {
  const ExtractorSpec plain = ssim_spec();
  ASSERT_EQ(plain.outputs.size(), 1U);
  EXPECT_EQ(plain.outputs[0].name, "float_ssim");
  EXPECT_FALSE(plain.temporal);
  EXPECT_EQ(plain.family, "float_ssim");

  // No option is a feature parameter: the names never get a suffix.
  const ExtractorSpec all = ssim_spec(
      {{"enable_lcs", "true"}, {"enable_db", "true"}, {"clip_db", "true"}, {"scale", "2"}});
  ASSERT_EQ(all.outputs.size(), 4U);
  EXPECT_EQ(all.outputs[0].name, "float_ssim");
  EXPECT_EQ(all.outputs[1].name, "float_ssim_l");
  EXPECT_EQ(all.outputs[2].name, "float_ssim_c");
  EXPECT_EQ(all.outputs[3].name, "float_ssim_s");
  EXPECT_NE(all.key, plain.key);
  EXPECT_NE(ssim_spec({{"scale", "2"}}).key, ssim_spec({{"scale", "3"}}).key);
  EXPECT_EQ(ssim_spec({{"scale", "0"}}).key, plain.key);

  ASSERT_EQ(float_ssim_family().provides.size(), 1U);
  EXPECT_STREQ(float_ssim_family().provides[0].model_name, "float_ssim");
  EXPECT_STREQ(float_ssim_family().provides[0].base, "float_ssim");
}

TEST(FloatSsim, BadOptionsAreRefused) {
  for (const OptionMap& bad : std::vector<OptionMap>{{{"scale", "11"}},
                                                     {{"scale", "-1"}},
                                                     {{"scale", "two"}},
                                                     {{"enable_lcs", "maybe"}},
                                                     {{"no_such_option", "1"}}}) {
    const auto spec = float_ssim_family().make_spec(bad);
    ASSERT_FALSE(spec.ok()) << bad.begin()->first;
    EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
    EXPECT_NE(spec.status().message().find("float_ssim"), std::string::npos);
  }
}

TEST(FloatSsim, RefusesPicturesSmallerThanTheWindow) {
  auto init = [](unsigned w, unsigned h, const OptionMap& options) {
    return ssim_spec(options).make()->init(format(w, h, 8));
  };
  EXPECT_TRUE(init(11, 11, {}).ok());
  const Status narrow = init(10, 40, {});
  EXPECT_EQ(narrow.code(), Errc::kUnsupported);
  EXPECT_NE(narrow.message().find("10x40"), std::string::npos) << narrow.message();
  // 200x100 subsampled by 10 is 20x10.
  const Status small = init(200, 100, {{"scale", "10"}});
  EXPECT_EQ(small.code(), Errc::kUnsupported);
  EXPECT_NE(small.message().find("subsampled by 10 to 20x10"), std::string::npos)
      << small.message();
  EXPECT_TRUE(init(200, 110, {{"scale", "10"}}).ok());

  // 11x11 has one window position.
  std::mt19937 rng(27);
  const Picture ref = textured_picture(format(11, 11, 8), rng, 0.1);
  const Picture dist = distorted(ref, rng, 0.1);
  const double v = run_ssim(ref, dist)[0];
  EXPECT_GT(v, 0.0);
  EXPECT_LT(v, 1.0);
}

TEST(FloatSsim, RejectsFramesOfAnotherSizeOrDepth) {
  const ExtractorSpec spec = ssim_spec();
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(format(64, 48, 8)).ok());
  LastValueWriter out(std::nan(""));
  const Picture good = make_picture(format(64, 48, 8), [](unsigned, unsigned) { return 7U; });
  const Picture taller = make_picture(format(64, 50, 8), [](unsigned, unsigned) { return 7U; });
  const Picture deeper = make_picture(format(64, 48, 10), [](unsigned, unsigned) { return 7U; });
  EXPECT_EQ(ex->extract(good, taller, 3, out).code(), Errc::kMismatch);
  EXPECT_EQ(ex->extract(deeper, deeper, 3, out).code(), Errc::kMismatch);
  EXPECT_TRUE(ex->extract(good, good, 3, out).ok());
}

}  // namespace
}  // namespace vqx

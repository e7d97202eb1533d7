// Unit tests of integer SSIM ("ssim", libvmaf feature/integer_ssim.c): the
// taps from the reference's derivation, the truncated window's edges, sums
// checked by hand, closed forms on flat pictures, the CPU twin against an
// independent brute force of the reference's arithmetic as written (32-bit
// products: equal to the bit up to 12 bits, overflowing above) and with
// wide products (equal at every depth), and the family's names and options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/integer_ssim/cpu.hpp"
#include "metrics/integer_ssim/params.hpp"
#include "metrics/integer_ssim/pointwise.hpp"
#include "test_util.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

using integer_ssim::kWindow;
using testutil::format;
using testutil::zero_chroma::flat_picture;
using testutil::zero_chroma::make_picture;

using testutil::bits;

Picture copy_of(const Picture& p) {
  return make_picture(p.format(), [&](unsigned x, unsigned y) { return p.plane(0).at(x, y); });
}

double cpu_score(const Picture& ref, const Picture& dist) {
  integer_ssim::Scorer s;
  s.init(static_cast<int>(ref.width()), static_cast<int>(ref.height()));
  return s.score(ref.plane(0), dist.plane(0), ref.bpc());
}

// ---------------------------------------------------------------------------
// An independent oracle: integer_ssim.c's computation, written out in the
// test as its source reads (2-D, tap by tap, the window's positions checked
// one by one against the picture), with the arithmetic chosen:
//  * kAsWritten: the reference's types: tap * s * s and tap * s * d formed
//    in 32-bit int, which wraps on x86 where it overflows (UB in C, but what
//    the reference's binary computes), the peak squared in int;
//  * kWide: those products and the peak squared in 64 bits.
enum class Arithmetic { kAsWritten, kWide };

std::int64_t product3(std::int64_t t, std::int64_t a, std::int64_t b, Arithmetic ar) {
  if (ar == Arithmetic::kWide) return t * a * b;
  const auto ta = static_cast<std::uint32_t>(t) * static_cast<std::uint32_t>(a);
  return static_cast<std::int32_t>(ta * static_cast<std::uint32_t>(b));  // wraps mod 2^32
}

double oracle_score(const Picture& ref, const Picture& dist, Arithmetic ar) {
  const int w = static_cast<int>(ref.width());
  const int h = static_cast<int>(ref.height());
  const int samplemax = (1 << ref.bpc()) - 1;
  const double peak2 =
      ar == Arithmetic::kWide
          ? static_cast<double>(std::int64_t{samplemax} * samplemax)
          : static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(samplemax) *
                                                          static_cast<std::uint32_t>(samplemax)));
  const auto sample = [](const Picture& p, int x, int y) -> std::int64_t {
    return p.plane(0).at(static_cast<unsigned>(x), static_cast<unsigned>(y));
  };
  double ssim = 0;
  double ssimw = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      std::int64_t mux = 0, muy = 0, x2 = 0, xy = 0, y2 = 0, mw = 0;
      for (int kv = 0; kv < 9; ++kv) {
        const int yy = y - 4 + kv;
        if (yy < 0 || yy >= h) continue;
        std::int64_t hx = 0, hy = 0, hx2 = 0, hxy = 0, hy2 = 0, hw = 0;
        for (int kh = 0; kh < 9; ++kh) {
          const int xx = x - 4 + kh;
          if (xx < 0 || xx >= w) continue;
          const std::int64_t t = kWindow[static_cast<std::size_t>(kh)];
          const std::int64_t s = sample(ref, xx, yy);
          const std::int64_t d = sample(dist, xx, yy);
          hx += t * s;
          hy += t * d;
          hx2 += product3(t, s, s, ar);
          hxy += product3(t, s, d, ar);
          hy2 += product3(t, d, d, ar);
          hw += t;
        }
        const std::int64_t t = kWindow[static_cast<std::size_t>(kv)];
        mux += t * hx;
        muy += t * hy;
        x2 += t * hx2;
        xy += t * hxy;
        y2 += t * hy2;
        mw += t * hw;
      }
      const double ww = static_cast<double>(mw);
      const double c1 = peak2 * (0.01 * 0.01) * ww * ww;
      const double c2 = peak2 * (0.03 * 0.03) * ww * ww;
      const double mx2 = static_cast<double>(mux) * static_cast<double>(mux);
      const double mxy = static_cast<double>(mux) * static_cast<double>(muy);
      const double my2 = static_cast<double>(muy) * static_cast<double>(muy);
      ssim += static_cast<double>(mw) * (2 * mxy + c1) *
              (c2 + 2 * (static_cast<double>(xy) * ww - mxy)) /
              ((mx2 + my2 + c1) *
               (static_cast<double>(x2) * ww - mx2 + static_cast<double>(y2) * ww - my2 + c2));
      ssimw += static_cast<double>(mw);
    }
  }
  return ssim / ssimw;
}

Picture random_luma(const PictureFormat& fmt, std::mt19937& rng, std::uint32_t lo) {
  const std::uint32_t max = (1U << fmt.bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(lo, max);
  return make_picture(fmt, [&](unsigned, unsigned) { return any(rng); });
}

// ---------------------------------------------------------------------------
// The numbers

// integer_ssim.c's gaussian_filter_init(sigma 1.5, max_len 5), the rule
// recomputed: the half length so that the first truncated tap's error is
// at most half a unit of 1/256, each tap rounded, the centre what remains.
TEST(IntegerSsimParams, TapsAreTheReferenceDerivation) {
  const double sigma = 1.5;
  const double weight = 256;
  const double pi = std::acos(-1.0);
  const double scale = 1 / (std::sqrt(2 * pi) * sigma);
  const double s = std::sqrt(0.5 * pi) * sigma * (1.0 / weight);
  const int len = static_cast<int>(std::floor(sigma * std::sqrt(-2 * std::log(s))));
  ASSERT_EQ(len, integer_ssim::kRadius);  // below max_len 5
  unsigned side = 0;
  for (int i = 1; i <= len; ++i) {
    const auto t =
        static_cast<unsigned>(weight * scale * std::exp(-0.5 / (sigma * sigma) * i * i) + 0.5);
    EXPECT_EQ(t, static_cast<unsigned>(kWindow[static_cast<std::size_t>(len - i)])) << i;
    EXPECT_EQ(t, static_cast<unsigned>(kWindow[static_cast<std::size_t>(len + i)])) << i;
    side += t;
  }
  EXPECT_EQ(256 - 2 * side, static_cast<unsigned>(kWindow[static_cast<std::size_t>(len)]));
  EXPECT_EQ(integer_ssim::kK1, 0.01 * 0.01);
  EXPECT_EQ(integer_ssim::peak_squared(8), 255 * 255);
  EXPECT_EQ(integer_ssim::peak_squared(16), std::int64_t{65535} * 65535);
}

TEST(IntegerSsimParams, TheWindowIsTruncatedAtTheEdges) {
  using integer_ssim::axis_weight;
  using integer_ssim::tap_range;
  // Taps [first, end) inside an axis of `size`.
  EXPECT_EQ(tap_range(0, 1).first, 4);
  EXPECT_EQ(tap_range(0, 1).end, 5);  // a one-sample axis: the centre tap only
  EXPECT_EQ(tap_range(0, 10).first, 4);
  EXPECT_EQ(tap_range(0, 10).end, 9);
  EXPECT_EQ(tap_range(3, 10).first, 1);
  EXPECT_EQ(tap_range(4, 10).first, 0);
  EXPECT_EQ(tap_range(5, 10).end, 9);
  EXPECT_EQ(tap_range(6, 10).end, 8);
  EXPECT_EQ(tap_range(9, 10).end, 5);
  EXPECT_EQ(tap_range(1, 3).first, 3);
  EXPECT_EQ(tap_range(1, 3).end, 6);
  EXPECT_EQ(axis_weight(0, 1), 68);
  EXPECT_EQ(axis_weight(0, 10), 68 + 55 + 28 + 9 + 2);
  EXPECT_EQ(axis_weight(1, 10), 55 + 68 + 55 + 28 + 9 + 2);
  EXPECT_EQ(axis_weight(4, 9), 256);
  EXPECT_EQ(axis_weight(1, 3), 55 + 68 + 55);
  EXPECT_EQ(integer_ssim::pixel_weight(0, 0, 3, 1, integer_ssim::window_taps()), 151 * 68);
  // sum(W): the axes' sums multiplied.
  EXPECT_EQ(integer_ssim::weight_total(3, 1), (151 + 178 + 151) * 68);
  // Per axis of 9: 162, 217, 245, 254, 256, 254, 245, 217, 162.
  EXPECT_EQ(integer_ssim::weight_total(9, 9), 2012 * 2012);
}

// ---------------------------------------------------------------------------
// Values checked by hand

// A 3x1 picture: every window is cut on both sides and keeps one row. The
// sums below are worked out by hand from the taps (pixel 0 keeps taps 68,
// 55, 28 on samples 0, 1, 2 and the vertical centre 68; pixel 1 taps 55,
// 68, 55; pixel 2 taps 28, 55, 68).
TEST(IntegerSsim, SumsOfAThreePixelPictureCheckedByHand) {
  const PictureFormat fmt = format(3, 1, 8);
  const std::uint32_t r[] = {10, 20, 30};
  const std::uint32_t d[] = {10, 20, 40};
  const Picture ref = make_picture(fmt, [&](unsigned x, unsigned) { return r[x]; });
  const Picture dist = make_picture(fmt, [&](unsigned x, unsigned) { return d[x]; });
  const integer_ssim::Moments hand[3] = {
      // x = 68 (68*10 + 55*20 + 28*30), y = 68 (68*10 + 55*20 + 28*40), ...
      {178160, 197200, 3672000, 5004800, 4243200},
      {242080, 279480, 5589600, 8207600, 6711600},
      {232560, 278800, 5848000, 9084800, 7235200},
  };
  const std::int64_t weight[3] = {151 * 68, 178 * 68, 151 * 68};
  std::vector<double> terms(3);
  integer_ssim::Scorer s;
  s.init(3, 1);
  const double score = s.terms(ref.plane(0), dist.plane(0), 8, terms);
  double sum = 0;
  for (int x = 0; x < 3; ++x) {
    const double want = integer_ssim::weighted_ssim(hand[x], weight[x], 255 * 255);
    EXPECT_EQ(bits(terms[static_cast<std::size_t>(x)]), bits(want)) << x;
    sum += want;
  }
  EXPECT_EQ(bits(score), bits(sum / ((151 + 178 + 151) * 68)));
  EXPECT_GT(score, 0.9);
  EXPECT_LT(score, 1.0);
}

// Flat pictures: no variance, so each pixel's SSIM is the luminance term
// (2ab + C1) / (a^2 + b^2 + C1), C1 = (0.01 L)^2, whatever its window.
double flat_ssim(double a, double b, unsigned bpc) {
  const double l = std::ldexp(1.0, static_cast<int>(bpc)) - 1;
  const double c1 = 0.01 * 0.01 * l * l;
  return (2 * a * b + c1) / (a * a + b * b + c1);
}

TEST(IntegerSsim, FlatPicturesGiveTheLuminanceTerm) {
  struct Case {
    unsigned w, h, bpc, a, b;
  };
  for (const Case& c : {Case{1, 1, 8, 100, 110}, Case{7, 3, 8, 0, 255}, Case{20, 12, 10, 512, 600},
                        Case{9, 9, 12, 4095, 3000}, Case{16, 5, 13, 8191, 7000},
                        Case{11, 13, 16, 30000, 33000}, Case{6, 6, 16, 65535, 0}}) {
    const PictureFormat fmt = format(c.w, c.h, c.bpc);
    const double got = cpu_score(flat_picture(fmt, c.a), flat_picture(fmt, c.b));
    const double want = flat_ssim(c.a, c.b, c.bpc);
    EXPECT_NEAR(got, want, 1e-13 * want)
        << c.w << "x" << c.h << " " << c.bpc << "-bit " << c.a << " vs " << c.b;
  }
  // 100 vs 110 at 8 bits, by hand: (22000 + 6.5025) / (22100 + 6.5025).
  const PictureFormat one = format(1, 1, 8);
  EXPECT_NEAR(cpu_score(flat_picture(one, 100), flat_picture(one, 110)), 22006.5025 / 22106.5025,
              1e-15);
}

TEST(IntegerSsim, EqualPicturesScoreOne) {
  std::mt19937 rng(5);
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    for (const auto& [w, h] : {std::pair{1U, 1U}, std::pair{5U, 8U}, std::pair{33U, 17U}}) {
      const Picture p = random_luma(format(w, h, bpc), rng, 0);
      EXPECT_NEAR(cpu_score(p, p), 1.0, 1e-12) << w << "x" << h << " " << bpc;
    }
  }
}

// ---------------------------------------------------------------------------
// Against the reference's arithmetic

// Up to 12 bits the reference's 32-bit products never overflow: the CPU
// twin gives its bits, on sizes smaller than the window, about it, and
// larger, with the largest samples (all-max against all-max, noise near
// the peak) where the products are largest.
TEST(IntegerSsim, EqualsTheReferenceArithmeticToTheBitUpToTwelveBits) {
  std::mt19937 rng(7);
  const std::pair<unsigned, unsigned> sizes[] = {{1, 1}, {2, 3}, {3, 1},   {1, 9},   {5, 4},
                                                 {8, 8}, {9, 9}, {10, 11}, {17, 13}, {40, 23}};
  unsigned compared = 0;
  for (unsigned bpc = 8; bpc <= 12; ++bpc) {
    const std::uint32_t max = (1U << bpc) - 1;
    for (const auto& [w, h] : sizes) {
      const PictureFormat fmt = format(w, h, bpc);
      const std::vector<std::pair<Picture, Picture>> pairs = [&] {
        std::vector<std::pair<Picture, Picture>> v;
        v.emplace_back(random_luma(fmt, rng, 0), random_luma(fmt, rng, 0));
        v.emplace_back(random_luma(fmt, rng, max - max / 16), random_luma(fmt, rng, max - max / 8));
        v.emplace_back(flat_picture(fmt, max), flat_picture(fmt, max));
        v.emplace_back(flat_picture(fmt, 0), flat_picture(fmt, max));
        return v;
      }();
      for (const auto& [ref, dist] : pairs) {
        const double want = oracle_score(ref, dist, Arithmetic::kAsWritten);
        EXPECT_EQ(bits(cpu_score(ref, dist)), bits(want))
            << w << "x" << h << " " << bpc << "-bit: " << cpu_score(ref, dist) << " vs " << want;
        EXPECT_EQ(bits(want), bits(oracle_score(ref, dist, Arithmetic::kWide)));
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 5U * 10U * 4U);
}

// Above 12 bits the reference's products overflow 32 bits (13 bits: 68 *
// 8191^2 > 2^31), and at 16 bits its peak squared too. VQX computes the
// intended value, with 64-bit products: the wide oracle's bits at every
// depth, and on content where the reference's wrapped sums show, a value
// other than the reference's.
TEST(IntegerSsim, AboveTwelveBitsComputesTheIntendedValue) {
  std::mt19937 rng(11);
  for (unsigned bpc = 13; bpc <= 16; ++bpc) {
    const std::uint32_t max = (1U << bpc) - 1;
    // (Not 1x1: with one sample per window, equal wraps of x^2, y^2 and x*y
    // cancel in the contrast-structure term.)
    for (const auto& [w, h] : {std::pair{2U, 2U}, std::pair{6U, 5U}, std::pair{21U, 12U}}) {
      const PictureFormat fmt = format(w, h, bpc);
      // Samples of 3/4 of the peak or more: 68 * s^2 overflows 32 bits.
      const Picture ref = random_luma(fmt, rng, max - max / 4);
      const Picture dist = random_luma(fmt, rng, max - max / 4);
      const double ours = cpu_score(ref, dist);
      EXPECT_EQ(bits(ours), bits(oracle_score(ref, dist, Arithmetic::kWide)))
          << w << "x" << h << " " << bpc << "-bit";
      EXPECT_NE(bits(ours), bits(oracle_score(ref, dist, Arithmetic::kAsWritten)))
          << w << "x" << h << " " << bpc << "-bit: the reference's overflow should show here";
      EXPECT_GT(ours, -1.0);
      EXPECT_LE(ours, 1.0);
    }
  }
  // At 16 bits the reference's peak squared is -131071 in int, so C1 is
  // negative: dark flat pictures of 100 and 300 would score about 0.6
  // instead of the luminance term, 0.924.
  const PictureFormat fmt = format(4, 4, 16);
  const Picture a = flat_picture(fmt, 100);
  const Picture b = flat_picture(fmt, 300);
  EXPECT_NEAR(cpu_score(a, b), flat_ssim(100, 300, 16), 1e-13);
  EXPECT_NEAR(flat_ssim(100, 300, 16), 0.9244, 1e-4);
  EXPECT_NEAR(oracle_score(a, b, Arithmetic::kAsWritten), 0.6, 1e-3);
}

TEST(IntegerSsim, TermsAddUpToTheScore) {
  std::mt19937 rng(3);
  const PictureFormat fmt = format(23, 14, 10);
  const Picture ref = random_luma(fmt, rng, 0);
  const Picture dist = testutil::distorted(ref, rng, 0.05);
  integer_ssim::Scorer s;
  s.init(23, 14);
  std::vector<double> terms(23 * 14, -1.0);
  const double score = s.terms(ref.plane(0), dist.plane(0), 10, terms);
  double sum = 0;
  for (double t : terms) sum += t;
  EXPECT_EQ(bits(score), bits(sum / static_cast<double>(integer_ssim::weight_total(23, 14))));
  EXPECT_EQ(bits(score), bits(s.score(ref.plane(0), dist.plane(0), 10)));
}

// ---------------------------------------------------------------------------
// The family

TEST(IntegerSsimFamily, NamesOptionsAndOutput) {
  const ExtractorFamily& f = integer_ssim_family();
  EXPECT_STREQ(f.name, "ssim");
  EXPECT_TRUE(f.luma_only);
  EXPECT_TRUE(f.options.empty());
  const ExtractorSpec spec = testutil::spec_for(f, {});
  ASSERT_EQ(spec.outputs.size(), 1U);
  EXPECT_EQ(spec.outputs[0].name, "ssim");
  EXPECT_FALSE(spec.temporal);
  // libvmaf's extractor has no options and ignores any it is given; VQX
  // refuses them as it refuses every unknown option.
  auto bad = f.make_spec({{"enable_lcs", "true"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "ssim: unknown option 'enable_lcs'");
}

TEST(IntegerSsimFamily, WritesTheScorersValueAndStandsBesideFloatSsim) {
  std::mt19937 rng(9);
  const PictureFormat fmt = format(64, 36, 8);
  const Picture ref = random_luma(fmt, rng, 0);
  const Picture dist = testutil::distorted(ref, rng, 0.03);
  const std::vector<double> v =
      testutil::last_values(testutil::spec_for(integer_ssim_family(), {}), ref, dist);
  ASSERT_EQ(v.size(), 1U);
  EXPECT_EQ(bits(v[0]), bits(cpu_score(ref, dist)));

  auto ctx = Context::create({.backend = Backend::kCpu});
  ASSERT_TRUE(ctx.ok());
  ASSERT_TRUE((*ctx)->use_feature("ssim").ok());
  ASSERT_TRUE((*ctx)->use_feature("float_ssim").ok());
  ASSERT_TRUE((*ctx)->read_pictures(copy_of(ref), copy_of(dist), 0).ok());
  ASSERT_TRUE((*ctx)->flush().ok());
  const auto names = (*ctx)->metric_names();
  EXPECT_EQ(names, (std::vector<std::string>{"ssim", "float_ssim"}));
  auto ours = (*ctx)->score_at_index("ssim", 0);
  ASSERT_TRUE(ours.ok());
  EXPECT_EQ(bits(*ours), bits(v[0]));
  EXPECT_EQ((*ctx)->planes_read(), 1U);
}

}  // namespace
}  // namespace vqx

// Unit tests of the ANSNR family ("float_ansnr"): the energies and scores
// against a from-the-definition implementation (2-D filters with mirrored
// borders, float sums in libvmaf's order) at every depth and many sizes,
// hand-computed values, the cap, small pictures, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "metrics/ansnr/cpu.hpp"
#include "metrics/ansnr/params.hpp"
#include "metrics/families.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

class PairWriter final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned frame, double value) override {
    EXPECT_EQ(frame, 1U);
    (slot == 0 ? ansnr : anpsnr) = value;
    ++writes;
  }
  double ansnr = -1;
  double anpsnr = -1;
  int writes = 0;
};

using testutil::format;
using testutil::zero_chroma::flat_picture;
using testutil::zero_chroma::make_picture;
using testutil::zero_chroma::random_picture;

PairWriter scores(const Picture& ref, const Picture& dist) {
  auto spec = float_ansnr_family().make_spec({});
  EXPECT_TRUE(spec.ok());
  auto ex = spec.value().make();
  const Status init = ex->init(ref.format());
  EXPECT_TRUE(init.ok()) << init.message();
  PairWriter out;
  const Status s = ex->extract(ref, dist, 1, out);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(out.writes, 2);
  return out;
}

// ---------------------------------------------------------------------------
// ANSNR from its definition (libvmaf ansnr.c with ansnr_filter2d_s() and
// ansnr_mse_s()): whole float pictures, every filtered sample as a sum over
// filter rows of sums over filter columns, each started from 0.

std::vector<float> to_float(const Picture& pic) {
  const float scale = static_cast<float>(1U << (pic.bpc() - 8));
  std::vector<float> out;
  for (unsigned y = 0; y < pic.height(); ++y) {
    for (unsigned x = 0; x < pic.width(); ++x) {
      out.push_back(static_cast<float>(pic.plane(0).at(x, y)) / scale + -128.0F);
    }
  }
  return out;
}

// Sample (x, y) of a w-wide picture stored row after row.
std::size_t at(int x, int y, int w) {
  return static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x);
}

template <std::size_t N>
std::vector<float> filter2d(const std::array<std::array<float, N>, N>& f,
                            const std::vector<float>& src, int w, int h) {
  auto mirror = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - i - 1 : i); };
  const int r = static_cast<int>(N / 2);
  std::vector<float> dst(src.size());
  for (int i = 0; i < h; ++i) {
    for (int j = 0; j < w; ++j) {
      float accum = 0;
      for (int fi = 0; fi < static_cast<int>(N); ++fi) {
        float inner = 0;
        for (int fj = 0; fj < static_cast<int>(N); ++fj) {
          const int ii = mirror(i - r + fi, h);
          const int jj = mirror(j - r + fj, w);
          inner +=
              f[static_cast<std::size_t>(fi)][static_cast<std::size_t>(fj)] * src[at(jj, ii, w)];
        }
        accum += inner;
      }
      dst[at(j, i, w)] = accum;
    }
  }
  return dst;
}

ansnr::Energies definition_energies(const Picture& ref, const Picture& dist) {
  const int w = static_cast<int>(ref.width());
  const int h = static_cast<int>(ref.height());
  const std::vector<float> rf = filter2d(ansnr::kRefFilter, to_float(ref), w, h);
  const std::vector<float> df = filter2d(ansnr::kDisFilter, to_float(dist), w, h);
  float signal = 0;
  float noise = 0;
  for (int i = 0; i < h; ++i) {
    float row_signal = 0;
    float row_noise = 0;
    for (int j = 0; j < w; ++j) {
      const std::size_t k = at(j, i, w);
      row_signal += rf[k] * rf[k];
      row_noise += (rf[k] - df[k]) * (rf[k] - df[k]);
    }
    signal += row_signal;
    noise += row_noise;
  }
  return {signal, noise};
}

// ---------------------------------------------------------------------------

TEST(FloatAnsnr, EnergiesMatchTheDefinition) {
  std::mt19937 rng(31);
  for (unsigned bpc : {8U, 9U, 10U, 12U, 13U, 16U}) {
    // Heights around multiples of 4 (the kernel sums 4 rows at once).
    for (auto [w, h] : {std::pair{3U, 3U},
                        {4U, 5U},
                        {5U, 4U},
                        {3U, 8U},
                        {17U, 9U},
                        {33U, 7U},
                        {64U, 6U},
                        {10U, 31U}}) {
      const PictureFormat fmt = format(w, h, bpc);
      const Picture a = random_picture(fmt, rng);
      const Picture b = random_picture(fmt, rng);
      ansnr::EnergyKernel kernel(w, h);
      const ansnr::Energies e = kernel.compute(a.plane(0), b.plane(0), bpc);
      const ansnr::Energies d = definition_energies(a, b);
      EXPECT_EQ(e.signal, d.signal) << bpc << " bits " << w << "x" << h;
      EXPECT_EQ(e.noise, d.noise) << bpc << " bits " << w << "x" << h;
      // The kernel can be reused, with the same result.
      const ansnr::Energies again = kernel.compute(a.plane(0), b.plane(0), bpc);
      EXPECT_EQ(again.signal, e.signal);
      EXPECT_EQ(again.noise, e.noise);
    }
  }
}

TEST(FloatAnsnr, ScoresFollowTheFormulas) {
  std::mt19937 rng(32);
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(21, 13, bpc);
    const Picture a = random_picture(fmt, rng);
    const Picture b = random_picture(fmt, rng);
    const ansnr::Energies d = definition_energies(a, b);
    const double peak = static_cast<double>((1U << bpc) - 1) / (1U << (bpc - 8));
    const PairWriter out = scores(a, b);
    EXPECT_EQ(out.ansnr, 10.0 * std::log10(static_cast<double>(d.signal / d.noise))) << bpc;
    EXPECT_EQ(out.anpsnr,
              std::min(10 * std::log10(peak * peak * 21 * 13 / static_cast<double>(d.noise)),
                       6.0 * bpc + 12))
        << bpc;
  }
}

TEST(FloatAnsnr, HandComputedValues) {
  // Flat reference at 138 (10 after the offset), flat distorted at 128 (0):
  // both filters keep 10 and 0 exactly, so signal = noise = 100 w h:
  // ANSNR 0 dB, ANPSNR 10 log10(255^2 / 100).
  const PictureFormat fmt = format(9, 6, 8);
  const PairWriter out = scores(flat_picture(fmt, 138), flat_picture(fmt, 128));
  EXPECT_EQ(out.ansnr, 0.0);
  EXPECT_DOUBLE_EQ(out.anpsnr, 28.130803608679106);
  ansnr::EnergyKernel kernel(9, 6);
  const Picture ref = flat_picture(fmt, 138);
  const Picture dist = flat_picture(fmt, 128);
  const ansnr::Energies e = kernel.compute(ref.plane(0), dist.plane(0), 8);
  EXPECT_EQ(e.signal, 5400.0F);
  EXPECT_EQ(e.noise, 5400.0F);
}

TEST(FloatAnsnr, NoNoiseGivesTheCap) {
  // Mid-grey pictures (0 after the offset) have no signal and no noise.
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(5, 5, bpc, ChromaFormat::k400);
    const Picture grey = flat_picture(fmt, 128U << (bpc - 8));
    const PairWriter out = scores(grey, grey);
    EXPECT_EQ(out.ansnr, 6.0 * bpc + 12) << bpc;
    EXPECT_EQ(out.anpsnr, 6.0 * bpc + 12) << bpc;
  }
  // Identical natural pictures are filtered differently (3x3 and 5x5), so
  // the noise is small but not 0, and ANSNR is finite.
  std::mt19937 rng(33);
  const Picture a = random_picture(format(16, 16, 8), rng);
  const PairWriter out = scores(a, a);
  EXPECT_GT(out.ansnr, 0.0);
  EXPECT_LT(out.ansnr, 60.0);
}

TEST(FloatAnsnr, FiltersAreLibvmafs) {
  EXPECT_EQ(ansnr::kRefFilter[1][1], 0.25F);
  EXPECT_EQ(ansnr::kDisFilter[2][2], static_cast<float>(127.0 / 571.0));
  EXPECT_EQ(ansnr::kDisFilter[0][0], static_cast<float>(2.0 / 571.0));
  float sum = 0;
  for (const auto& row : ansnr::kDisFilter) {
    for (float c : row) {
      sum += c;
    }
  }
  EXPECT_NEAR(sum, 1.0F, 1e-6F);
}

TEST(FloatAnsnr, SmallPicturesAreRefused) {
  auto ex = float_ansnr_family().make_spec({}).value().make();
  for (auto [w, h] : {std::pair{2U, 5U}, {5U, 2U}, {1U, 1U}}) {
    const Status s = ex->init(format(w, h, 8));
    EXPECT_EQ(s.code(), Errc::kUnsupported) << w << "x" << h;
    EXPECT_NE(s.message().find("float_ansnr"), std::string::npos);
    EXPECT_NE(s.message().find("too small"), std::string::npos);
  }
  EXPECT_TRUE(ex->init(format(3, 3, 8)).ok());
}

TEST(FloatAnsnr, NamesOptionsAndErrors) {
  auto spec = float_ansnr_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  ASSERT_EQ(spec.value().outputs.size(), 2U);
  EXPECT_EQ(spec.value().outputs[0].name, "float_ansnr");
  EXPECT_EQ(spec.value().outputs[1].name, "float_anpsnr");
  ASSERT_EQ(float_ansnr_family().provides.size(), 1U);
  EXPECT_STREQ(float_ansnr_family().provides[0].base, "float_ansnr");

  const auto bad = float_ansnr_family().make_spec({{"x", "1"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kInvalidArgument);

  auto ex = spec.value().make();
  const Picture a = flat_picture(format(4, 4, 8), 1);
  PairWriter out;
  EXPECT_EQ(ex->extract(a, a, 1, out).code(), Errc::kInternal);
  ASSERT_TRUE(ex->init(a.format()).ok());
  const Picture b = flat_picture(format(4, 4, 8, ChromaFormat::k444), 1);
  EXPECT_EQ(ex->extract(a, b, 1, out).code(), Errc::kMismatch);
  EXPECT_EQ(out.writes, 0);
}

}  // namespace
}  // namespace vqx

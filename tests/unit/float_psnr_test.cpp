// Unit tests of the float PSNR family ("float_psnr"): the score against its
// definition (float samples in 8-bit units, float squares, double sum) at
// every depth, hand-computed values, the cap, the peaks, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "metrics/families.hpp"
#include "metrics/float_psnr/cpu.hpp"
#include "metrics/float_psnr/params.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

class SlotWriter final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned frame, double value) override {
    ++writes;
    last_slot = slot;
    last_frame = frame;
    last = value;
  }
  int writes = 0;
  std::size_t last_slot = 99;
  unsigned last_frame = 99;
  double last = -1;
};

using testutil::format;
using testutil::grey_chroma::flat_picture;
using testutil::grey_chroma::make_picture;
using testutil::grey_chroma::random_picture;

double score(const Picture& ref, const Picture& dist) {
  auto spec = float_psnr_family().make_spec({});
  EXPECT_TRUE(spec.ok());
  auto ex = spec.value().make();
  EXPECT_TRUE(ex->init(ref.format()).ok());
  SlotWriter out;
  const Status s = ex->extract(ref, dist, 3, out);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(out.writes, 1);
  EXPECT_EQ(out.last_slot, 0U);
  EXPECT_EQ(out.last_frame, 3U);
  return out.last;
}

// float_psnr from its definition (libvmaf psnr.c compute_psnr() on
// picture_copy()'s floats): one sample at a time, in row order.
double definition(const Picture& ref, const Picture& dist) {
  const unsigned bpc = ref.bpc();
  const float scale = static_cast<float>(1U << (bpc - 8));
  double noise = 0;
  for (unsigned y = 0; y < ref.height(); ++y) {
    for (unsigned x = 0; x < ref.width(); ++x) {
      const float r = static_cast<float>(ref.plane(0).at(x, y)) / scale;
      const float d = static_cast<float>(dist.plane(0).at(x, y)) / scale;
      const float diff = r - d;
      noise += diff * diff;
    }
  }
  noise /= static_cast<int>(ref.width() * ref.height());
  const double peak = static_cast<double>((1U << bpc) - 1) / scale;
  const double psnr = 10 * std::log10(peak * peak / std::max(noise, 1e-10));
  return std::min(psnr, 6.0 * bpc + 12);
}

TEST(FloatPsnr, MatchesTheDefinitionAtEveryDepth) {
  std::mt19937 rng(11);
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    for (auto [w, h] : {std::pair{1U, 1U}, {5U, 3U}, {31U, 17U}, {64U, 48U}}) {
      const PictureFormat fmt = format(w, h, bpc);
      const Picture a = random_picture(fmt, rng);
      const Picture b = random_picture(fmt, rng);
      EXPECT_EQ(score(a, b), definition(a, b)) << bpc << " bits " << w << "x" << h;
      // Small differences, where rounding of the squares matters most.
      const Picture c = make_picture(fmt, [&](unsigned x, unsigned y) {
        const std::uint32_t v = a.plane(0).at(x, y);
        return v == 0 ? 1 : v - 1;
      });
      EXPECT_EQ(score(a, c), definition(a, c)) << bpc << " bits " << w << "x" << h;
    }
  }
}

TEST(FloatPsnr, SumIsExactIntegerSseUpToTwelveBits) {
  // The kernel's integer path against the one-sample-at-a-time sum.
  std::mt19937 rng(12);
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const PictureFormat fmt = format(40, 9, bpc);
    const Picture a = random_picture(fmt, rng);
    const Picture b = random_picture(fmt, rng);
    const float scale = float_psnr::sample_scale(bpc);
    double expected = 0;
    for (unsigned y = 0; y < fmt.height; ++y) {
      for (unsigned x = 0; x < fmt.width; ++x) {
        const float diff = static_cast<float>(a.plane(0).at(x, y)) / scale -
                           static_cast<float>(b.plane(0).at(x, y)) / scale;
        expected += diff * diff;
      }
    }
    EXPECT_EQ(float_psnr::squared_difference_sum(a.plane(0), b.plane(0), bpc), expected) << bpc;
  }
}

TEST(FloatPsnr, HandComputedValues) {
  // 8 bits, off by 10: 10 log10(255^2 / 100).
  EXPECT_DOUBLE_EQ(score(flat_picture(format(8, 4, 8), 110), flat_picture(format(8, 4, 8), 100)),
                   28.130803608679106);
  // 10 bits, off by 4 = 1.0 in 8-bit units: 10 log10(255.75^2).
  EXPECT_DOUBLE_EQ(score(flat_picture(format(8, 4, 10), 404), flat_picture(format(8, 4, 10), 400)),
                   48.156312847683949);
}

TEST(FloatPsnr, EqualsIntegerPsnrAtEightBits) {
  std::mt19937 rng(13);
  const PictureFormat fmt = format(33, 21, 8);
  const Picture a = random_picture(fmt, rng);
  const Picture b = random_picture(fmt, rng);
  auto psnr = psnr_family().make_spec({}).value().make();
  ASSERT_TRUE(psnr->init(fmt).ok());
  struct LumaWriter final : FeatureWriter {
    double y = -1;
    void write(std::size_t slot, unsigned, double v) override {
      if (slot == 0) {
        y = v;
      }
    }
  } luma;
  ASSERT_TRUE(psnr->extract(a, b, 0, luma).ok());
  EXPECT_EQ(score(a, b), luma.y);
}

TEST(FloatPsnr, LosslessGivesTheCap) {
  std::mt19937 rng(14);
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const Picture a = random_picture(format(7, 5, bpc, ChromaFormat::k444), rng);
    EXPECT_EQ(score(a, a), 6.0 * bpc + 12) << bpc;
  }
}

TEST(FloatPsnr, PeaksAndCapsAreLibvmafs) {
  EXPECT_EQ(float_psnr::peak(8), 255.0);
  EXPECT_EQ(float_psnr::peak(10), 255.75);
  EXPECT_EQ(float_psnr::peak(12), 255.9375);
  EXPECT_EQ(float_psnr::peak(16), 255.99609375);
  EXPECT_EQ(float_psnr::psnr_max(8), 60.0);
  EXPECT_EQ(float_psnr::psnr_max(16), 108.0);
  EXPECT_EQ(float_psnr::sample_scale(12), 16.0F);
}

TEST(FloatPsnr, MonochromeAndOddSizesWork) {
  const PictureFormat fmt = format(3, 1, 12, ChromaFormat::k400);
  EXPECT_DOUBLE_EQ(score(flat_picture(fmt, 16), flat_picture(fmt, 0)),
                   10 * std::log10(255.9375 * 255.9375));
}

TEST(FloatPsnr, NamesOptionsAndErrors) {
  auto spec = float_psnr_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  ASSERT_EQ(spec.value().outputs.size(), 1U);
  EXPECT_EQ(spec.value().outputs[0].name, "float_psnr");
  EXPECT_FALSE(spec.value().temporal);
  ASSERT_EQ(float_psnr_family().provides.size(), 1U);
  EXPECT_STREQ(float_psnr_family().provides[0].model_name, "float_psnr");

  const auto bad = float_psnr_family().make_spec({{"enable_chroma", "true"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("float_psnr"), std::string::npos);

  auto ex = spec.value().make();
  const Picture a = flat_picture(format(4, 4, 8), 1);
  SlotWriter out;
  EXPECT_EQ(ex->extract(a, a, 0, out).code(), Errc::kInternal);
  ASSERT_TRUE(ex->init(a.format()).ok());
  const Picture b = flat_picture(format(4, 5, 8), 1);
  EXPECT_EQ(ex->extract(a, b, 0, out).code(), Errc::kMismatch);
  EXPECT_EQ(out.writes, 0);
}

}  // namespace
}  // namespace vqx

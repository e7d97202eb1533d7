// Unit tests of the float moment family ("float_moment"): the four moments
// against their definition (float samples in 8-bit units, double sums) at
// every depth, hand-computed values, names and errors.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/moment/cpu.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

class ArrayWriter final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned frame, double value) override {
    ASSERT_LT(slot, values.size());
    EXPECT_EQ(frame, 7U);
    values[slot] = value;
    ++writes;
  }
  std::array<double, 4> values{-1, -1, -1, -1};
  int writes = 0;
};

using testutil::format;
using testutil::zero_chroma::make_picture;
using testutil::zero_chroma::random_picture;

// ref1st, dis1st, ref2nd, dis2nd as the extractor writes them.
std::array<double, 4> moments(const Picture& ref, const Picture& dist) {
  auto spec = float_moment_family().make_spec({});
  EXPECT_TRUE(spec.ok());
  auto ex = spec.value().make();
  EXPECT_TRUE(ex->init(ref.format()).ok());
  ArrayWriter out;
  const Status s = ex->extract(ref, dist, 7, out);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(out.writes, 4);
  return out.values;
}

// The moments from their definition (libvmaf moment.c on picture_copy()'s
// floats): one sample at a time, in row order, double sums.
std::pair<double, double> definition(const Picture& pic) {
  const float scale = static_cast<float>(1U << (pic.bpc() - 8));
  double first = 0;
  double second = 0;
  for (unsigned y = 0; y < pic.height(); ++y) {
    for (unsigned x = 0; x < pic.width(); ++x) {
      const float v = static_cast<float>(pic.plane(0).at(x, y)) / scale;
      first += v;
      second += v * v;
    }
  }
  const int n = static_cast<int>(pic.width() * pic.height());
  return {first / n, second / n};
}

TEST(FloatMoment, MatchesTheDefinitionAtEveryDepth) {
  std::mt19937 rng(21);
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    for (auto [w, h] : {std::pair{1U, 1U}, {7U, 3U}, {33U, 19U}, {128U, 40U}}) {
      const PictureFormat fmt = format(w, h, bpc);
      const Picture a = random_picture(fmt, rng);
      const Picture b = random_picture(fmt, rng);
      const auto m = moments(a, b);
      const auto [ra1, ra2] = definition(a);
      const auto [rb1, rb2] = definition(b);
      EXPECT_EQ(m[0], ra1) << bpc << " bits " << w << "x" << h;
      EXPECT_EQ(m[1], rb1) << bpc << " bits " << w << "x" << h;
      EXPECT_EQ(m[2], ra2) << bpc << " bits " << w << "x" << h;
      EXPECT_EQ(m[3], rb2) << bpc << " bits " << w << "x" << h;
    }
  }
}

TEST(FloatMoment, HandComputedValues) {
  // A flat 100 (8-bit units at any depth): mean 100, mean square 10000.
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(6, 5, bpc);
    const Picture a = make_picture(fmt, [bpc](unsigned, unsigned) { return 100U << (bpc - 8); });
    const Picture b = make_picture(fmt, [](unsigned, unsigned) { return 0U; });
    const auto m = moments(a, b);
    EXPECT_EQ(m[0], 100.0) << bpc;
    EXPECT_EQ(m[1], 0.0) << bpc;
    EXPECT_EQ(m[2], 10000.0) << bpc;
    EXPECT_EQ(m[3], 0.0) << bpc;
  }
  // 8 bits, alternating columns 0 and 255: mean 127.5, mean square 32512.5.
  const PictureFormat fmt = format(4, 3, 8, ChromaFormat::k400);
  const Picture c = make_picture(fmt, [](unsigned x, unsigned) { return x % 2 ? 255U : 0U; });
  const auto m = moments(c, c);
  EXPECT_EQ(m[0], 127.5);
  EXPECT_EQ(m[2], 32512.5);
  EXPECT_EQ(m[1], m[0]);
  EXPECT_EQ(m[3], m[2]);
}

TEST(FloatMoment, FullScaleSixteenBits) {
  // 65535 / 256 = 255.99609375; its float square rounds (65535^2 needs 32
  // bits), which the kernel must reproduce.
  const PictureFormat fmt = format(5, 4, 16);
  const Picture a = make_picture(fmt, [](unsigned, unsigned) { return 65535U; });
  const auto m = moments(a, a);
  const float v = 255.99609375F;
  const float square = v * v;
  EXPECT_EQ(m[0], 255.99609375);
  EXPECT_EQ(m[2], static_cast<double>(square));
  const moment::Sums s = moment::plane_sums(a.plane(0), 16);
  EXPECT_EQ(s.sum, 20 * 255.99609375);
  EXPECT_EQ(s.sum_squares, 20 * static_cast<double>(square));
}

TEST(FloatMoment, NamesOptionsAndErrors) {
  auto spec = float_moment_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  std::vector<std::string> names;
  names.reserve(spec.value().outputs.size());
  for (const auto& o : spec.value().outputs) {
    names.push_back(o.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"float_moment_ref1st", "float_moment_dis1st",
                                             "float_moment_ref2nd", "float_moment_dis2nd"}));
  EXPECT_FALSE(spec.value().temporal);
  EXPECT_STREQ(float_moment_family().name, "float_moment");

  const auto bad = float_moment_family().make_spec({{"debug", "true"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("float_moment"), std::string::npos);

  auto ex = spec.value().make();
  const Picture a = make_picture(format(4, 4, 8), [](unsigned, unsigned) { return 1U; });
  ArrayWriter out;
  EXPECT_EQ(ex->extract(a, a, 7, out).code(), Errc::kInternal);
  ASSERT_TRUE(ex->init(a.format()).ok());
  const Picture b = make_picture(format(4, 4, 9), [](unsigned, unsigned) { return 1U; });
  EXPECT_EQ(ex->extract(a, b, 7, out).code(), Errc::kMismatch);
  EXPECT_EQ(out.writes, 0);
}

}  // namespace
}  // namespace vqx

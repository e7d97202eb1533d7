// Pooling as libvmaf's vmaf_feature_score_pooled(): min, max, mean and the
// shifted harmonic mean n / sum(1 / (x + 1)) - 1.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "engine/pooling.hpp"

namespace vqx {
namespace {

TEST(Pool, HandChecked) {
  // 1 and 3: mean 2; harmonic 2 / (1/2 + 1/4) - 1 = 5/3.
  const std::vector<double> v = {3.0, 1.0};
  const PooledStats p = pool(v);
  EXPECT_EQ(p.min, 1.0);
  EXPECT_EQ(p.max, 3.0);
  EXPECT_EQ(p.mean, 2.0);
  EXPECT_DOUBLE_EQ(p.harmonic_mean, 5.0 / 3.0);
}

TEST(Pool, HandCheckedZeros) {
  // 0, 0, 9: mean 3; harmonic 3 / (1 + 1 + 1/10) - 1 = 3/2.1 - 1 = 3/7.
  const std::vector<double> v = {0.0, 9.0, 0.0};
  const PooledStats p = pool(v);
  EXPECT_EQ(p.min, 0.0);
  EXPECT_EQ(p.max, 9.0);
  EXPECT_EQ(p.mean, 3.0);
  EXPECT_NEAR(p.harmonic_mean, 3.0 / 7.0, 1e-15);
}

TEST(Pool, SingleValue) {
  const std::vector<double> v = {91.5};
  const PooledStats p = pool(v);
  EXPECT_EQ(p.min, 91.5);
  EXPECT_EQ(p.max, 91.5);
  EXPECT_EQ(p.mean, 91.5);
  EXPECT_NEAR(p.harmonic_mean, 91.5, 1e-12);
}

TEST(Pool, SameArithmeticAsLibvmaf) {
  // The sums run in index order, in double: the exact bits of these sums.
  const std::vector<double> v = {0.1, 0.2, 0.3, 73.72788413837361, 96.54778441690041};
  double sum = 0, inv = 0;
  for (const double x : v) {
    sum += x;
    inv += 1. / (x + 1.);
  }
  const PooledStats p = pool(v);
  EXPECT_EQ(p.mean, sum / 5.0);
  EXPECT_EQ(p.harmonic_mean, 5.0 / inv - 1.0);
}

TEST(Pool, GoldenVmaf) {
  // shared/corpus/golden_fullprec/P9.models.json: vmaf_v0.6.1 of its 10
  // frames and its pooled_metrics (libvmaf 3.2.0, printed with %.17g).
  const std::vector<double> v = {14.848233319244178, 15.203283026424378, 17.035779774889267,
                                 16.900033358870452, 17.281157910515454, 16.16784839520194,
                                 16.761288565186923, 16.996521956478233, 16.228257803395113,
                                 13.985624941472503};
  const PooledStats p = pool(v);
  EXPECT_EQ(p.min, 13.985624941472503);
  EXPECT_EQ(p.max, 17.281157910515454);
  EXPECT_EQ(p.mean, 16.140802905167845);
  EXPECT_EQ(p.harmonic_mean, 16.073050294494134);
}

TEST(Pool, EmptyIsNaN) {
  const PooledStats p = pool({});
  EXPECT_TRUE(std::isnan(p.min));
  EXPECT_TRUE(std::isnan(p.max));
  EXPECT_TRUE(std::isnan(p.mean));
  EXPECT_TRUE(std::isnan(p.harmonic_mean));
}

TEST(Pool, NaNFirstStaysMinAndMax) {
  // libvmaf takes the first value, then only strictly smaller/larger ones.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v = {nan, 1.0, 2.0};
  const PooledStats p = pool(v);
  EXPECT_TRUE(std::isnan(p.min));
  EXPECT_TRUE(std::isnan(p.max));
  EXPECT_TRUE(std::isnan(p.mean));
}

}  // namespace
}  // namespace vqx

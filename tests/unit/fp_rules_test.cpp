// The library's floating-point rule (cmake/FloatingPoint.cmake): no multiply
// and add are fused, in any build of the kernels. Seen through the float
// filters every float family uses (float_common/convolve.cpp), on inputs
// where a fused multiply-add gives another value: the AVX2 and AVX-512
// kernels (the ones CPUs with FMA run) must round the product on its own,
// as the baseline ones and libvmaf do. The row kernels are Highway's: each
// test runs every target the CPU has (and scripts/simd_targets.sh runs the
// file for each clone target too).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "metrics/float_common/convolve.hpp"
#include "simd_targets.hpp"

namespace vqx {
namespace {

// taps {1, 1 + 2^-12} over rows {-(1 + 2^-11), 1 + 2^-12}: the product
// (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (a tie, to even) to 1 + 2^-11,
// so the rounded sum is exactly 0; a fused multiply-add keeps the 2^-24.
constexpr float kTap1 = 1.0f + 0x1p-12f;
constexpr float kRow0 = -(1.0f + 0x1p-11f);
constexpr float kRow1 = 1.0f + 0x1p-12f;
constexpr std::array<float, 2> kTaps = {1.0f, kTap1};
// Two whole blocks of 16 columns and a tail: every loop of the kernels.
constexpr unsigned kWidth = 35;

TEST(FloatingPointRules, TheProductIsRoundedBeforeTheSum) {
  // The arithmetic the test relies on, done here one operation at a time.
  const float product = kTap1 * kRow1;
  EXPECT_EQ(product, 1.0f + 0x1p-11f);
  EXPECT_EQ(kRow0 + product, 0.0f);
}

TEST(FloatingPointRules, WeightedRowsFuseNoMultiplyAdd) {
  const std::vector<float> row0(kWidth, kRow0), row1(kWidth, kRow1);
  const std::array<const float*, 2> rows = {row0.data(), row1.data()};
  test::for_each_simd_target([&](const std::string& target) {
    std::vector<float> out(kWidth, -1.0f);
    float_common::weighted_rows(kTaps, rows.data(), kWidth, out.data());
    for (unsigned j = 0; j < kWidth; ++j)
      EXPECT_EQ(out[j], 0.0f) << "column " << j << " " << target;
  });
}

TEST(FloatingPointRules, WeightedMomentsFuseNoMultiplyAdd) {
  const std::vector<float> row0(kWidth, kRow0), row1(kWidth, kRow1);
  const std::array<const float*, 2> a = {row0.data(), row1.data()};
  test::for_each_simd_target([&](const std::string& target) {
    std::array<std::vector<float>, 5> out;
    std::array<float*, 5> out_rows{};
    for (std::size_t m = 0; m < out.size(); ++m) {
      out[m].assign(kWidth, -1.0f);
      out_rows[m] = out[m].data();
    }
    float_common::weighted_rows_moments(kTaps, a.data(), a.data(), kWidth, out_rows.data());
    for (unsigned j = 0; j < kWidth; ++j) {
      EXPECT_EQ(out[0][j], 0.0f) << "sum of a, column " << j << " " << target;
      EXPECT_EQ(out[1][j], 0.0f) << "sum of b, column " << j << " " << target;
    }
  });
}

}  // namespace
}  // namespace vqx

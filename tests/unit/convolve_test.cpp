// The float row kernels of float_common/convolve.hpp (every float family's
// filters) under every Highway target the CPU runs, against their
// plain-loop reference forms, bit for bit: random samples of the ranges the
// families feed them (8- to 16-bit sample values, their differences,
// products of filtered values), mixed magnitudes, the lengths of libvmaf's
// filters, and widths around every vector length.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "metrics/float_common/convolve.hpp"
#include "simd_targets.hpp"

namespace vqx {
namespace {

struct Rows {
  std::vector<std::vector<float>> data;
  std::vector<const float*> pointers;
};

Rows random_rows(std::mt19937& rng, unsigned count, unsigned width, int kind) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> sample(0, 65535);
  std::uniform_int_distribution<int> exponent(-30, 30);
  Rows r;
  r.data.resize(count);
  for (auto& row : r.data) {
    row.resize(width);
    for (float& v : row) {
      switch (kind) {
        case 0:  // sample values (the first pass of every filter)
          v = static_cast<float>(sample(rng) >> (rng() % 9));
          break;
        case 1:  // signed values of one scale
          v = 255.0f * unit(rng);
          break;
        default:  // mixed magnitudes: sums that round at every step
          v = std::ldexp(unit(rng), exponent(rng));
          break;
      }
    }
    r.pointers.push_back(row.data());
  }
  return r;
}

std::vector<float> random_taps(std::mt19937& rng, unsigned n) {
  std::uniform_real_distribution<float> tap(0.0f, 0.2f);
  std::vector<float> taps(n);
  for (float& t : taps) t = tap(rng);
  return taps;
}

bool same_bits(float a, float b) {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

TEST(FloatConvolve, EveryTargetMatchesTheReference) {
  std::mt19937 rng(11);
  struct Case {
    std::string what;
    std::vector<float> taps;
    Rows a, b;
    unsigned width;
  };
  std::vector<Case> cases;
  for (unsigned ntaps : {1U, 3U, 5U, 9U, 17U, 33U}) {
    for (unsigned width : {1U, 2U, 3U, 7U, 8U, 15U, 16U, 17U, 31U, 32U, 33U, 47U, 64U, 67U, 250U}) {
      for (int kind = 0; kind < 3; ++kind) {
        cases.push_back({std::to_string(ntaps) + " taps, width " + std::to_string(width) +
                             ", kind " + std::to_string(kind),
                         random_taps(rng, ntaps), random_rows(rng, ntaps, width, kind),
                         random_rows(rng, ntaps, width, kind), width});
      }
    }
  }
  // The reference outputs, once.
  std::vector<std::vector<float>> sums, moments;
  for (const Case& c : cases) {
    sums.emplace_back(c.width);
    float_common::reference::weighted_rows(c.taps, c.a.pointers.data(), c.width,
                                           sums.back().data());
    moments.emplace_back(5 * c.width);
    std::array<float*, 5> out{};
    for (unsigned m = 0; m < 5; ++m) out[m] = moments.back().data() + m * c.width;
    float_common::reference::weighted_rows_moments(c.taps, c.a.pointers.data(), c.b.pointers.data(),
                                                   c.width, out.data());
  }
  const auto ran = test::for_each_simd_target([&](const std::string& target) {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      std::vector<float> got(c.width, -7.0f);
      float_common::weighted_rows(c.taps, c.a.pointers.data(), c.width, got.data());
      for (unsigned j = 0; j < c.width; ++j) {
        ASSERT_TRUE(same_bits(got[j], sums[i][j]))
            << "weighted_rows " << c.what << " column " << j << " on " << target << ": " << got[j]
            << " != " << sums[i][j];
      }
      std::vector<float> got5(5 * c.width, -7.0f);
      std::array<float*, 5> out{};
      for (unsigned m = 0; m < 5; ++m) out[m] = got5.data() + m * c.width;
      float_common::weighted_rows_moments(c.taps, c.a.pointers.data(), c.b.pointers.data(), c.width,
                                          out.data());
      for (unsigned j = 0; j < 5 * c.width; ++j) {
        ASSERT_TRUE(same_bits(got5[j], moments[i][j]))
            << "weighted_rows_moments " << c.what << " moment " << j / c.width << " column "
            << j % c.width << " on " << target;
      }
    }
  });
  EXPECT_GE(ran.size(), 2U);
}

}  // namespace
}  // namespace vqx

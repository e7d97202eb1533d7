// SSIM's and MS-SSIM's filters (metrics/ssim/filters.hpp: the window's
// Gaussian across a row and down a column, MS-SSIM's 9x9 low-pass) under
// every Highway target the CPU runs, against their plain-loop reference
// forms, bit for bit: the sample values and products the window filters
// (8- to 16-bit values, their squares), signed values of mixed magnitudes
// (the lower scales' low-passed pictures), values near float's ends
// (subnormal products, sums that round to infinity), and widths around
// every vector length. Order traps make the order of the terms show: an
// output whose first product is 1, whose last is half a float ulp of 1 and
// whose others are each below half a double ulp of 1 sums, in the
// reference's order, to exactly the tie 1 + 2^-24 (rounded to 1.0f), and to
// more than the tie (rounded up) in almost any other order.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "metrics/ssim/filters.hpp"
#include "simd_targets.hpp"

namespace vqx {
namespace {

constexpr int kKinds = 4;  // random values; kind kKinds adds the order traps

float random_value(std::mt19937& rng, int kind) {
  std::uniform_int_distribution<int> sample(0, 65535);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exponent(-40, 40);
  switch (kind) {
    case 0:  // sample values of 8 to 16 bits
      return static_cast<float>(sample(rng) >> (rng() % 9));
    case 1: {  // squares and products of 8-bit samples
      const auto a = static_cast<float>(rng() % 256);
      const auto b = static_cast<float>(rng() % 256);
      return a * b;
    }
    case 2:  // signed, mixed magnitudes
      return std::ldexp(unit(rng), exponent(rng));
    default: {  // float's ends: subnormal products, sums past the largest float
      const int pick = static_cast<int>(rng() % 4);
      if (pick == 0) return std::ldexp(unit(rng), -140);
      if (pick == 1) return unit(rng) * std::numeric_limits<float>::max();
      if (pick == 2) return 0.0f;
      return unit(rng);
    }
  }
}

std::vector<float> random_row(std::mt19937& rng, int length, int kind) {
  std::vector<float> row(static_cast<std::size_t>(length));
  for (float& v : row) v = random_value(rng, kind);
  return row;
}

// The products of an order trap of `terms` terms (see the top of the file):
// 1, then terms of about 2^-54 (below half a double ulp of 1, exact or
// not), then 2^-24, half a float ulp of 1.
float trap_product(int term, int terms) {
  if (term == 0) return 1.0f;
  if (term == terms - 1) return std::ldexp(1.0f, -24);
  return std::ldexp(1.0f, -54);
}

// A sample whose float product with `tap` is the trap's term `term`:
// exactly for the first and the last, within a factor of 2 for the others.
float trap_sample(float tap, int term, int terms) {
  const float product = trap_product(term, terms);
  float s = product / tap;
  if (term == 0 || term == terms - 1) {
    for (int step = 0; step < 64 && s * tap != product; ++step) {
      s = std::nextafter(s, (s * tap < product) == (tap > 0.0f) ? HUGE_VALF : -HUGE_VALF);
    }
    EXPECT_EQ(s * tap, product) << "no sample for tap " << tap;
  } else {
    EXPECT_TRUE(s * tap >= product / 2 && s * tap <= product * 2) << "tap " << tap;
  }
  return s;
}

// The sum of the trap's products in reverse order, rounded to float: not
// the reference's 1.0f, so a filter that reverses them fails.
float reversed_trap_sum(int terms) {
  double sum = 0.0;
  for (int t = terms - 1; t >= 0; --t) sum += static_cast<double>(trap_product(t, terms));
  return static_cast<float>(sum);
}

bool same_bits(float a, float b) {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// The widths: every count up to three AVX-512 blocks and beyond, and a
// 1080p row's.
std::vector<int> widths() {
  std::vector<int> w;
  for (int c = 1; c <= 70; ++c) w.push_back(c);
  w.push_back(1910);
  return w;
}

// Compares `got` with `want` lane by lane, naming the first difference.
void expect_same(const std::vector<float>& got, const std::vector<float>& want,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t x = 0; x < got.size(); ++x) {
    ASSERT_TRUE(same_bits(got[x], want[x]))
        << what << " output " << x << ": " << got[x] << " != " << want[x];
  }
}

// Runs check(kind, count, name) for every Highway target the CPU runs,
// every kind of values (then kKinds: the order traps) and every width.
template <typename Check>
void for_each_case(const Check& check) {
  const auto ran = test::for_each_simd_target([&](const std::string& target) {
    for (int kind = 0; kind <= kKinds; ++kind) {
      for (int count : widths()) {
        check(kind, count,
              target + " kind " + std::to_string(kind) + " width " + std::to_string(count));
      }
    }
  });
  EXPECT_GE(ran.size(), 2U);
}

TEST(SsimFilters, OrderTrapsShowAReversedSum) {
  EXPECT_NE(reversed_trap_sum(ssim::kWindow), 1.0f);
  EXPECT_NE(reversed_trap_sum(ssim::kLpfTaps), 1.0f);
}

TEST(SsimFilters, GaussianRowOnEveryTargetIsTheReference) {
  std::mt19937 rng(21);
  for_each_case([&](int kind, int count, const std::string& name) {
    std::vector<float> in = random_row(rng, count + ssim::kWindow - 1, kind % kKinds);
    if (kind == kKinds) {  // a trap at every kWindow-th output
      for (int x = 0; x < count; x += ssim::kWindow) {
        for (int t = 0; t < ssim::kWindow; ++t) {
          in[x + t] = trap_sample(ssim::kGaussian[t], t, ssim::kWindow);
        }
      }
    }
    std::vector<float> want(static_cast<std::size_t>(count));
    std::vector<float> got(want.size(), -7.0f);
    ssim::reference::gaussian_row(in.data(), want.data(), count);
    if (kind == kKinds) {
      ASSERT_EQ(want[0], 1.0f);
    }
    ssim::gaussian_row(in.data(), got.data(), count);
    expect_same(got, want, name);
  });
}

TEST(SsimFilters, GaussianColumnOnEveryTargetIsTheReference) {
  std::mt19937 rng(22);
  for_each_case([&](int kind, int count, const std::string& name) {
    std::vector<std::vector<float>> rows;
    std::vector<const float*> pointers;
    for (int v = 0; v < ssim::kWindow; ++v) {
      rows.push_back(random_row(rng, count, kind % kKinds));
      if (kind == kKinds) {  // a trap at every odd output
        for (int x = 1; x < count; x += 2) {
          rows.back()[x] = trap_sample(ssim::kGaussian[v], v, ssim::kWindow);
        }
      }
    }
    for (const auto& row : rows) pointers.push_back(row.data());
    std::vector<float> want(static_cast<std::size_t>(count));
    std::vector<float> got(want.size(), -7.0f);
    ssim::reference::gaussian_column(pointers.data(), want.data(), count);
    if (kind == kKinds && count > 1) {
      ASSERT_EQ(want[1], 1.0f);
    }
    ssim::gaussian_column(pointers.data(), got.data(), count);
    expect_same(got, want, name);
  });
}

TEST(SsimFilters, LowPassRowOnEveryTargetIsTheReference) {
  std::mt19937 rng(23);
  const std::vector<float> random_taps = [&rng] {
    std::uniform_real_distribution<float> unit(-0.5f, 0.5f);
    std::vector<float> taps(ssim::kLpfTaps);
    for (float& t : taps) t = unit(rng);
    return taps;
  }();
  const std::vector<float> lpf(ssim::kLowPass.begin(), ssim::kLowPass.end());
  for (const auto* taps : {&lpf, &random_taps}) {
    SCOPED_TRACE(taps == &lpf ? "MS-SSIM's taps" : "random taps");
    for_each_case([&](int kind, int count, const std::string& name) {
      // Each filter row: two phases of count + 4 samples, a gap between.
      const int phase_stride = count + ssim::kLpfSize / 2 + 3;
      std::vector<std::vector<float>> rows;
      std::vector<const float*> pointers;
      for (int v = 0; v < ssim::kLpfSize; ++v) {
        rows.push_back(random_row(rng, ssim::kLpfFactor * phase_stride, kind % kKinds));
      }
      // A trap at every fifth output (an output reads five samples of each
      // phase).
      for (int x = 0; kind == kKinds && x < count; x += 5) {
        for (int k = 0; k < ssim::kLpfTaps; ++k) {
          const int v = k / ssim::kLpfSize;
          const int u = k % ssim::kLpfSize;
          rows[v][(u % ssim::kLpfFactor) * phase_stride + u / ssim::kLpfFactor + x] =
              trap_sample((*taps)[k], k, ssim::kLpfTaps);
        }
      }
      for (const auto& row : rows) pointers.push_back(row.data());
      std::vector<float> want(static_cast<std::size_t>(count));
      std::vector<float> got(want.size(), -7.0f);
      ssim::reference::low_pass_row(pointers.data(), taps->data(), phase_stride, want.data(),
                                    count);
      if (kind == kKinds) {
        ASSERT_EQ(want[0], 1.0f);
      }
      ssim::low_pass_row(pointers.data(), taps->data(), phase_stride, got.data(), count);
      expect_same(got, want, name);
    });
  }
}

}  // namespace
}  // namespace vqx

// The exact sequential sums (src/core/chain_sum.hpp, src/gpu/chain_sum.cuh):
// the GPU kernels run here on the CPU, without a device (one host thread
// per GPU thread: tests/unit/gpu_on_host.hpp), and their result must be the
// sequential chain's (s = s + t, from the first term to the last), bit for
// bit, in float and in double: random terms of every size, half-way cases,
// long runs of equal terms (where a chain's rounding error is largest),
// zeros, subnormals, negative, infinite and NaN terms, several chains per
// launch, and estimates that are wrong on purpose (which may only make the
// walk slower).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/chain_sum.hpp"
#include "core/index_math.hpp"
// What nvcc and hipcc provide, before the kernels.
#include "gpu_on_host.hpp"
// The kernels, and their launches on the host.
#include "chain_on_host.hpp"

#undef __shared__

namespace vqx {
namespace {

using chain::Step;
using chain_on_host::kernel_sums;

template <typename Acc>
Acc sequential(const std::vector<float>& terms) {
  Acc s = 0;
  for (const float t : terms) s += static_cast<Acc>(t);
  return s;
}

template <typename T>
std::uint64_t bits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

template <typename Acc>
void expect_exact(const std::vector<std::vector<float>>& chains, const std::string& what,
                  const int* estimate_override = nullptr) {
  const std::vector<Acc> got = kernel_sums<Acc>(chains, estimate_override);
  for (std::size_t k = 0; k < chains.size(); ++k) {
    const Acc want = sequential<Acc>(chains[k]);
    EXPECT_EQ(bits(got[k]), bits(want))
        << what << " (" << (sizeof(Acc) == 4 ? "float" : "double") << "), chain " << k << " of "
        << chains[k].size() << " terms: kernels " << got[k] << ", chain " << want;
  }
}

template <typename Acc>
void expect_exact(const std::vector<float>& terms, const std::string& what) {
  expect_exact<Acc>(std::vector<std::vector<float>>{terms}, what);
}

// Terms spread over many binades: |N(0,1)| * 2^uniform(-30, 30).
std::vector<float> wide_terms(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0F, 1.0F);
  std::uniform_int_distribution<int> exponent(-30, 30);
  std::vector<float> t(n);
  for (float& v : t) v = std::ldexp(std::fabs(normal(rng)), exponent(rng));
  return t;
}

// Terms of one size, like a picture's squared errors: uniform in [0, 100).
std::vector<float> similar_terms(std::size_t n, std::uint32_t seed, double zeros) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(0.0F, 100.0F);
  std::bernoulli_distribution zero(zeros);
  std::vector<float> t(n);
  for (float& v : t) v = zero(rng) ? 0.0F : value(rng);
  return t;
}

TEST(ChainSum, TermStepsAreTheChainsAdditions) {
  // Every term against every sum of a few binades: one Step, applied
  // where it applies, is the addition.
  std::mt19937 rng(3);
  const std::vector<float> terms = wide_terms(2000, 4);
  for (int i = 0; i < 2000; ++i) {
    const float s = std::ldexp(1.0F + static_cast<float>(rng() % 1000) / 1000.0F,
                               static_cast<int>(rng() % 40) - 20);
    const float t = terms[static_cast<std::size_t>(i)];
    float walked = s;
    Step steps[chain::kCandidates] = {};
    steps[chain::kBelow] = chain::term_step<float>(t, chain::ulp_exponent(s));
    if (chain::try_step(walked, steps, chain::ulp_exponent(s))) {
      EXPECT_EQ(bits(walked), bits(s + t)) << s << " + " << t;
    } else {  // only where the sum leaves the binade
      EXPECT_GE(chain::ulp_exponent(s + t), chain::ulp_exponent(s)) << s << " + " << t;
    }
  }
}

TEST(ChainSum, HalfWayCasesRoundToEven) {
  // 1 + 2^-24 is half-way between 1 and its successor: 1 (even); the
  // successor plus 2^-24 rounds up (to the even neighbour).
  std::vector<float> t = {1.0F};
  for (int i = 0; i < 300; ++i) {
    t.push_back(std::ldexp(1.0F, -24));
    if (i % 3 == 0) t.push_back(std::ldexp(1.0F, -23));
    if (i % 7 == 0) t.push_back(std::ldexp(3.0F, -25));
  }
  expect_exact<float>(t, "half-way terms");
  std::vector<float> d = {1.0F};
  for (int i = 0; i < 5000; ++i) d.push_back(std::ldexp(1.0F, (i % 5 == 0) ? -52 : -53));
  expect_exact<double>(d, "half-way terms");
}

TEST(ChainSum, RandomTermsOfEverySize) {
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{4097}, std::size_t{13001}}) {
    expect_exact<float>(wide_terms(n, static_cast<std::uint32_t>(n)), "wide terms");
    expect_exact<double>(wide_terms(n, static_cast<std::uint32_t>(n + 1)), "wide terms");
  }
}

TEST(ChainSum, LongChainsOfSimilarTerms) {
  // 120000 terms of one size: the float chain's rounding is visible (it
  // differs from the exact sum), and runs cross many binades.
  const std::vector<float> t = similar_terms(120000, 5, 0.3);
  EXPECT_NE(static_cast<double>(sequential<float>(t)), sequential<double>(t));
  expect_exact<float>(t, "similar terms");
  expect_exact<double>(t, "similar terms");
  expect_exact<float>(std::vector<float>(100000, 1.1F), "equal terms");
  // The walk's detours: about one chunk per binade the sum crosses, and of
  // its runs about one added term by term.
  for (const bool use_double : {false, true}) {
    chain_on_host::WalkCounts counts;
    if (use_double) {
      (void)kernel_sums<double>({t}, nullptr, &counts);
    } else {
      (void)kernel_sums<float>({t}, nullptr, &counts);
    }
    std::printf("%s chain of %zu terms: %u chunks, %u added in detail, %u runs term by term\n",
                use_double ? "double" : "float", t.size(), counts.chunks, counts.detailed_chunks,
                counts.term_runs);
    EXPECT_LE(counts.detailed_chunks, 12U);
    EXPECT_LE(counts.term_runs, 2 * counts.detailed_chunks);
  }
  expect_exact<double>(std::vector<float>(100000, 0.3F), "equal terms");
}

// More chunks than the walk loads at once (kWalkBatch).
TEST(ChainSum, ChainsLongerThanOneBatchOfChunks) {
  const std::size_t n = std::size_t{chain::kChunk} * chain::kWalkBatch + 3 * chain::kChunk + 5;
  expect_exact<float>(similar_terms(n, 16, 0.9), "similar terms, mostly zeros");
}

TEST(ChainSum, SeveralChainsInOneLaunch) {
  expect_exact<float>(
      {similar_terms(20000, 7, 0.5), wide_terms(5000, 8), {}, similar_terms(9000, 9, 0.9)},
      "four chains");
  expect_exact<double>({wide_terms(7000, 10), similar_terms(12000, 11, 0.0)}, "two chains");
}

TEST(ChainSum, ZerosSubnormalsAndOddTerms) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<float> subnormal(9000, tiny);
  subnormal[4000] = std::ldexp(1.0F, -126);
  expect_exact<float>(subnormal, "subnormal terms");
  expect_exact<float>(std::vector<float>(5000, 0.0F), "zeros");
  expect_exact<float>(std::vector<float>(5000, -0.0F), "negative zeros");
  std::vector<float> odd = similar_terms(10000, 12, 0.2);
  odd[100] = -3.5F;  // negative terms: the run is added term by term
  odd[5000] = -1e6F;
  expect_exact<float>(odd, "negative terms");
  expect_exact<double>(odd, "negative terms");
  std::vector<float> big(10000, 3e38F);  // the float chain overflows to infinity
  expect_exact<float>(big, "overflow");
  std::vector<float> with_inf = similar_terms(9000, 13, 0.0);
  with_inf[6000] = inf;
  expect_exact<float>(with_inf, "an infinite term");
  expect_exact<double>(with_inf, "an infinite term");
  std::vector<float> with_nan = similar_terms(9000, 14, 0.0);
  with_nan[100] = nan;
  expect_exact<float>(with_nan, "a NaN term");
  expect_exact<double>(with_nan, "a NaN term");
}

TEST(ChainSum, WrongEstimatesChangeNothing) {
  const std::vector<float> t = similar_terms(20000, 15, 0.1);
  for (const int e : {-149, -20, 0, 5, 40}) {
    expect_exact<float>({t}, "estimate 2^" + std::to_string(e), &e);
    expect_exact<double>({t}, "estimate 2^" + std::to_string(e), &e);
  }
}

}  // namespace
}  // namespace vqx

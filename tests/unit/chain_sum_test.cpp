// The exact sequential sums (src/core/chain_sum.hpp, src/gpu/chain_sum.cuh):
// the GPU kernels run here on the CPU, without a device (one host thread
// per GPU thread: tests/unit/gpu_on_host.hpp), and their result must be the
// sequential chain's (s = s + t, from the first term to the last), bit for
// bit, in float and in double, of float terms and (for a double chain) of
// double terms: random terms of every size, half-way cases,
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
#include <type_traits>
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

template <typename Acc, typename Term>
Acc sequential(const std::vector<Term>& terms) {
  Acc s = 0;
  for (const Term t : terms) s += static_cast<Acc>(t);
  return s;
}

template <typename T>
std::uint64_t bits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

template <typename Acc, typename Term = float>
void expect_exact(const std::vector<std::vector<Term>>& chains, const std::string& what,
                  const int* estimate_override = nullptr) {
  const std::vector<Acc> got = kernel_sums<Acc, Term>(chains, estimate_override);
  for (std::size_t k = 0; k < chains.size(); ++k) {
    const Acc want = sequential<Acc>(chains[k]);
    EXPECT_EQ(bits(got[k]), bits(want))
        << what << " (" << (sizeof(Acc) == 4 ? "float" : "double") << " chain of "
        << (sizeof(Term) == 4 ? "float" : "double") << " terms), chain " << k << " of "
        << chains[k].size() << " terms: kernels " << got[k] << ", chain " << want;
  }
}

template <typename Acc, typename Term = float>
void expect_exact(const std::vector<Term>& terms, const std::string& what) {
  expect_exact<Acc, Term>(std::vector<std::vector<Term>>{terms}, what);
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

// Double terms spread over many binades: |N(0,1)| * 2^uniform(-60, 60),
// every bit of the significand used.
std::vector<double> wide_doubles(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> exponent(-60, 60);
  std::vector<double> t(n);
  for (double& v : t) v = std::ldexp(std::fabs(normal(rng)), exponent(rng));
  return t;
}

// Double terms like integer SSIM's W * ssim: a window weight (at most
// 2^16) times a value just below 1, or 0.
std::vector<double> ssim_like_terms(std::size_t n, std::uint32_t seed, double zeros) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(0.9, 1.0);
  std::uniform_int_distribution<int> weight(68 * 68, 256 * 256);
  std::bernoulli_distribution zero(zeros);
  std::vector<double> t(n);
  for (double& v : t) {
    const bool is_zero = zero(rng);
    const double w = weight(rng);
    v = is_zero ? 0.0 : w * value(rng);
  }
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
    // The 32-bit counts the GPU forms a float chain's runs in.
    steps[chain::kBelow] = chain::widened(
        chain::term_step<float, float, chain::RunCount<float>>(t, chain::ulp_exponent(s)));
    if (chain::try_step(walked, steps, chain::ulp_exponent(s))) {
      EXPECT_EQ(bits(walked), bits(s + t)) << s << " + " << t;
    } else {  // only where the sum leaves the binade
      EXPECT_GE(chain::ulp_exponent(s + t), chain::ulp_exponent(s)) << s << " + " << t;
    }
  }
}

TEST(ChainSum, NarrowCountsAreTheWideOnes) {
  // A float chain's run Steps are formed in 32 bits: for every kind of
  // term (zeros, subnormals, normals, negative, infinite, NaN) and every
  // binade of a float sum, the term's Step and its compositions must be
  // the 64-bit ones.
  static_assert(std::is_same_v<chain::RunCount<float>, std::uint32_t>);
  std::mt19937 rng(11);
  std::vector<float> terms = {0.0F,
                              -0.0F,
                              std::numeric_limits<float>::denorm_min(),
                              std::numeric_limits<float>::min(),
                              std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(),
                              -1.0F,
                              1.0F,
                              0.75F};
  for (int i = 0; i < 400; ++i) {
    const std::uint32_t b = static_cast<std::uint32_t>(rng());
    float t = 0.0F;
    std::memcpy(&t, &b, sizeof t);
    terms.push_back(t);
  }
  for (const float t : wide_terms(200, 12)) terms.push_back(t);
  unsigned differing = 0;
  unsigned saturated = 0;
  chain::RunStep<float> narrow{0U, 0U};
  Step wide{0U, 0U};
  for (int e = -149; e <= 104; ++e) {
    for (const float t : terms) {
      const Step w = chain::term_step<float, float>(t, e);
      const auto n = chain::term_step<float, float, chain::RunCount<float>>(t, e);
      differing += w.even != n.even || w.odd != n.odd ? 1U : 0U;
      saturated += w.even >= chain::cap<float>() ? 1U : 0U;
      // Runs of terms as the kernels compose them, restarted now and then.
      if (rng() % 16 == 0) {
        narrow = {0U, 0U};
        wide = {0U, 0U};
      }
      narrow = chain::compose<float>(narrow, n);
      wide = chain::compose<float>(wide, w);
      differing += wide.even != narrow.even || wide.odd != narrow.odd ? 1U : 0U;
    }
  }
  EXPECT_EQ(differing, 0U);
  EXPECT_GT(saturated, 1000U);  // the saturating cases were reached
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

// Double terms to a double chain (integer SSIM's sum): every test above
// for them.
TEST(ChainSum, DoubleTermStepsAreTheChainsAdditions) {
  std::mt19937 rng(17);
  const std::vector<double> terms = wide_doubles(4000, 18);
  unsigned applied = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const double s = std::ldexp(1.0 + static_cast<double>(rng() % 100000) / 100000.0,
                                static_cast<int>(rng() % 80) - 40);
    const double t = terms[i];
    double walked = s;
    Step steps[chain::kCandidates] = {};
    steps[chain::kBelow] = chain::term_step<double, double>(t, chain::ulp_exponent(s));
    if (chain::try_step(walked, steps, chain::ulp_exponent(s))) {
      EXPECT_EQ(bits(walked), bits(s + t)) << s << " + " << t;
      ++applied;
    } else {  // only where the sum leaves the binade
      EXPECT_GE(chain::ulp_exponent(s + t), chain::ulp_exponent(s)) << s << " + " << t;
    }
  }
  EXPECT_GE(applied, 1000U);
}

TEST(ChainSum, DoubleTerms) {
  // Half-way cases: 1 + 2^-53 is half-way between 1 and its successor.
  std::vector<double> half = {1.0};
  for (int i = 0; i < 5000; ++i) {
    half.push_back(std::ldexp(1.0, -53));
    if (i % 3 == 0) half.push_back(std::ldexp(1.0, -52));
    if (i % 7 == 0) half.push_back(std::ldexp(3.0, -54));
  }
  expect_exact<double, double>(half, "half-way double terms");
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{4097}, std::size_t{13001}}) {
    expect_exact<double, double>(wide_doubles(n, static_cast<std::uint32_t>(n + 2)),
                                 "wide double terms");
  }
  // More chunks than one batch of the walk, and several chains.
  const std::size_t n = std::size_t{chain::kChunk} * chain::kWalkBatch + 3 * chain::kChunk + 5;
  expect_exact<double, double>(ssim_like_terms(n, 19, 0.5), "SSIM-like terms, half zeros");
  expect_exact<double, double>(
      {ssim_like_terms(20000, 20, 0.0), wide_doubles(5000, 21), {}, ssim_like_terms(9000, 22, 0.9)},
      "four chains of double terms");
}

TEST(ChainSum, LongChainsOfSimilarDoubleTerms) {
  // Like a 320x375 picture's W * ssim terms: the chain's order matters
  // (backwards gives other bits), and the walk's detours are few (the walk
  // reads a detailed chunk's double terms in two pieces).
  const std::vector<double> t = ssim_like_terms(120000, 23, 0.0);
  const std::vector<double> backwards(t.rbegin(), t.rend());
  EXPECT_NE(bits(sequential<double>(t)), bits(sequential<double>(backwards)));
  expect_exact<double, double>(t, "SSIM-like terms");
  chain_on_host::WalkCounts counts;
  (void)kernel_sums<double, double>({t}, nullptr, &counts);
  std::printf(
      "double chain of %zu double terms: %u chunks, %u added in detail, %u runs term by "
      "term\n",
      t.size(), counts.chunks, counts.detailed_chunks, counts.term_runs);
  // In the first chunk the sum doubles every few runs (from the first
  // term's binade to 64 runs' worth): each doubling a run term by term.
  EXPECT_LE(counts.detailed_chunks, 12U);
  EXPECT_LE(counts.term_runs, counts.detailed_chunks + 8);
  expect_exact<double, double>(std::vector<double>(100000, 0.1), "equal double terms");
}

TEST(ChainSum, DoubleZerosSubnormalsAndOddTerms) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> subnormal(9000, std::numeric_limits<double>::denorm_min());
  subnormal[4000] = std::ldexp(1.0, -1022);
  subnormal[7000] = std::ldexp(1.0, -1000);
  expect_exact<double, double>(subnormal, "subnormal double terms");
  expect_exact<double, double>(std::vector<double>(5000, 0.0), "zeros");
  expect_exact<double, double>(std::vector<double>(5000, -0.0), "negative zeros");
  std::vector<double> odd = ssim_like_terms(10000, 24, 0.2);
  odd[0] = -3.5;  // the sum starts below 0: added term by term until it is not
  odd[100] = -65536.0 * 0.75;
  odd[5000] = -1e6;
  for (std::size_t i = 6000; i < 6300; ++i) odd[i] = -odd[i];  // a stretch of negative terms
  expect_exact<double, double>(odd, "negative double terms");
  std::vector<double> big(10000, 1e305);  // the chain overflows to infinity
  expect_exact<double, double>(big, "overflow");
  std::vector<double> with_inf = ssim_like_terms(9000, 25, 0.0);
  with_inf[6000] = inf;
  expect_exact<double, double>(with_inf, "an infinite double term");
  std::vector<double> with_nan = ssim_like_terms(9000, 26, 0.0);
  with_nan[100] = nan;
  expect_exact<double, double>(with_nan, "a NaN double term");
}

TEST(ChainSum, WrongEstimatesChangeNothingForDoubleTerms) {
  const std::vector<double> t = ssim_like_terms(20000, 27, 0.1);
  for (const int e : {-1074, -20, 0, 5, 40}) {
    expect_exact<double, double>({t}, "estimate 2^" + std::to_string(e), &e);
  }
}

}  // namespace
}  // namespace vqx

// The exact result of a sequential floating-point sum, computed in pieces.
//
// libvmaf adds some per-sample values in one chain, s = s + t_i from the
// first sample to the last (psnr_hvs: float terms to a float; ciede: float
// differences to a double; integer SSIM: double terms to a double). Such
// a chain rounds at every step, and its result depends on the order;
// reproducing it with a parallel reduction would change it. This header
// gives the chain's exact result from pieces that can be computed
// independently (docs/gpu.md, "Chains of additions"):
//
//  * While the running sum s stays in one binade (one power-of-two range,
//    or the range of the subnormals and the smallest normals), it is a
//    multiple q of the binade's ulp u, q < 2^P (P the precision: 24 or 53),
//    and s + t rounds to (q + round_u(t)) u: t rounded to a multiple of u,
//    half-way cases to the even q. So one step is q -> q + c, with c
//    depending only on t, u and the parity of q (in a half-way case).
//  * A run of terms is then a function q -> q + C(parity of q): a Step,
//    two integers. Steps compose exactly (compose()), in any grouping, so
//    the Step of a run of terms can be formed by any reduction tree.
//  * A Step applied to s is valid when q + C < 2^P: every partial sum
//    stayed in the binade. Otherwise (the run crosses into the next binade)
//    the run's terms are added one by one, as the chain does.
// A run's Step depends on the binade it starts in; chain_sum.cuh forms the
// Steps of each run for a few binades near an estimate, and the walk along
// the runs uses one where it applies, else the terms. The result is the
// chain's in every case, for any terms (negative, infinite and NaN terms,
// and sums that leave the non-negative finite range, are added one by one).
//
// Plain constexpr functions: host and device code alike (docs/gpu.md,
// "Every number once"); integer arithmetic and bit patterns only.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace vqx::chain {

// The accumulator's format: float or double.
template <typename Acc>
struct Format;
template <>
struct Format<float> {
  using Bits = std::uint32_t;
  static constexpr int kPrecision = 24;         // significand bits
  static constexpr int kMinUlpExponent = -149;  // the subnormals' ulp, 2^-149
  static constexpr int kExponentBits = 8;
};
template <>
struct Format<double> {
  using Bits = std::uint64_t;
  static constexpr int kPrecision = 53;
  static constexpr int kMinUlpExponent = -1074;
  static constexpr int kExponentBits = 11;
};

// A run of terms as a function of the running sum's ulp count q in one
// binade: q -> q + (q even ? even : odd). A value of cap<Acc>() or more
// means "leaves the binade" (saturated). U holds the counts: Step (64 bits)
// is what the kernels store and the walk applies; a float chain's runs are
// formed in 32 bits (RunStep<float>), which hold all of its counts: one
// GPU instruction where a 64-bit count takes two.
template <typename U>
struct StepOf {
  U even;
  U odd;
};
using Step = StepOf<std::uint64_t>;

template <typename Acc>
[[nodiscard]] constexpr std::uint64_t cap() {
  return std::uint64_t{1} << Format<Acc>::kPrecision;
}

// The narrowest unsigned type that holds every count of Acc's chains and
// the sum of two (up to 2 cap): what a run's Step is formed in.
template <typename Acc>
using RunCount = std::conditional_t<(Format<Acc>::kPrecision < 31), std::uint32_t, std::uint64_t>;
template <typename Acc>
using RunStep = StepOf<RunCount<Acc>>;

// A Step formed in narrower counts, as the kernels store it.
template <typename U>
[[nodiscard]] constexpr Step widened(const StepOf<U>& s) {
  return {std::uint64_t{s.even}, std::uint64_t{s.odd}};
}

// q's increment by the run `a` then the run `b`, for q of parity `parity`
// whose increment by `a` is `first`; saturated at cap. (A saturated first,
// cap, leaves the total at cap or more: no test of its own.)
template <typename Acc, typename U>
[[nodiscard]] constexpr U then_step(U first, U parity, const StepOf<U>& b) {
  constexpr auto kCap = static_cast<U>(cap<Acc>());
  const U second = ((parity ^ (first & 1U)) == 0U) ? b.even : b.odd;
  const U total = first + second;
  return total >= kCap ? kCap : total;
}

// The run `a` followed by the run `b`: exact integer composition, saturated
// at cap (each operand is at most cap, so no sum overflows U).
template <typename Acc, typename U>
[[nodiscard]] constexpr StepOf<U> compose(const StepOf<U>& a, const StepOf<U>& b) {
  static_assert(sizeof(U) >= sizeof(RunCount<Acc>), "U holds twice the cap");
  return {then_step<Acc>(a.even, U{0}, b), then_step<Acc>(a.odd, U{1}, b)};
}

// Whether s is a non-negative finite value (+0 included): the walk's Steps
// apply only to those.
template <typename Acc>
[[nodiscard]] constexpr bool walkable(Acc s) {
  using F = Format<Acc>;
  const auto b = std::bit_cast<typename F::Bits>(s);
  constexpr int kFieldShift = F::kPrecision - 1;
  constexpr auto kField = (typename F::Bits{1} << F::kExponentBits) - 1U;
  const bool negative = (b >> (kFieldShift + F::kExponentBits)) != 0U;
  return !negative && ((b >> kFieldShift) & kField) != kField;
}

// The exponent of the ulp of the binade s lies in (s walkable): s is a
// multiple of 2^ulp_exponent(s), below 2^(ulp_exponent(s) + P).
template <typename Acc>
[[nodiscard]] constexpr int ulp_exponent(Acc s) {
  using F = Format<Acc>;
  const auto b = std::bit_cast<typename F::Bits>(s);
  constexpr auto kField = (typename F::Bits{1} << F::kExponentBits) - 1U;
  const auto field = static_cast<int>((b >> (F::kPrecision - 1)) & kField);
  return F::kMinUlpExponent + (field == 0 ? 0 : field - 1);
}

// s as its ulp count q in its binade (s walkable).
template <typename Acc>
[[nodiscard]] constexpr std::uint64_t ulps(Acc s) {
  using F = Format<Acc>;
  const auto b = static_cast<std::uint64_t>(std::bit_cast<typename F::Bits>(s));
  const auto field = static_cast<std::uint64_t>(ulp_exponent(s) - F::kMinUlpExponent);
  return b - (field << (F::kPrecision - 1));
}

// The value q * 2^ulp_exp, for q below cap and, above the lowest binade, at
// least cap / 2 (what ulps() gives and valid Steps keep).
template <typename Acc>
[[nodiscard]] constexpr Acc from_ulps(std::uint64_t q, int ulp_exp) {
  using F = Format<Acc>;
  const auto field = static_cast<std::uint64_t>(ulp_exp - F::kMinUlpExponent);
  return std::bit_cast<Acc>(static_cast<typename F::Bits>((field << (F::kPrecision - 1)) + q));
}

// One term's Step in the binade whose ulp is 2^ulp_exp: t (a float or a
// double) rounded to a multiple of the ulp, half-way cases to the even
// total. Negative, infinite and NaN terms (and terms of a binade's size)
// saturate, so that their run is added term by term. -0 and +0 leave the
// sum as it is. A double term goes only to a double chain (add()). Counts
// in U: Step's 64 bits, or RunCount<Acc> (the GPU's run Steps). The early
// returns stay: forming every case and choosing took more instructions a
// term on the GPU (docs/gpu.md, "Instructions a frame, third round").
template <typename Acc, typename Term, typename U = std::uint64_t>
[[nodiscard]] constexpr StepOf<U> term_step(Term t, int ulp_exp) {
  static_assert(sizeof(Term) <= sizeof(Acc), "a chain's terms are at most as wide as its sum");
  static_assert(sizeof(U) >= sizeof(RunCount<Acc>), "U holds the chain's counts");
  using T = Format<Term>;
  using Bits = typename T::Bits;
  constexpr auto kCap = static_cast<U>(cap<Acc>());
  constexpr int kFractionBits = T::kPrecision - 1;  // where the exponent field starts
  constexpr Bits kField = (Bits{1} << T::kExponentBits) - 1U;
  constexpr int kSignShift = kFractionBits + T::kExponentBits;
  const auto b = std::bit_cast<Bits>(t);
  const auto field = static_cast<int>((b >> kFractionBits) & kField);
  if ((b & ((Bits{1} << kSignShift) - 1U)) == 0U) return {0U, 0U};
  if ((b >> kSignShift) != 0U || field == static_cast<int>(kField)) return {kCap, kCap};
  constexpr Bits kFraction = (Bits{1} << kFractionBits) - 1U;
  // t = m * 2^k, m below 2^P of the term's format.
  const Bits m = (b & kFraction) | (field == 0 ? 0U : (Bits{1} << kFractionBits));
  const int k = T::kMinUlpExponent + (field == 0 ? 0 : field - 1);
  // d: how many of m's low bits lie below the ulp.
  const int d = ulp_exp - k;
  if (d <= 0) {
    const int up = -d;
    const U c = up < Format<Acc>::kPrecision && m < (kCap >> up) ? static_cast<U>(m) << up : kCap;
    return {c, c};
  }
  // m's part above the ulp and the rest, in the term's width. Past P bits
  // below the ulp, t < ulp / 2 rounds away entirely: whole is 0 and rest
  // (m) below half, as they are at P + 1.
  const int below = d < T::kPrecision + 1 ? d : T::kPrecision + 1;
  const Bits rest = m & ((Bits{1} << below) - 1U);
  const Bits half = Bits{1} << (below - 1);
  const auto whole = static_cast<U>(m >> below);
  const U above = rest > half ? 1U : 0U;
  // Half-way: the total q + c must be even.
  const U odd_whole = whole & 1U;
  const bool tie = rest == half;
  return {whole + (tie ? odd_whole : above), whole + (tie ? (odd_whole ^ 1U) : above)};
}

// The chain's own step, s + t in the accumulator's precision: what the walk
// does where no Step applies, and what the CPU twins do (a float term to a
// double chain is converted exactly first).
template <typename Acc, typename Term>
[[nodiscard]] constexpr Acc add(Acc s, Term t) {
  static_assert(sizeof(Term) <= sizeof(Acc), "a chain's terms are at most as wide as its sum");
  return s + static_cast<Acc>(t);
}

// Binades a run's Steps are formed for: the estimate's and kBelow below to
// kCandidates - kBelow - 1 above (a chain of n terms can fall short of the
// exact sum by a factor 1 - n 2^-P at most: two binades below covers n up
// to 2^(P-1) terms; the walk adds the terms where none applies).
inline constexpr int kCandidates = 4;
inline constexpr int kBelow = 2;

// Applies the Step of the candidate binade that s lies in, if there is one
// and the run stays in it: steps[i] is the run's Step for the ulp exponent
// estimate - kBelow + i. Returns whether it did.
template <typename Acc>
[[nodiscard]] constexpr bool try_step(Acc& s, const Step* steps, int estimate) {
  if (!walkable(s)) return false;
  const int e = ulp_exponent(s);
  const int i = e - estimate + kBelow;
  if (i < 0 || i >= kCandidates) return false;
  const std::uint64_t q = ulps(s);
  const std::uint64_t c = (q & 1U) != 0U ? steps[i].odd : steps[i].even;
  if (q + c >= cap<Acc>()) return false;
  s = from_ulps<Acc>(q + c, e);
  return true;
}

// The ulp exponent of the binade of an estimate of the running sum (any
// value; a NaN or negative estimate just makes no candidate apply).
template <typename Acc>
[[nodiscard]] constexpr int estimate_exponent(double estimate) {
  const Acc s = static_cast<Acc>(estimate < 0.0 ? 0.0 : estimate);
  return walkable(s) ? ulp_exponent(s) : Format<Acc>::kMinUlpExponent;
}

}  // namespace vqx::chain

// compute_differences() (batch.hpp) written with Highway's portable vectors,
// for each of its targets (HWY_DYNAMIC_DISPATCH picks one per batch).
//
// The stages are delta_e_steps.hpp's, in its order, and each step here is
// the IEEE operation steps:: does on the same value in the same type (float
// in half a vector: as many floats as a vector has doubles, so that
// PromoteTo and DemoteTo are its casts), so every target gives the scalar
// definition's bits; the unit test checks that for every target the CPU
// runs (CiedeBatch.DifferencesEqualTheScalarDefinition). Conditions that
// steps:: evaluates in double on a float's value are evaluated on the float
// where that is the same test (kPiFloatBelow), so that a mask and the values
// it selects have lanes of one size.
//
// Why vectors by hand: each pair's arithmetic is a few long chains of
// dependent double operations (the elementary functions' polynomials), and
// the compiler's vectorised loops ran them one vector after another, so
// their latency, not the machine's arithmetic, bounded them
// (docs/performance.md). Here every step is applied to kSide vectors side by
// side (Many<V>), so that the chains of kSide vectors of pairs advance
// together.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ciede/batch_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (foreach_target.h includes this file once per target, then once more.)
#include <hwy/highway.h>

#include <cstdint>

#include "core/many_vectors-inl.h"

#include "metrics/ciede/batch.hpp"
#include "metrics/ciede/blend.hpp"
#include "metrics/ciede/delta_e_steps.hpp"
#include "metrics/ciede/elementary.hpp"
#include "metrics/ciede/params.hpp"

#ifndef VQX_CIEDE_BATCH_SIMD_ONCE
#define VQX_CIEDE_BATCH_SIMD_ONCE
namespace vqx::ciede {
// The largest float not above pi. For a float x, (double)x <= pi exactly
// when x <= kPiFloatBelow, and (double)x > pi exactly when x >
// kPiFloatBelow: no float lies between it and pi's next float up.
inline constexpr float kPiFloatBelow =
    static_cast<double>(static_cast<float>(steps::kPi)) > steps::kPi
        ? bits_as<float>(bits_as<std::uint32_t>(static_cast<float>(steps::kPi)) - 1U)
        : static_cast<float>(steps::kPi);
static_assert(static_cast<double>(kPiFloatBelow) < steps::kPi &&
              static_cast<double>(bits_as<float>(bits_as<std::uint32_t>(kPiFloatBelow) + 1U)) >
                  steps::kPi);
}  // namespace vqx::ciede
#endif

HWY_BEFORE_NAMESPACE();
namespace vqx::ciede::HWY_NAMESPACE {

#if HWY_HAVE_FLOAT64
namespace hn = hwy::HWY_NAMESPACE;
namespace el = elementary;

using DD = hn::ScalableTag<double>;
using DF = hn::Rebind<float, DD>;  // as many floats as DD has doubles
using DI = hn::RebindToSigned<DD>;
using VD = hn::Vec<DD>;
using VF = hn::Vec<DF>;
using VI = hn::Vec<DI>;

// Vectors of pairs side by side: with eight the hue angles took about 30 %
// less time than with one, and the stages together about 25 % less than
// the compiler's loops (AVX2, a stand-alone loop on Zen 5:
// docs/performance.md).
constexpr int kSide = 8;

namespace many = vqx::HWY_NAMESPACE::many;
using namespace many;  // Map, Select, Less, ... and the operators
template <class V>
using Many = many::Many<V, kSide>;
template <class V>
HWY_INLINE Many<V> Splat(hn::TFromV<V> x) {
  return many::Splat<V, kSide>(x);
}

using D = Many<VD>;
using F = Many<VF>;

// static_cast<double>(float) and static_cast<float>(double): exact, and
// rounded to nearest (no value here is beyond float's range).
HWY_INLINE D Wide(const F& f) {
  return Map([](VF x) { return hn::PromoteTo(DD(), x); }, f);
}
HWY_INLINE F Narrow(const D& d) {
  return Map([](VD x) { return hn::DemoteTo(DF(), x); }, d);
}

constexpr std::size_t kLanes = HWY_LANES(double);
constexpr int kGroup = kSide * static_cast<int>(kLanes);  // pairs per step
static_assert(PairBatch::kCapacity % kGroup == 0,
              "the stages run over whole groups, so the arrays hold a whole number of them");

HWY_INLINE F LoadF(const float* p) { return Load<DF, kSide>(DF(), p); }
HWY_INLINE D LoadD(const double* p) { return Load<DD, kSide>(DD(), p); }
HWY_INLINE void Store(const F& f, float* p) { many::Store(f, DF(), p); }
HWY_INLINE void Store(const D& d, double* p) { many::Store(d, DD(), p); }

// --- elementary.hpp's functions ------------------------------------------

template <std::size_t N>
HWY_INLINE D Horner(const D& z, const std::array<double, N>& c) {
  D p = Splat<VD>(c[N - 1]);
  for (std::size_t i = N - 1; i-- > 0;) p = c[i] + z * p;
  return p;
}

// round_to_integer(x) and, from the same sum, the integer it is: the sum's
// low bits hold it (two's complement) under the shift's.
struct Rounded {
  D value;
  Many<VI> integer;
};
HWY_INLINE Rounded RoundToInteger(const D& x) {
  const D shifted = x + el::kRoundShift;
  const VI shift_bits = hn::Set(DI(), bits_as<std::int64_t>(el::kRoundShift));
  return {shifted - el::kRoundShift,
          Map([shift_bits](VD s) { return hn::Sub(hn::BitCast(DI(), s), shift_bits); }, shifted)};
}

template <std::size_t Terms>
HWY_INLINE D SinSeries(const D& r) {
  constexpr std::array<double, Terms> kC = el::sin_series_coefficients<Terms>();
  const D z = r * r;
  return r + r * z * Horner(z, kC);
}

HWY_INLINE D CosNearZero(const D& r) {
  const D z = r * r;
  return 1.0 + z * Horner(z, el::cos_series_coefficients());
}

struct SinCos {
  D sin;
  D cos;
};
HWY_INLINE SinCos SinCosOf(const D& x) {
  const Rounded n = RoundToInteger(x * el::kTwoOverPi);
  const D r = ((x - n.value * el::kHalfPi1) - n.value * el::kHalfPi2) - n.value * el::kHalfPi3;
  const D s = SinSeries<8>(r);
  const D c = CosNearZero(r);
  // The quadrant n mod 4 (elementary::sincos).
  const VI one = hn::Set(DI(), 1);
  const auto bit = [one](VI q) { return hn::RebindMask(DD(), hn::Eq(hn::And(q, one), one)); };
  const auto odd = Map(bit, n.integer);
  const auto sin_negative = Map([bit](VI q) { return bit(hn::ShiftRight<1>(q)); }, n.integer);
  const auto cos_negative =
      Map([bit, one](VI q) { return bit(hn::ShiftRight<1>(hn::Add(q, one))); }, n.integer);
  const D vs = Select(odd, c, s);
  const D vc = Select(odd, s, c);
  return {Select(sin_negative, Neg(vs), vs), Select(cos_negative, Neg(vc), vc)};
}

// atan2(y, x) (elementary::atan2 and atan_ratio).
HWY_INLINE D Atan2(const D& y, const D& x) {
  const D zero = Splat<VD>(0.0);
  // |x| and |y|: where elementary::atan2's pick(x < 0, -x, x) keeps -0.0,
  // this gives +0.0, which changes no later step's result (both compare
  // equal to 0, and a zero num meets c = 0, from which a = +0.0 either way).
  const D ax = Abs(x);
  const D ay = Abs(y);
  const auto steep = Less(ax, ay);
  const D num = Select(steep, ax, ay);
  const D den0 = Select(steep, ay, ax);
  const D den = Select(Equal(den0, 0.0), Splat<VD>(1.0), den0);
  const auto low = Less(num, el::kAtanLowEnd * den);
  const auto mid = Less(num, el::kAtanMidEnd * den);
  const D c = Select(low, zero, Select(mid, Splat<VD>(el::kAtanMidC), Splat<VD>(el::kAtanHighC)));
  const D base = Select(low, zero, Select(mid, Splat<VD>(el::kAtan7_16), Splat<VD>(el::kAtan7_8)));
  const D u = (num - c * den) / (den + c * num);
  const D z = u * u;
  const D p = Horner(z, el::atan_series_coefficients());
  D a = base + (u + u * z * p);
  a = Select(steep, el::kHalfPi - a, a);
  a = Select(Less(x, 0.0), el::kPi - a, a);
  // pick(y's sign bit, -a, a): a is +0.0 or positive here, so this is y's
  // sign bit on a.
  return Map([](VD v, VD s) { return hn::CopySign(v, s); }, a, y);
}

HWY_INLINE D Exp(const D& x) {
  const Rounded k = RoundToInteger(x * el::kInvLn2);
  const D r = (x - k.value * el::kLn2Hi) - k.value * el::kLn2Lo;
  const D p = Horner(r, el::exp_series_coefficients());
  const VI bias = hn::Set(DI(), el::kExponentBias);
  const D scale = Map(
      [bias](VI i) { return hn::BitCast(DD(), hn::ShiftLeft<52>(hn::Add(i, bias))); }, k.integer);
  return p * scale;
}

HWY_INLINE D Power7(const D& x) {
  const D x2 = x * x;
  return (x2 * x2) * (x2 * x);
}

// --- delta_e_steps.hpp's steps ---------------------------------------------

HWY_INLINE F Chroma(const F& a, const F& b) {
  const D wa = Wide(a);
  const D wb = Wide(b);
  return Narrow(Sqrt(wa * wa + wb * wb));
}

HWY_INLINE D APrime(const F& a, const D& g) { return Wide(a) + Wide(a / 2.0f) * g; }

HWY_INLINE D SinWithinHalfPi(const D& x) { return SinSeries<10>(x); }

// --- the stages (batch.cpp's loops before) ---------------------------------

void WeightStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  const F c1 = Chroma(LoadF(p.a1 + i), LoadF(p.b1 + i));
  const F c2 = Chroma(LoadF(p.a2 + i), LoadF(p.b2 + i));
  Store(c1, w.chroma1 + i);
  Store(c2, w.chroma2 + i);
  // a_weight
  constexpr double kPivot7 = el::power7(kChromaPivot);
  const D c7 = Power7(Wide((c1 + c2) / 2.0f));
  Store(1.0 - Sqrt(c7 / (c7 + kPivot7)), w.g + i);
}

void ChromaStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  const D g = LoadD(w.g + i);
  const F b1 = LoadF(p.b1 + i);
  const F b2 = LoadF(p.b2 + i);
  const F a1p = Narrow(APrime(LoadF(p.a1 + i), g));
  const F a2p = Narrow(APrime(LoadF(p.a2 + i), g));
  const F c1p = Chroma(a1p, b1);
  const F c2p = Chroma(a2p, b2);
  Store(a1p, w.a1p + i);
  Store(a2p, w.a2p + i);
  Store((c1p + c2p) / 2.0f, w.mean_cp + i);
  Store(c2p - c1p, w.delta_cp + i);
  Store(Sqrt(Wide(c1p * c2p)), w.root_cp + i);
}

void RotationRatioStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  const F c7 = Narrow(Power7(Wide(LoadF(w.mean_cp + i))));
  constexpr float kPivot7 = el::power7f(static_cast<float>(kChromaPivot));
  Store(Sqrt(Wide(c7 / (c7 + kPivot7))), w.root_ratio + i);
}

// steps::hue_angle
HWY_INLINE F HueAngle(const F& b, const F& a_prime) {
  const F h = Narrow(Atan2(Wide(b), Wide(a_prime)));
  const F wrapped = Narrow(Wide(h) + steps::kTwoPi);
  const auto achromatic = And(Equal(b, 0.0f), Equal(a_prime, 0.0f));
  return Select(achromatic, Splat<VF>(0.0f), Select(Less(h, 0.0f), wrapped, h));
}

void HueAngleStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  Store(HueAngle(LoadF(p.b1 + i), LoadF(w.a1p + i)), w.h1 + i);
  Store(HueAngle(LoadF(p.b2 + i), LoadF(w.a2p + i)), w.h2 + i);
}

void DeltaHueStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  const F h1 = LoadF(w.h1 + i);
  const F h2 = LoadF(w.h2 + i);
  // steps::delta_big_hue
  const F d = h2 - h1;
  const F d_plus = Narrow(Wide(d) + steps::kTwoPi);
  const F d_minus = Narrow(Wide(d) - steps::kTwoPi);
  const auto within =
      Map([](VF x) { return hn::Le(x, hn::Set(DF(), kPiFloatBelow)); }, Abs(d));  // |d| <= pi
  const auto h2_not_above = Map([](VF x, VF y) { return hn::Le(x, y); }, h2, h1);
  const F folded = Select(within, d, Select(h2_not_above, d_plus, d_minus));
  const auto grey = Or(Equal(LoadF(w.chroma1 + i), 0.0f), Equal(LoadF(w.chroma2 + i), 0.0f));
  const F dh = Select(grey, Splat<VF>(0.0f), folded);
  const D root_cp = LoadD(w.root_cp + i);
  Store(Narrow((2.0 * root_cp) * SinWithinHalfPi(Wide(dh) / 2.0)), w.delta_big_h + i);
  // steps::mean_hue
  const F hsum = h1 + h2;
  const F far = Narrow((Wide(hsum) + steps::kTwoPi) / 2.0);
  const F near = Narrow(Wide(hsum) / 2.0);
  const auto apart =
      Map([](VF x) { return hn::Gt(x, hn::Set(DF(), kPiFloatBelow)); }, Abs(h1 - h2));  // > pi
  Store(Select(apart, far, near), w.mean_h + i);
}

void RotationStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  const F mean_h = LoadF(w.mean_h + i);
  // steps::rotation_exponent
  const F degrees = Narrow(Wide(mean_h) * (180.0 / steps::kPi));
  const F offset = Narrow((Wide(degrees) - kRtHueCentreDeg) * (1.0 / kRtHueWidthDeg));
  const D exponent = Wide(Neg(offset * offset));
  // steps::rotation_term
  const D angle_deg = kRtMaxDeg * Exp(exponent);
  const F angle = Narrow(Wide(Narrow(angle_deg)) * (steps::kPi / 180.0));
  const D root_ratio = LoadD(w.root_ratio + i);
  Store(Narrow((-2.0 * root_ratio) * SinWithinHalfPi(Wide(angle))), w.r_t + i);
}

void WeightingStage(PairBatch& p, int i) {
  PairBatch::Work& w = p.work;
  // steps::hue_weighting
  constexpr el::SinCos kPhase1 = el::sincos(kT1Phase);
  constexpr el::SinCos kPhase3 = el::sincos(kT3Phase);
  constexpr el::SinCos kPhase4 = el::sincos(kT4Phase);
  const SinCos h = SinCosOf(Wide(LoadF(w.mean_h + i)));
  const D cos2 = h.cos * h.cos - h.sin * h.sin;
  const D sin2 = 2.0 * h.sin * h.cos;
  const D cos3 = cos2 * h.cos - sin2 * h.sin;
  const D sin3 = sin2 * h.cos + cos2 * h.sin;
  const D cos4 = cos2 * cos2 - sin2 * sin2;
  const D sin4 = 2.0 * sin2 * cos2;
  const D term1 = h.cos * kPhase1.cos + h.sin * kPhase1.sin;
  const D term3 = cos3 * kPhase3.cos - sin3 * kPhase3.sin;
  const D term4 = cos4 * kPhase4.cos + sin4 * kPhase4.sin;
  Store(Narrow(1.0 - kT1 * term1 + kT2 * cos2 + kT3 * term3 - kT4 * term4), w.t + i);
}

void ResultStage(PairBatch& p, int i) {
  const PairBatch::Work& w = p.work;
  // steps::combine
  const F l1 = LoadF(p.l1 + i);
  const F l2 = LoadF(p.l2 + i);
  const F mean_cp = LoadF(w.mean_cp + i);
  const F delta_cp = LoadF(w.delta_cp + i);
  const F t = LoadF(w.t + i);
  const F delta_l = l2 - l1;
  const F mean_l = (l1 + l2) / 2.0f;
  const D l50 = Wide(mean_l - static_cast<float>(kLightnessMid));
  const F s_l = Narrow(1.0 + (kSlWeight * (l50 * l50)) / Sqrt(kSlOffset + l50 * l50));
  const F s_c = Narrow(1.0 + kScWeight * Wide(mean_cp));
  const F s_h = Narrow(1.0 + kShWeight * Wide(mean_cp) * Wide(t));
  const F lightness = delta_l / (kWeightL * s_l);
  const F chroma_term = delta_cp / (kWeightC * s_c);
  const F hue = LoadF(w.delta_big_h + i) / (kWeightH * s_h);
  const D wl = Wide(lightness);
  const D wc = Wide(chroma_term);
  const D wh = Wide(hue);
  const D rotation = Wide(LoadF(w.r_t + i) * chroma_term * hue);
  Store(Narrow(Sqrt(wl * wl + wc * wc + wh * wh + rotation)), p.difference + i);
}

// Each stage over every group of pairs up to count, rounded up to a whole
// group: the lanes past count compute from what the arrays hold there
// (finite values: zeros or an earlier batch's) and are not read.
template <class Stage>
HWY_INLINE void Over(PairBatch& p, const Stage& stage) {
  for (int i = 0; i < p.count; i += kGroup) stage(p, i);
}

void ComputeDifferences(PairBatch& p) {
  Over(p, WeightStage);
  Over(p, ChromaStage);
  Over(p, RotationRatioStage);
  Over(p, HueAngleStage);
  Over(p, DeltaHueStage);
  Over(p, RotationStage);
  Over(p, WeightingStage);
  Over(p, ResultStage);
}

#else  // a target without double vectors: the definition pair by pair

void ComputeDifferences(PairBatch& p) {
  for (int i = 0; i < p.count; ++i) {
    p.difference[i] = steps::ciede2000({p.l1[i], p.a1[i], p.b1[i]}, {p.l2[i], p.a2[i], p.b2[i]});
  }
}

#endif  // HWY_HAVE_FLOAT64

}  // namespace vqx::ciede::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::ciede {

HWY_EXPORT(ComputeDifferences);

void compute_differences(PairBatch& batch) { HWY_DYNAMIC_DISPATCH(ComputeDifferences)(batch); }

}  // namespace vqx::ciede
#endif

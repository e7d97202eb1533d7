// ADM's decoupling with explicit SIMD (Highway, compiled for each of its
// targets, chosen once per row): the same steps as reference::decouple_row
// (decouple.cpp), whose comments give the reasons for each, on whole vectors
// of columns; the last vector of a row ends at the row's end (recomputing a
// few columns, same values). Rows narrower than a vector and the scalar
// target run the reference itself.
//
// Scale 0 works in 32-bit lanes (int16_t bands widened), with the division and
// the angle comparison in double. Scales 1..3 compute the ratio and the
// restored coefficient in double; their angle test rounds int64 dot products to
// float, which AVX2 has no instruction for: in double where the products are
// exact, else with the reference's scalar code.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/decouple_simd.cpp"
#include <array>
#include <cstdint>

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "metrics/adm/decouple.hpp"
#include "metrics/adm/params.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::adm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR

using D32 = hn::ScalableTag<std::int32_t>;
using DH32 = hn::Half<D32>;              // half a vector of int32_t
using DD = hn::Rebind<double, DH32>;     // as many doubles
using DF = hn::Repartition<float, D32>;  // as many floats as int32_t
using DHF = hn::Half<DF>;                // half of them
using V32 = hn::Vec<D32>;
using VD = hn::Vec<DD>;
using M32 = hn::Mask<D32>;

constexpr double kQ30 = kRecipNumerator;     // 2^30
constexpr double kInvOne = 1.0 / kRatioOne;  // 2^-15

HWY_INLINE VD lower_d(V32 v) { return hn::PromoteTo(DD(), hn::LowerHalf(DH32(), v)); }
HWY_INLINE VD upper_d(V32 v) { return hn::PromoteTo(DD(), hn::UpperHalf(DH32(), v)); }
HWY_INLINE V32 join(hn::Vec<DH32> lo, hn::Vec<DH32> hi) { return hn::Combine(D32(), hi, lo); }

// t with the sign of o applied (t * sign(o); o = 0 is handled by the caller).
HWY_INLINE VD signed_t(VD o, VD t) {
  return hn::IfThenElse(hn::Lt(o, hn::Zero(DD())), hn::Neg(t), t);
}

// floor(2^30 / n) for integers n >= 1 held in doubles: the quotient is
// within 2^-23 of the exact one and at least 2^-15 from the next integer
// unless it is one, so truncating it is exact.
HWY_INLINE VD recip_q30(VD n) { return hn::Trunc(hn::Div(hn::Set(DD(), kQ30), n)); }

// Scale 0: k = clamp((recip(|o|) * t * sign(o) + 2^14) >> 15, 0, 2^15), in
// double (exact: |recip * t| < 2^45), truncated while it still fits int32
// (|q| < 2^31; truncating toward zero and clamping at 0 agree). sign(o) *
// recip(|o|) is trunc(2^30 / o): division and truncation are symmetric. o = 0
// divides by 1 instead; its k is set by clamp_ratio.
HWY_INLINE hn::Vec<DH32> ratio0_half(VD o_nonzero, VD t) {
  const DD dd;
  const VD signed_recip = hn::Trunc(hn::Div(hn::Set(dd, kQ30), o_nonzero));
  const VD q = hn::Add(hn::Mul(hn::Mul(signed_recip, t), hn::Set(dd, kInvOne)), hn::Set(dd, 0.5));
  return hn::DemoteTo(DH32(), q);
}

HWY_INLINE V32 clamp_ratio(V32 q, V32 o) {
  const D32 d;
  const V32 one = hn::Set(d, kRatioOne);
  const V32 k = hn::Min(hn::Max(q, hn::Zero(d)), one);
  return hn::IfThenElse(hn::Eq(o, hn::Zero(d)), one, k);
}

HWY_INLINE V32 ratio0(V32 o, V32 t) {
  const D32 d;
  const V32 o_nonzero = hn::IfThenElse(hn::Eq(o, hn::Zero(d)), hn::Set(d, 1), o);
  return clamp_ratio(join(ratio0_half(lower_d(o_nonzero), lower_d(t)),
                          ratio0_half(upper_d(o_nonzero), upper_d(t))),
                     o);
}

// An int32 sum of two 16-bit products as float. The sum is exact except for
// 2^31 (only (-2^15)^2 + (-2^15)^2), which wraps to INT32_MIN; no true sum is
// INT32_MIN, so that lane is negated back.
HWY_INLINE hn::Vec<DF> sum_to_float(V32 s) {
  const DF df;
  const hn::Vec<DF> f = hn::ConvertTo(df, s);
  const M32 wrapped = hn::Eq(s, hn::Set(D32(), INT32_MIN));
  return hn::IfThenElse(hn::RebindMask(df, wrapped), hn::Neg(f), f);
}

// (d/4096)^2 >= cos^2 * (o/4096) * (t/4096) in double, with every factor of
// 4096 left out: they are powers of two, which change no rounding.
HWY_INLINE hn::Vec<DH32> close_half(hn::Vec<DHF> dot, hn::Vec<DHF> o_sq, hn::Vec<DHF> t_sq,
                                    double cos_sq) {
  const DD dd;
  const VD dn = hn::PromoteTo(dd, dot);
  const VD rhs =
      hn::Mul(hn::Mul(hn::Set(dd, cos_sq), hn::PromoteTo(dd, o_sq)), hn::PromoteTo(dd, t_sq));
  const VD flag = hn::IfThenElseZero(hn::Ge(hn::Mul(dn, dn), rhs), hn::Set(dd, 1.0));
  return hn::DemoteTo(DH32(), flag);
}

HWY_INLINE M32 parallel0(V32 oh, V32 ov, V32 th, V32 tv, double cos_sq) {
  const D32 d;
  const DF df;
  const DHF dhf;
  const hn::Vec<DF> dot = sum_to_float(hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv)));
  const hn::Vec<DF> o_sq = sum_to_float(hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov)));
  const hn::Vec<DF> t_sq = sum_to_float(hn::Add(hn::Mul(th, th), hn::Mul(tv, tv)));
  const V32 close = join(close_half(hn::LowerHalf(dhf, dot), hn::LowerHalf(dhf, o_sq),
                                    hn::LowerHalf(dhf, t_sq), cos_sq),
                         close_half(hn::UpperHalf(dhf, dot), hn::UpperHalf(dhf, o_sq),
                                    hn::UpperHalf(dhf, t_sq), cos_sq));
  const M32 same_side = hn::RebindMask(d, hn::Ge(dot, hn::Zero(df)));
  return hn::And(same_side, hn::Ne(close, hn::Zero(d)));
}

// trunc(r * gain) for int32 r, in double (|r * gain| < 2^31 at scale 0).
HWY_INLINE V32 grown0(V32 r, double gain) {
  const DD dd;
  const VD g = hn::Set(dd, gain);
  return join(hn::DemoteTo(DH32(), hn::Mul(lower_d(r), g)),
              hn::DemoteTo(DH32(), hn::Mul(upper_d(r), g)));
}

// r = (k * o + 2^14) >> 15 (exact in int32 at scale 0), grown by the gain
// toward t where the vectors are parallel and k > 0.
HWY_INLINE V32 restore0(V32 k, V32 o, V32 t, M32 par, double gain) {
  const D32 d;
  const V32 r = hn::ShiftRight<kRatioFracBits>(hn::Add(hn::Mul(k, o), hn::Set(d, kRatioHalf)));
  const M32 enhance = hn::And(hn::And(par, hn::Gt(k, hn::Zero(d))), hn::Ne(o, hn::Zero(d)));
  if (hn::AllFalse(d, enhance)) return r;
  const V32 grown = grown0(r, gain);
  const V32 toward = hn::IfThenElse(hn::Gt(o, hn::Zero(d)), hn::Min(grown, t), hn::Max(grown, t));
  return hn::IfThenElse(enhance, toward, r);
}

HWY_INLINE V32 load16(const std::int16_t* p) {
  return hn::PromoteTo(D32(), hn::LoadU(hn::Rebind<std::int16_t, D32>(), p));
}

// Stores the low 16 bits of each lane (static_cast<int16_t>).
HWY_INLINE void store16(V32 v, std::int16_t* p) {
  const hn::RebindToUnsigned<D32> du;
  const hn::Rebind<std::uint16_t, D32> du16;
  hn::StoreU(hn::TruncateTo(du16, hn::BitCast(du, v)), du16, reinterpret_cast<std::uint16_t*>(p));
}

void Decouple0(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis, int begin, int end,
               const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int16_t> restored,
               DetailOut<std::int16_t> additive) {
  const D32 d;
  const int n = static_cast<int>(hn::Lanes(d));
  if (end - begin < n) {
    reference::decouple_row(ref, dis, begin, end, p, scratch, restored, additive);
    return;
  }
  const double cos_sq = p.cos_1deg_sq;
  const double gain = p.enhn_gain_limit;
  // The last vector ends at `end` (recomputing a few columns, same values).
  for (int j = begin;; j += n) {
    const int at = j + n <= end ? j : end - n;
    const V32 oh = load16(ref.h + at), ov = load16(ref.v + at), od = load16(ref.d + at);
    const V32 th = load16(dis.h + at), tv = load16(dis.v + at), td = load16(dis.d + at);
    const M32 par = parallel0(oh, ov, th, tv, cos_sq);
    const V32 rh = restore0(ratio0(oh, th), oh, th, par, gain);
    const V32 rv = restore0(ratio0(ov, tv), ov, tv, par, gain);
    const V32 rd = restore0(ratio0(od, td), od, td, par, gain);
    store16(rh, restored.h + at);
    store16(rv, restored.v + at);
    store16(rd, restored.d + at);
    store16(hn::Sub(th, rh), additive.h + at);
    store16(hn::Sub(tv, rv), additive.v + at);
    store16(hn::Sub(td, rd), additive.d + at);
    if (at + n >= end) break;
  }
}

// Scales 1..3: k with the denominator first rounded to its 15 leading bits
// (drop bits dropped, 2^-drop taken from float exponent bits), as
// reference::decouple_row computes it, in double; clamped in double, where
// the quotient may not fit int32.
struct RatioN {
  V32 k;
  V32 o;
};

HWY_INLINE hn::Vec<DH32> ratio_n_half(VD o, VD t, VD top, VD scale) {
  const DD dd;
  const VD n = hn::Max(top, hn::Set(dd, 1.0));
  VD q = hn::Add(hn::Mul(hn::Mul(recip_q30(n), signed_t(o, t)), scale), hn::Set(dd, 0.5));
  q = hn::Min(hn::Max(q, hn::Zero(dd)), hn::Set(dd, kRatioOne));
  return hn::DemoteTo(DH32(), q);
}

HWY_INLINE V32 ratio_n(V32 o, V32 t) {
  const D32 d;
  const hn::RebindToUnsigned<D32> du;
  const DF df;
  const hn::Vec<decltype(du)> mag = hn::BitCast(du, hn::Abs(o));  // 2^31 for INT32_MIN
  // Bit width of mag from the exponent of (float)(mag >> 8), exact below 2^24.
  const hn::Vec<DF> high = hn::ConvertTo(df, hn::BitCast(d, hn::ShiftRight<8>(mag)));
  const V32 width = hn::Add(hn::ShiftRight<23>(hn::BitCast(d, high)), hn::Set(d, 8 - 126));
  const V32 drop = hn::Max(hn::Sub(width, hn::Set(d, kDivisorBits)), hn::Zero(d));
  const hn::Vec<decltype(du)> udrop = hn::BitCast(du, drop);
  const hn::Vec<decltype(du)> half = hn::ShiftRight<1>(hn::Shl(hn::Set(du, 1u), udrop));
  const V32 top = hn::BitCast(d, hn::Shr(hn::Add(mag, half), udrop));
  // 2^-(15 + drop) as a float, then double.
  const hn::Vec<DF> scale =
      hn::BitCast(df, hn::ShiftLeft<23>(hn::Sub(hn::Set(d, 127 - kRatioFracBits), drop)));
  const DHF dhf;
  const DD dd;
  const V32 q = join(ratio_n_half(lower_d(o), lower_d(t), lower_d(top),
                                  hn::PromoteTo(dd, hn::LowerHalf(dhf, scale))),
                     ratio_n_half(upper_d(o), upper_d(t), upper_d(top),
                                  hn::PromoteTo(dd, hn::UpperHalf(dhf, scale))));
  return clamp_ratio(q, o);
}

// trunc(r * gain) toward t where enhanced, in double (r * gain may exceed
// int32; the result lies between r and t and fits int32).
HWY_INLINE hn::Vec<DH32> grown_n_half(VD r, VD o, VD t, double gain) {
  const DD dd;
  const VD grown = hn::Trunc(hn::Mul(r, hn::Set(dd, gain)));
  const VD toward = hn::IfThenElse(hn::Gt(o, hn::Zero(dd)), hn::Min(grown, t), hn::Max(grown, t));
  return hn::DemoteTo(DH32(), toward);
}

// r = (k * o + 2^14) >> 15 from 64-bit products of the even and odd lanes
// (|k * o| <= 2^46; r fits int32, so the low half of a logical shift is it),
// grown toward t where the vectors are parallel and k > 0.
HWY_INLINE V32 restore_n(V32 k, V32 o, V32 t, V32 par, double gain) {
  const D32 d;
  const hn::Repartition<std::int64_t, D32> d64;
  const hn::Repartition<std::uint64_t, D32> du64;
  const auto half = hn::Set(d64, kRatioHalf);
  const auto even = hn::Add(hn::MulEven(k, o), half);
  const auto odd = hn::Add(hn::MulEven(hn::DupOdd(k), hn::DupOdd(o)), half);
  const auto even_r = hn::ShiftRight<kRatioFracBits>(hn::BitCast(du64, even));
  const auto odd_r = hn::ShiftLeft<32 - kRatioFracBits>(hn::BitCast(du64, odd));
  const V32 r = hn::OddEven(hn::BitCast(d, odd_r), hn::BitCast(d, even_r));
  const M32 enhance =
      hn::And(hn::And(hn::Ne(par, hn::Zero(d)), hn::Gt(k, hn::Zero(d))), hn::Ne(o, hn::Zero(d)));
  if (hn::AllFalse(d, enhance)) return r;
  const V32 grown = join(grown_n_half(lower_d(r), lower_d(o), lower_d(t), gain),
                         grown_n_half(upper_d(r), upper_d(o), upper_d(t), gain));
  return hn::IfThenElse(enhance, grown, r);
}

// The parallel test at scales 1..3 in double where every |coefficient| of the
// vector is below 2^26: the dot products are then exact (below 2^53) and
// rounded to float once, as the reference's int64 ones. Otherwise the
// reference's scalar test, lane by lane.
HWY_INLINE hn::Vec<DH32> parallel_n_half(VD oh, VD ov, VD th, VD tv, double cos_sq) {
  const DD dd;
  const hn::Rebind<float, DD> df;
  const VD dot = hn::PromoteTo(dd, hn::DemoteTo(df, hn::Add(hn::Mul(oh, th), hn::Mul(ov, tv))));
  const VD o_sq = hn::PromoteTo(dd, hn::DemoteTo(df, hn::Add(hn::Mul(oh, oh), hn::Mul(ov, ov))));
  const VD t_sq = hn::PromoteTo(dd, hn::DemoteTo(df, hn::Add(hn::Mul(th, th), hn::Mul(tv, tv))));
  const VD rhs = hn::Mul(hn::Mul(hn::Set(dd, cos_sq), o_sq), t_sq);
  const auto par = hn::And(hn::Ge(dot, hn::Zero(dd)), hn::Ge(hn::Mul(dot, dot), rhs));
  return hn::DemoteTo(DH32(), hn::IfThenElseZero(par, hn::Set(dd, 1.0)));
}

HWY_INLINE V32 parallel_n(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int at, V32 oh,
                          V32 ov, V32 th, V32 tv, double cos_sq) {
  const D32 d;
  const hn::RebindToUnsigned<D32> du;
  const auto mag =
      hn::BitCast(du, hn::Or(hn::Or(hn::Abs(oh), hn::Abs(ov)), hn::Or(hn::Abs(th), hn::Abs(tv))));
  if (hn::AllTrue(du, hn::Lt(mag, hn::Set(du, 1u << 26)))) {
    return join(parallel_n_half(lower_d(oh), lower_d(ov), lower_d(th), lower_d(tv), cos_sq),
                parallel_n_half(upper_d(oh), upper_d(ov), upper_d(th), upper_d(tv), cos_sq));
  }
  alignas(HWY_MAX_BYTES) std::int32_t flags[HWY_MAX_BYTES / sizeof(std::int32_t)];
  const int n = static_cast<int>(hn::Lanes(d));
  for (int l = 0; l < n; ++l) {
    const int j = at + l;
    flags[l] =
        reference::within_one_degree_n(ref.h[j], ref.v[j], dis.h[j], dis.v[j], cos_sq) ? 1 : 0;
  }
  return hn::Load(d, flags);
}

void DecoupleN(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int begin, int end,
               const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int32_t> restored,
               DetailOut<std::int32_t> additive) {
  const D32 d;
  const int n = static_cast<int>(hn::Lanes(d));
  if (end - begin < n) {
    reference::decouple_row(ref, dis, begin, end, p, scratch, restored, additive);
    return;
  }
  const double cos_sq = p.cos_1deg_sq;
  const double gain = p.enhn_gain_limit;
  // The last vector ends at `end` (recomputing a few columns, same values).
  for (int j = begin;; j += n) {
    const int at = j + n <= end ? j : end - n;
    const V32 oh = hn::LoadU(d, ref.h + at), ov = hn::LoadU(d, ref.v + at),
              od = hn::LoadU(d, ref.d + at);
    const V32 th = hn::LoadU(d, dis.h + at), tv = hn::LoadU(d, dis.v + at),
              td = hn::LoadU(d, dis.d + at);
    const V32 par = parallel_n(ref, dis, at, oh, ov, th, tv, cos_sq);
    const V32 rh = restore_n(ratio_n(oh, th), oh, th, par, gain);
    const V32 rv = restore_n(ratio_n(ov, tv), ov, tv, par, gain);
    const V32 rd = restore_n(ratio_n(od, td), od, td, par, gain);
    hn::StoreU(rh, d, restored.h + at);
    hn::StoreU(rv, d, restored.v + at);
    hn::StoreU(rd, d, restored.d + at);
    hn::StoreU(hn::Sub(th, rh), d, additive.h + at);
    hn::StoreU(hn::Sub(tv, rv), d, additive.v + at);
    hn::StoreU(hn::Sub(td, rd), d, additive.d + at);
    if (at + n >= end) break;
  }
}

#else  // HWY_SCALAR: the reference loops are the scalar code.

void Decouple0(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis, int begin, int end,
               const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int16_t> restored,
               DetailOut<std::int16_t> additive) {
  reference::decouple_row(ref, dis, begin, end, p, scratch, restored, additive);
}

void DecoupleN(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int begin, int end,
               const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int32_t> restored,
               DetailOut<std::int32_t> additive) {
  reference::decouple_row(ref, dis, begin, end, p, scratch, restored, additive);
}

#endif

}  // namespace HWY_NAMESPACE
}  // namespace vqx::adm
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::adm {

HWY_EXPORT(Decouple0);
HWY_EXPORT(DecoupleN);

void decouple_row(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis, int begin, int end,
                  const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int16_t> restored,
                  DetailOut<std::int16_t> additive) {
  HWY_DYNAMIC_DISPATCH(Decouple0)(ref, dis, begin, end, p, scratch, restored, additive);
}

void decouple_row(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int begin, int end,
                  const DecoupleParams& p, std::int32_t* scratch, DetailOut<std::int32_t> restored,
                  DetailOut<std::int32_t> additive) {
  HWY_DYNAMIC_DISPATCH(DecoupleN)(ref, dis, begin, end, p, scratch, restored, additive);
}

}  // namespace vqx::adm
#endif

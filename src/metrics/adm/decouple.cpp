#include "metrics/adm/decouple.hpp"

#include <array>
#include <bit>
#include <cmath>

#include "metrics/adm/column_loops.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

namespace {

// 2^30: libvmaf divides through Q30 reciprocals floor(2^30 / n)
// (integer_adm.h, div_lookup), computed here rather than looked up.
constexpr double kRecipQ30 = kRecipNumerator;
// k = 1 in Q15 (kRatioOne), in double.
constexpr double kOne = kRatioOne;

// k = t / o in Q15, clamped to [0, 1]; 1 when o = 0. Scale 0: the Q30
// reciprocal of |o| times t, rounded by 15 bits (integer_adm.c, adm_decouple).
// In double, exactly, for the reasons given at ratio_scale_n below (here
// |recip * t| < 2^45 always).
VQX_FORCE_INLINE std::int32_t ratio_scale0(std::int32_t o, std::int32_t t) {
  const std::int32_t mag = o < 0 ? -o : o;
  // Divides 2^31 by 2n rather than 2^30 by n (the same quotient): 2n does
  // not fit 16 bits, which keeps the compiler from narrowing the integer
  // steps to 16 bits and then failing to convert 16-bit lanes to double.
  const auto n2 = static_cast<double>((mag | static_cast<std::int32_t>(mag == 0)) * 2);
  const auto recip = static_cast<double>(static_cast<std::int32_t>(2.0 * kRecipQ30 / n2));
  const double sign = static_cast<double>(static_cast<int>(o > 0) - static_cast<int>(o < 0));
  double q = recip * (static_cast<double>(t) * sign) * (1.0 / kOne) + 0.5;
  q = q < 0.0 ? 0.0 : (q > kOne ? kOne : q);
  return static_cast<std::int32_t>(q) | (static_cast<std::int32_t>(o == 0) << kRatioFracBits);
}

// The same for scales 1..3: a denominator of 2^15 or more is first rounded
// to its 15 leading bits, and the final shift grows by the bits dropped
// (libvmaf's get_best15_from32):
//
//   k = clamp((recip(top) * t * sign(o) + 2^(14+drop)) >> (15+drop), 0, 2^15)
//
// with recip(n) = floor(2^30 / n). Computed in double so that it vectorises
// without gathers or 64-bit shifts, and still exactly:
//  * 2^30 / n is at least 1/n (>= 2^-15) away from the next integer unless
//    it is one, far more than the division's rounding error, so truncating
//    the double quotient gives recip(n);
//  * wherever k is not clamped, |recip * t| < 2^(30+drop) <= 2^47, so the
//    product, the scaling by a power of two and the +1/2 are exact, and
//    truncating the clamped (non-negative) value is the shift; where the
//    product is rounded (beyond 2^53) the result is clamped either way.
VQX_FORCE_INLINE std::int32_t ratio_scale_n(std::int32_t o, std::int32_t t) {
  // |o| as libvmaf's abs() gives it (two's complement for INT32_MIN).
  const std::uint32_t mag =
      o < 0 ? 0u - static_cast<std::uint32_t>(o) : static_cast<std::uint32_t>(o);
  // drop = max(0, bit width of mag - 15). The width is read from the
  // exponent of (float)(mag >> 8), which is exact (below 2^24): this
  // vectorises where a leading-zero count does not.
  const auto high = static_cast<float>(static_cast<std::int32_t>(mag >> 8));
  const int width = static_cast<int>(std::bit_cast<std::uint32_t>(high) >> 23) - 126 + 8;
  const int drop = width > kDivisorBits ? width - kDivisorBits : 0;
  const std::uint32_t top = (mag + ((1u << drop) >> 1)) >> drop;
  // top = 0 only for o = 0; the sign factor 0 then zeroes the quotient.
  const auto n =
      static_cast<double>(static_cast<std::int32_t>(top | static_cast<std::uint32_t>(top == 0)));
  const auto recip = static_cast<double>(static_cast<std::int32_t>(kRecipQ30 / n));
  const double sign = static_cast<double>(static_cast<int>(o > 0) - static_cast<int>(o < 0));
  // 2^-(15 + drop): 2^-drop from the exponent bits of a float.
  const double scale =
      static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(127 - drop) << 23)) *
      (1.0 / kOne);
  double q = recip * (static_cast<double>(t) * sign) * scale + 0.5;
  q = q < 0.0 ? 0.0 : (q > kOne ? kOne : q);
  // k = 1 (2^15) for o = 0, as libvmaf sets it; set arithmetically (a
  // select here would make the conversion conditional, which does not
  // vectorise).
  return static_cast<std::int32_t>(q) | (static_cast<std::int32_t>(o == 0) << kRatioFracBits);
}

// Nearly parallel test: the angle between (oh, ov) and (th, tv) is under one
// degree. libvmaf rounds the exact integer dot products to float and
// compares in double: (d/4096)^2 >= cos^2(1deg) * (|o|^2/4096) * (|t|^2/4096).
VQX_FORCE_INLINE bool within_one_degree(float dot, float o_sq, float t_sq, double cos_sq) {
  const double dn = dot / kAngleScale;
  const double on = o_sq / kAngleScale;
  const double tn = t_sq / kAngleScale;
  // Both comparisons are always made (no short cut), which keeps the loop
  // free of branches.
  const bool same_side = dn >= 0.0;
  const bool close = dn * dn >= cos_sq * on * tn;
  return same_side & close;
}

// The restored coefficient r = k * o, and libvmaf's enhancement: where the
// vectors are parallel and r has the sign of o, r grows by gain_limit but
// not past t. libvmaf forms r * gain_limit in double and truncates after
// taking the min (max) with t; truncating first gives the same integer.
template <typename Wide>
VQX_FORCE_INLINE Wide restore(std::int32_t k, Wide o, Wide t, bool parallel, double gain_limit) {
  const Wide r = restore_product(Wide{k}, o);
  const auto grown = static_cast<Wide>(static_cast<double>(r) * gain_limit);
  const Wide toward_pos = grown < t ? grown : t;
  const Wide toward_neg = grown > t ? grown : t;
  const bool enhance = parallel & (k > 0);
  const Wide grown_r = o > 0 ? toward_pos : (o < 0 ? toward_neg : r);
  return enhance ? grown_r : r;
}

}  // namespace

DecoupleParams make_decouple_params(double enhn_gain_limit) {
  constexpr double kOneDegree = 1.0 * 3.14159265358979323846 / 180.0;
  return {enhn_gain_limit, static_cast<float>(std::cos(kOneDegree) * std::cos(kOneDegree))};
}

namespace reference {

bool within_one_degree_n(std::int32_t oh, std::int32_t ov, std::int32_t th, std::int32_t tv,
                         double cos_sq) {
  const std::int64_t o_h = oh, o_v = ov, t_h = th, t_v = tv;
  return within_one_degree(static_cast<float>(o_h * t_h + o_v * t_v),
                           static_cast<float>(o_h * o_h + o_v * o_v),
                           static_cast<float>(t_h * t_h + t_v * t_v), cos_sq);
}

VQX_CLONES void decouple_row(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis, int begin,
                             int end, const DecoupleParams& p, std::int32_t* scratch,
                             DetailOut<std::int16_t> restored, DetailOut<std::int16_t> additive) {
  const std::int16_t* __restrict oh = ref.h;
  const std::int16_t* __restrict ov = ref.v;
  const std::int16_t* __restrict od = ref.d;
  const std::int16_t* __restrict th = dis.h;
  const std::int16_t* __restrict tv = dis.v;
  const std::int16_t* __restrict td = dis.d;
  // Pass 1: the divisions (k per band).
  std::int32_t* __restrict kh = scratch;
  std::int32_t* __restrict kv = scratch + end;
  std::int32_t* __restrict kd = scratch + 2 * end;
  for_columns<32>(begin, end, [=](int j) VQX_INLINE_LAMBDA {
    kh[j] = ratio_scale0(oh[j], th[j]);
    kv[j] = ratio_scale0(ov[j], tv[j]);
    kd[j] = ratio_scale0(od[j], td[j]);
  });

  // Pass 2: the parallel test, restored and additive parts.

  std::int16_t* __restrict rh = restored.h;
  std::int16_t* __restrict rv = restored.v;
  std::int16_t* __restrict rd = restored.d;
  std::int16_t* __restrict ah = additive.h;
  std::int16_t* __restrict av = additive.v;
  std::int16_t* __restrict ad = additive.d;
  const double cos_sq = p.cos_1deg_sq;
  const double gain = p.enhn_gain_limit;
  for_columns<32>(begin, end, [=](int j) VQX_INLINE_LAMBDA {
    const std::int32_t o_h = oh[j], o_v = ov[j], o_d = od[j];
    const std::int32_t t_h = th[j], t_v = tv[j], t_d = td[j];
    // 16-bit products are exact in int32_t and their sums exact in double.
    const auto dot =
        static_cast<float>(static_cast<double>(o_h * t_h) + static_cast<double>(o_v * t_v));
    const auto o_sq =
        static_cast<float>(static_cast<double>(o_h * o_h) + static_cast<double>(o_v * o_v));
    const auto t_sq =
        static_cast<float>(static_cast<double>(t_h * t_h) + static_cast<double>(t_v * t_v));
    const bool par = within_one_degree(dot, o_sq, t_sq, cos_sq);
    const std::int32_t r_h = restore<std::int32_t>(kh[j], o_h, t_h, par, gain);
    const std::int32_t r_v = restore<std::int32_t>(kv[j], o_v, t_v, par, gain);
    const std::int32_t r_d = restore<std::int32_t>(kd[j], o_d, t_d, par, gain);
    rh[j] = static_cast<std::int16_t>(r_h);
    rv[j] = static_cast<std::int16_t>(r_v);
    rd[j] = static_cast<std::int16_t>(r_d);
    ah[j] = static_cast<std::int16_t>(t_h - r_h);
    av[j] = static_cast<std::int16_t>(t_v - r_v);
    ad[j] = static_cast<std::int16_t>(t_d - r_d);
  });
}

VQX_CLONES void decouple_row(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis, int begin,
                             int end, const DecoupleParams& p, std::int32_t* scratch,
                             DetailOut<std::int32_t> restored, DetailOut<std::int32_t> additive) {
  const std::int32_t* __restrict oh = ref.h;
  const std::int32_t* __restrict ov = ref.v;
  const std::int32_t* __restrict od = ref.d;
  const std::int32_t* __restrict th = dis.h;
  const std::int32_t* __restrict tv = dis.v;
  const std::int32_t* __restrict td = dis.d;
  // Pass 1: the divisions (k per band).
  std::int32_t* __restrict kh = scratch;
  std::int32_t* __restrict kv = scratch + end;
  std::int32_t* __restrict kd = scratch + 2 * end;
  for_columns(begin, end, [=](int j) VQX_INLINE_LAMBDA {
    kh[j] = ratio_scale_n(oh[j], th[j]);
    kv[j] = ratio_scale_n(ov[j], tv[j]);
    kd[j] = ratio_scale_n(od[j], td[j]);
  });

  // Pass 2: the parallel test, restored and additive parts.

  std::int32_t* __restrict rh = restored.h;
  std::int32_t* __restrict rv = restored.v;
  std::int32_t* __restrict rd = restored.d;
  std::int32_t* __restrict ah = additive.h;
  std::int32_t* __restrict av = additive.v;
  std::int32_t* __restrict ad = additive.d;
  const double cos_sq = p.cos_1deg_sq;
  const double gain = p.enhn_gain_limit;
  for_columns(begin, end, [=](int j) VQX_INLINE_LAMBDA {
    const std::int64_t o_h = oh[j], o_v = ov[j], o_d = od[j];
    const std::int64_t t_h = th[j], t_v = tv[j], t_d = td[j];
    const auto dot = static_cast<float>(o_h * t_h + o_v * t_v);
    const auto o_sq = static_cast<float>(o_h * o_h + o_v * o_v);
    const auto t_sq = static_cast<float>(t_h * t_h + t_v * t_v);
    const bool par = within_one_degree(dot, o_sq, t_sq, cos_sq);
    const auto r_h = static_cast<std::int32_t>(restore<std::int64_t>(kh[j], o_h, t_h, par, gain));
    const auto r_v = static_cast<std::int32_t>(restore<std::int64_t>(kv[j], o_v, t_v, par, gain));
    const auto r_d = static_cast<std::int32_t>(restore<std::int64_t>(kd[j], o_d, t_d, par, gain));
    rh[j] = r_h;
    rv[j] = r_v;
    rd[j] = r_d;
    // t - r in 32-bit two's complement, as libvmaf stores it.
    ah[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(t_h) -
                                      static_cast<std::uint32_t>(r_h));
    av[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(t_v) -
                                      static_cast<std::uint32_t>(r_v));
    ad[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(t_d) -
                                      static_cast<std::uint32_t>(r_d));
  });
}

}  // namespace reference

}  // namespace vqx::adm

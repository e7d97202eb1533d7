#include "metrics/adm/decouple.hpp"

#include <array>
#include <cmath>

#include "metrics/adm/params.hpp"
// Last: sets floating-point contraction off for this file.
#include "metrics/adm/kernel_util.hpp"

namespace vqx::adm {

namespace {

// Signed Q30 reciprocals: entry 32768 + n holds 2^30 / n and entry
// 32768 - n its negation, for n = 1 .. 32768 (integer_adm.h, div_lookup).
constexpr int kRecipMid = 32768;
constexpr std::array<std::int32_t, 2 * kRecipMid + 1> build_recip() {
  std::array<std::int32_t, 2 * kRecipMid + 1> t{};
  for (int n = 1; n <= kRecipMid; ++n) {
    t[kRecipMid + n] = kRecipNumerator / n;
    t[kRecipMid - n] = -(kRecipNumerator / n);
  }
  return t;
}
constexpr std::array<std::int32_t, 2 * kRecipMid + 1> kRecip = build_recip();

// k = t / o in Q15, clamped to [0, 1]; 1 when o = 0. Scale 0: the Q30
// reciprocal of o times t, rounded by 15 bits. The clamp is applied before
// the shift (equivalent, and the shift is then of a non-negative value).
VQX_ADM_INLINE std::int32_t ratio_scale0(const std::int32_t* recip, std::int32_t o,
                                         std::int32_t t) {
  constexpr std::int64_t kOne = std::int64_t{32768} << 15;
  std::int64_t q = std::int64_t{recip[o]} * t + 16384;
  q = q < 0 ? 0 : q;
  q = q > kOne ? kOne : q;
  const auto k = static_cast<std::int32_t>(static_cast<std::uint64_t>(q) >> 15);
  // o = 0 reads the table's 0 and gives k = 0; libvmaf uses k = 1 (2^15)
  // there. Set that bit arithmetically: a select would make the compiler
  // mask the table read, which defeats vectorisation.
  return k | (static_cast<std::int32_t>(o == 0) << 15);
}

// The same for scales 1..3: a denominator of 2^15 or more is first rounded
// to its 15 leading bits, and the final shift grows by the bits dropped
// (libvmaf's get_best15_from32). Written without branches: for smaller
// denominators `drop` is 0 and the rounding and shift are those of scale 0.
VQX_ADM_INLINE std::int32_t ratio_scale_n(const std::int32_t* recip, std::int32_t o,
                                          std::int32_t t) {
  // |o| as libvmaf's abs() gives it (two's complement for INT32_MIN).
  const std::uint32_t mag =
      o < 0 ? 0u - static_cast<std::uint32_t>(o) : static_cast<std::uint32_t>(o);
  const int width = 32 - __builtin_clz(mag | 1u);
  const int drop = width > 15 ? width - 15 : 0;
  const std::uint32_t top = (mag + ((1u << drop) >> 1)) >> drop;
  const int shift = 15 + drop;
  const std::int64_t product = std::int64_t{recip[static_cast<std::int32_t>(top & 0xFFFFu)]} * t;
  std::int64_t q = (o < 0 ? -product : product) + (std::int64_t{1} << (shift - 1));
  // Clamp before the shift, as in ratio_scale0.
  const std::int64_t one = std::int64_t{32768} << shift;
  q = q < 0 ? 0 : q;
  q = q > one ? one : q;
  const auto k = static_cast<std::int32_t>(static_cast<std::uint64_t>(q) >> shift);
  return k | (static_cast<std::int32_t>(o == 0) << 15);  // as in ratio_scale0
}

// Nearly parallel test: the angle between (oh, ov) and (th, tv) is under one
// degree. libvmaf rounds the exact integer dot products to float and
// compares in double: (d/4096)^2 >= cos^2(1deg) * (|o|^2/4096) * (|t|^2/4096).
VQX_ADM_INLINE bool within_one_degree(float dot, float o_sq, float t_sq, double cos_sq) {
  const double dn = dot / 4096.0;
  const double on = o_sq / 4096.0;
  const double tn = t_sq / 4096.0;
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
VQX_ADM_INLINE Wide restore(std::int32_t k, Wide o, Wide t, bool parallel, double gain_limit) {
  const Wide r = static_cast<Wide>((Wide{k} * o + 16384) >> 15);
  const auto grown = static_cast<Wide>(static_cast<double>(r) * gain_limit);
  const Wide toward_pos = grown < t ? grown : t;
  const Wide toward_neg = grown > t ? grown : t;
  const bool enhance = parallel & (k > 0);
  const Wide grown_r = o > 0 ? toward_pos : (o < 0 ? toward_neg : r);
  return enhance ? grown_r : r;
}

// The division of each band, for one row. Separate functions with
// restrict-qualified parameters: the vectoriser then knows that the table
// reads (gathers) do not alias the stores.
VQX_ADM_CLONES void ratios_scale0(const std::int16_t* __restrict oh,
                                  const std::int16_t* __restrict ov,
                                  const std::int16_t* __restrict od,
                                  const std::int16_t* __restrict th,
                                  const std::int16_t* __restrict tv,
                                  const std::int16_t* __restrict td, int begin, int end,
                                  std::int32_t* __restrict kh, std::int32_t* __restrict kv,
                                  std::int32_t* __restrict kd) {
  const std::int32_t* recip = kRecip.data() + kRecipMid;
  for_columns<32>(begin, end, [=](int j) VQX_ADM_BODY {
    kh[j] = ratio_scale0(recip, oh[j], th[j]);
    kv[j] = ratio_scale0(recip, ov[j], tv[j]);
    kd[j] = ratio_scale0(recip, od[j], td[j]);
  });
}

VQX_ADM_CLONES void ratios_scale_n(const std::int32_t* __restrict oh,
                                   const std::int32_t* __restrict ov,
                                   const std::int32_t* __restrict od,
                                   const std::int32_t* __restrict th,
                                   const std::int32_t* __restrict tv,
                                   const std::int32_t* __restrict td, int begin, int end,
                                   std::int32_t* __restrict kh, std::int32_t* __restrict kv,
                                   std::int32_t* __restrict kd) {
  const std::int32_t* recip = kRecip.data() + kRecipMid;
  for_columns(begin, end, [=](int j) VQX_ADM_BODY {
    kh[j] = ratio_scale_n(recip, oh[j], th[j]);
    kv[j] = ratio_scale_n(recip, ov[j], tv[j]);
    kd[j] = ratio_scale_n(recip, od[j], td[j]);
  });
}

}  // namespace

DecoupleParams make_decouple_params(double enhn_gain_limit) {
  constexpr double kOneDegree = 1.0 * 3.14159265358979323846 / 180.0;
  return {enhn_gain_limit, static_cast<float>(std::cos(kOneDegree) * std::cos(kOneDegree))};
}

VQX_ADM_CLONES void decouple_row(DetailRow<std::int16_t> ref, DetailRow<std::int16_t> dis,
                                 int begin, int end, const DecoupleParams& p,
                                 std::int32_t* scratch, DetailOut<std::int16_t> restored,
                                 DetailOut<std::int16_t> additive) {
  const std::int16_t* __restrict oh = ref.h;
  const std::int16_t* __restrict ov = ref.v;
  const std::int16_t* __restrict od = ref.d;
  const std::int16_t* __restrict th = dis.h;
  const std::int16_t* __restrict tv = dis.v;
  const std::int16_t* __restrict td = dis.d;
  const std::int32_t* __restrict kh = scratch;
  const std::int32_t* __restrict kv = scratch + end;
  const std::int32_t* __restrict kd = scratch + 2 * end;
  ratios_scale0(oh, ov, od, th, tv, td, begin, end, scratch, scratch + end, scratch + 2 * end);

  std::int16_t* __restrict rh = restored.h;
  std::int16_t* __restrict rv = restored.v;
  std::int16_t* __restrict rd = restored.d;
  std::int16_t* __restrict ah = additive.h;
  std::int16_t* __restrict av = additive.v;
  std::int16_t* __restrict ad = additive.d;
  const double cos_sq = p.cos_1deg_sq;
  const double gain = p.enhn_gain_limit;
  for_columns<32>(begin, end, [=](int j) VQX_ADM_BODY {
    const std::int32_t o_h = oh[j], o_v = ov[j], o_d = od[j];
    const std::int32_t t_h = th[j], t_v = tv[j], t_d = td[j];
    // 16-bit products are exact in int32_t and their sums exact in double.
    const auto dot = static_cast<float>(static_cast<double>(o_h * t_h) + static_cast<double>(o_v * t_v));
    const auto o_sq = static_cast<float>(static_cast<double>(o_h * o_h) + static_cast<double>(o_v * o_v));
    const auto t_sq = static_cast<float>(static_cast<double>(t_h * t_h) + static_cast<double>(t_v * t_v));
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

VQX_ADM_CLONES void decouple_row(DetailRow<std::int32_t> ref, DetailRow<std::int32_t> dis,
                                 int begin, int end, const DecoupleParams& p,
                                 std::int32_t* scratch, DetailOut<std::int32_t> restored,
                                 DetailOut<std::int32_t> additive) {
  const std::int32_t* __restrict oh = ref.h;
  const std::int32_t* __restrict ov = ref.v;
  const std::int32_t* __restrict od = ref.d;
  const std::int32_t* __restrict th = dis.h;
  const std::int32_t* __restrict tv = dis.v;
  const std::int32_t* __restrict td = dis.d;
  const std::int32_t* __restrict kh = scratch;
  const std::int32_t* __restrict kv = scratch + end;
  const std::int32_t* __restrict kd = scratch + 2 * end;
  ratios_scale_n(oh, ov, od, th, tv, td, begin, end, scratch, scratch + end, scratch + 2 * end);

  std::int32_t* __restrict rh = restored.h;
  std::int32_t* __restrict rv = restored.v;
  std::int32_t* __restrict rd = restored.d;
  std::int32_t* __restrict ah = additive.h;
  std::int32_t* __restrict av = additive.v;
  std::int32_t* __restrict ad = additive.d;
  const double cos_sq = p.cos_1deg_sq;
  const double gain = p.enhn_gain_limit;
  for_columns(begin, end, [=](int j) VQX_ADM_BODY {
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
    ah[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(t_h) - static_cast<std::uint32_t>(r_h));
    av[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(t_v) - static_cast<std::uint32_t>(r_v));
    ad[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(t_d) - static_cast<std::uint32_t>(r_d));
  });
}

}  // namespace vqx::adm

#include "metrics/adm/decouple.hpp"

#include <cmath>
#include <cstdlib>

#include "metrics/adm/params.hpp"

namespace vqx::adm {

namespace {

constexpr RecipTable build_recip_table() {
  RecipTable t{};
  t.q30[0] = 0;
  for (int n = 1; n <= 32768; ++n) t.q30[n] = kRecipNumerator / n;
  return t;
}

constexpr RecipTable kRecip = build_recip_table();

// t / o in Q15 (before clamping), rounded as libvmaf does: the Q30 reciprocal
// of |o| times t, shifted by 15. Denominators of 2^15 and more (only at
// scales 1..3) are first rounded to their 15 leading bits, and the shift
// grows by the bits dropped.
template <typename T>
std::int64_t ratio_q15(T o, T t) {
  const std::uint32_t mag = static_cast<std::uint32_t>(std::abs(static_cast<std::int32_t>(o)));
  const std::int64_t sign = o < 0 ? -1 : 1;
  if (mag < 32768) {
    return (static_cast<std::int64_t>(kRecip.q30[mag]) * t * sign + (1 << 14)) >> 15;
  }
  const int drop = 17 - __builtin_clz(mag);
  const std::uint32_t top = (mag + (1u << (drop - 1))) >> drop;
  return (static_cast<std::int64_t>(kRecip.q30[top]) * t * sign + (std::int64_t{1} << (14 + drop))) >>
         (15 + drop);
}

// Nearly parallel test: the angle between (oh, ov) and (th, tv) is under one
// degree. Evaluated exactly as libvmaf does, with the 64-bit integer dot
// products rounded to float and the comparison made in double.
inline bool within_one_degree(std::int64_t dot, std::int64_t o_sq, std::int64_t t_sq, float cos_sq) {
  const double dn = static_cast<float>(dot) / 4096.0;
  const double on = static_cast<float>(o_sq) / 4096.0;
  const double tn = static_cast<float>(t_sq) / 4096.0;
  return dn >= 0.0 && dn * dn >= static_cast<double>(cos_sq) * on * tn;
}

// One band of one pixel: returns r, writes a.
template <typename T>
T restore(T o, T t, bool parallel, double gain_limit) {
  std::int64_t k = o == 0 ? 32768 : ratio_q15(o, t);
  k = k < 0 ? 0 : (k > 32768 ? 32768 : k);
  T r = static_cast<T>((k * o + 16384) >> 15);
  // Enhancement: where r has the sign of o (k > 0) and the vectors are
  // parallel, r may grow by gain_limit but not past t. libvmaf forms the
  // product in double and truncates it back.
  if (parallel && k > 0) {
    const double grown = r * gain_limit;
    const double tt = t;
    if (o > 0) {
      r = static_cast<T>(grown < tt ? grown : tt);
    } else if (o < 0) {
      r = static_cast<T>(grown > tt ? grown : tt);
    }
  }
  return r;
}

}  // namespace

const RecipTable& recip_table() { return kRecip; }

DecoupleParams make_decouple_params(double enhn_gain_limit) {
  constexpr double kOneDegree = 1.0 * 3.14159265358979323846 / 180.0;
  return {enhn_gain_limit, static_cast<float>(std::cos(kOneDegree) * std::cos(kOneDegree))};
}

template <typename T>
void decouple_row(DetailRow<T> ref, DetailRow<T> dis, int begin, int end, const DecoupleParams& p,
                  DetailOut<T> restored, DetailOut<T> additive) {
  for (int j = begin; j < end; ++j) {
    const T oh = ref.h[j], ov = ref.v[j], od = ref.d[j];
    const T th = dis.h[j], tv = dis.v[j], td = dis.d[j];
    const std::int64_t dot = std::int64_t{oh} * th + std::int64_t{ov} * tv;
    const std::int64_t o_sq = std::int64_t{oh} * oh + std::int64_t{ov} * ov;
    const std::int64_t t_sq = std::int64_t{th} * th + std::int64_t{tv} * tv;
    const bool parallel = within_one_degree(dot, o_sq, t_sq, p.cos_1deg_sq);

    const T rh = restore(oh, th, parallel, p.enhn_gain_limit);
    const T rv = restore(ov, tv, parallel, p.enhn_gain_limit);
    const T rd = restore(od, td, parallel, p.enhn_gain_limit);
    restored.h[j] = rh;
    restored.v[j] = rv;
    restored.d[j] = rd;
    additive.h[j] = static_cast<T>(th - rh);
    additive.v[j] = static_cast<T>(tv - rv);
    additive.d[j] = static_cast<T>(td - rd);
  }
}

template void decouple_row<std::int16_t>(DetailRow<std::int16_t>, DetailRow<std::int16_t>, int, int,
                                         const DecoupleParams&, DetailOut<std::int16_t>,
                                         DetailOut<std::int16_t>);
template void decouple_row<std::int32_t>(DetailRow<std::int32_t>, DetailRow<std::int32_t>, int, int,
                                         const DecoupleParams&, DetailOut<std::int32_t>,
                                         DetailOut<std::int32_t>);

}  // namespace vqx::adm

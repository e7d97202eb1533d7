// Highway versions of two of VQX's hot CPU kernels, for bench/simd.sh only
// (not part of the library): written with Highway's portable vectors and
// compiled for each of its x86 targets, chosen at run time by
// HWY_DYNAMIC_DISPATCH. Each gives the library kernel's bits:
//  * moments: float_common::weighted_rows_moments (float VIF's filter of
//    the five moments), per column sum of tap * value in order of the taps,
//    each product and sum rounded on its own;
//  * dwt0: adm::dwt_scale0_row for 8-bit samples with the detail bands
//    (integer ADM's first wavelet level), the same 32-bit integer steps.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/hwy_kernels.cpp"
#include "simd/hwy_kernels.hpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "metrics/adm/params.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void Moments(const float* HWY_RESTRICT taps, std::size_t ntaps, const float* const* a,
             const float* const* b, std::size_t width, float* const* out) {
  const hn::ScalableTag<float> d;
  const std::size_t n = hn::Lanes(d);
  std::size_t j = 0;
  // Two vectors of columns at a time (16 columns with AVX2, as the library).
  for (; j + 2 * n <= width; j += 2 * n) {
    auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d), s3 = hn::Zero(d), s4 = hn::Zero(d);
    auto t0 = hn::Zero(d), t1 = hn::Zero(d), t2 = hn::Zero(d), t3 = hn::Zero(d), t4 = hn::Zero(d);
    for (std::size_t k = 0; k < ntaps; ++k) {
      const auto f = hn::Set(d, taps[k]);
      const auto x0 = hn::LoadU(d, a[k] + j), x1 = hn::LoadU(d, a[k] + j + n);
      const auto y0 = hn::LoadU(d, b[k] + j), y1 = hn::LoadU(d, b[k] + j + n);
      s0 = hn::Add(s0, hn::Mul(f, x0));
      t0 = hn::Add(t0, hn::Mul(f, x1));
      s1 = hn::Add(s1, hn::Mul(f, y0));
      t1 = hn::Add(t1, hn::Mul(f, y1));
      s2 = hn::Add(s2, hn::Mul(f, hn::Mul(x0, x0)));
      t2 = hn::Add(t2, hn::Mul(f, hn::Mul(x1, x1)));
      s3 = hn::Add(s3, hn::Mul(f, hn::Mul(y0, y0)));
      t3 = hn::Add(t3, hn::Mul(f, hn::Mul(y1, y1)));
      s4 = hn::Add(s4, hn::Mul(f, hn::Mul(x0, y0)));
      t4 = hn::Add(t4, hn::Mul(f, hn::Mul(x1, y1)));
    }
    hn::StoreU(s0, d, out[0] + j);
    hn::StoreU(t0, d, out[0] + j + n);
    hn::StoreU(s1, d, out[1] + j);
    hn::StoreU(t1, d, out[1] + j + n);
    hn::StoreU(s2, d, out[2] + j);
    hn::StoreU(t2, d, out[2] + j + n);
    hn::StoreU(s3, d, out[3] + j);
    hn::StoreU(t3, d, out[3] + j + n);
    hn::StoreU(s4, d, out[4] + j);
    hn::StoreU(t4, d, out[4] + j + n);
  }
  for (; j < width; ++j) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f, s4 = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) {
      const float x = a[k][j];
      const float y = b[k][j];
      s0 += taps[k] * x;
      s1 += taps[k] * y;
      s2 += taps[k] * (x * x);
      s3 += taps[k] * (y * y);
      s4 += taps[k] * (x * y);
    }
    out[0][j] = s0;
    out[1][j] = s1;
    out[2][j] = s2;
    out[3][j] = s3;
    out[4][j] = s4;
  }
}

namespace {

// The four 32-bit products and the bias of one vertical tap set, with
// wrapping unsigned arithmetic as the library's (libvmaf's C code wraps).
template <class D, class V>
HWY_INLINE V VerticalSum(D d, const std::uint32_t taps[4], V u0, V u1, V u2, V u3,
                         std::uint32_t bias) {
  auto s = hn::Mul(hn::Set(d, taps[0]), u0);
  s = hn::Add(s, hn::Mul(hn::Set(d, taps[1]), u1));
  s = hn::Add(s, hn::Mul(hn::Set(d, taps[2]), u2));
  s = hn::Add(s, hn::Mul(hn::Set(d, taps[3]), u3));
  return hn::Add(s, hn::Set(d, bias));
}

// The horizontal filter of output columns j..j+n: lanes of p hold the pairs
// (x[2j-1], x[2j]) and of q (x[2j+1], x[2j+2]) as two int16 each.
template <class D, class V>
HWY_INLINE V HorizontalSum(D d, const std::int32_t taps[4], V p, V q) {
  const auto p0 = hn::ShiftRight<16>(hn::ShiftLeft<16>(p)), p1 = hn::ShiftRight<16>(p);
  const auto q0 = hn::ShiftRight<16>(hn::ShiftLeft<16>(q)), q1 = hn::ShiftRight<16>(q);
  auto s = hn::Mul(hn::Set(d, taps[0]), p0);
  s = hn::Add(s, hn::Mul(hn::Set(d, taps[1]), p1));
  s = hn::Add(s, hn::Mul(hn::Set(d, taps[2]), q0));
  s = hn::Add(s, hn::Mul(hn::Set(d, taps[3]), q1));
  return hn::ShiftRight<16>(hn::Add(s, hn::Set(d, adm::kDwt0HorzAdd)));
}

// Stores the low 16 bits of each lane (static_cast<int16_t>).
template <class D32, class V>
HWY_INLINE void StoreLow16(D32 d32, V v, std::int16_t* dst) {
  const hn::RebindToUnsigned<D32> du32;
  const hn::Rebind<std::uint16_t, D32> du16;
  const auto narrow = hn::TruncateTo(du16, hn::BitCast(du32, v));
  hn::StoreU(narrow, du16, reinterpret_cast<std::uint16_t*>(dst));
  (void)d32;
}

}  // namespace

void Dwt0(const std::uint8_t* const rows[4], int w, int bpc, std::int16_t* lo, std::int16_t* hi,
          std::int32_t* out_a, std::int16_t* out_v, std::int16_t* out_h, std::int16_t* out_d) {
  const std::int32_t* l = adm::kDb2Lo.data();
  const std::int32_t* h = adm::kDb2Hi.data();
  const std::uint32_t lu[4] = {static_cast<std::uint32_t>(l[0]), static_cast<std::uint32_t>(l[1]),
                               static_cast<std::uint32_t>(l[2]), static_cast<std::uint32_t>(l[3])};
  const std::uint32_t hu[4] = {static_cast<std::uint32_t>(h[0]), static_cast<std::uint32_t>(h[1]),
                               static_cast<std::uint32_t>(h[2]), static_cast<std::uint32_t>(h[3])};
  const adm::Dwt0Bias bias = adm::dwt0_bias(bpc);
  const std::uint32_t lo_bias = bias.lo;
  const std::uint32_t hi_bias = bias.hi;

  // Vertical pass: 32-bit lanes, 8-bit samples widened.
  const hn::ScalableTag<std::uint32_t> du32;
  const hn::RebindToSigned<decltype(du32)> di32;
  const hn::Rebind<std::uint8_t, decltype(du32)> du8;
  const std::size_t n = hn::Lanes(du32);
  int j = 0;
  for (; j + static_cast<int>(n) <= w; j += static_cast<int>(n)) {
    const auto u0 = hn::PromoteTo(du32, hn::LoadU(du8, rows[0] + j));
    const auto u1 = hn::PromoteTo(du32, hn::LoadU(du8, rows[1] + j));
    const auto u2 = hn::PromoteTo(du32, hn::LoadU(du8, rows[2] + j));
    const auto u3 = hn::PromoteTo(du32, hn::LoadU(du8, rows[3] + j));
    const auto sl = hn::BitCast(di32, VerticalSum(du32, lu, u0, u1, u2, u3, lo_bias));
    const auto sh = hn::BitCast(di32, VerticalSum(du32, hu, u0, u1, u2, u3, hi_bias));
    StoreLow16(di32, hn::ShiftRightSame(sl, bpc), lo + j);
    StoreLow16(di32, hn::ShiftRightSame(sh, bpc), hi + j);
  }
  for (; j < w; ++j) {
    const std::uint32_t u0 = rows[0][j], u1 = rows[1][j], u2 = rows[2][j], u3 = rows[3][j];
    const std::uint32_t sl = lu[0] * u0 + lu[1] * u1 + lu[2] * u2 + lu[3] * u3 + lo_bias;
    const std::uint32_t sh = hu[0] * u0 + hu[1] * u1 + hu[2] * u2 + hu[3] * u3 + hi_bias;
    lo[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(sl) >> bpc);
    hi[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(sh) >> bpc);
  }
  // The boundary rule: columns -1, w and w + 1.
  for (std::int16_t* r : {lo, hi}) {
    r[-1] = r[1];
    r[w] = r[w - 1];
    r[w + 1] = r[w - 2];
  }

  // Horizontal pass: int16 pairs read as 32-bit lanes (not on HWY_SCALAR,
  // whose one-lane vectors cannot be reinterpreted so: scalar code there).
  const int bw = (w + 1) / 2;
  j = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::Repartition<std::int16_t, decltype(di32)> di16;
  for (; j + static_cast<int>(n) <= bw; j += static_cast<int>(n)) {
    const auto lp = hn::BitCast(di32, hn::LoadU(di16, lo + 2 * j - 1));
    const auto lq = hn::BitCast(di32, hn::LoadU(di16, lo + 2 * j + 1));
    const auto hp = hn::BitCast(di32, hn::LoadU(di16, hi + 2 * j - 1));
    const auto hq = hn::BitCast(di32, hn::LoadU(di16, hi + 2 * j + 1));
    hn::StoreU(HorizontalSum(di32, l, lp, lq), di32, out_a + j);
    StoreLow16(di32, HorizontalSum(di32, h, lp, lq), out_v + j);
    StoreLow16(di32, HorizontalSum(di32, l, hp, hq), out_h + j);
    StoreLow16(di32, HorizontalSum(di32, h, hp, hq), out_d + j);
  }
#endif
  for (; j < bw; ++j) {
    const std::int16_t* p = lo + 2 * j - 1;
    const std::int16_t* q = hi + 2 * j - 1;
    constexpr std::int32_t kRound = adm::kDwt0HorzAdd;
    out_a[j] = (l[0] * p[0] + l[1] * p[1] + l[2] * p[2] + l[3] * p[3] + kRound) >> 16;
    out_v[j] = static_cast<std::int16_t>(
        (h[0] * p[0] + h[1] * p[1] + h[2] * p[2] + h[3] * p[3] + kRound) >> 16);
    out_h[j] = static_cast<std::int16_t>(
        (l[0] * q[0] + l[1] * q[1] + l[2] * q[2] + l[3] * q[3] + kRound) >> 16);
    out_d[j] = static_cast<std::int16_t>(
        (h[0] * q[0] + h[1] * q[1] + h[2] * q[2] + h[3] * q[3] + kRound) >> 16);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace vqx::bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::bench {

HWY_EXPORT(Moments);
HWY_EXPORT(Dwt0);

void hwy_moments(const float* taps, std::size_t ntaps, const float* const* a, const float* const* b,
                 std::size_t width, float* const* out) {
  HWY_DYNAMIC_DISPATCH(Moments)(taps, ntaps, a, b, width, out);
}

void hwy_dwt0(const std::uint8_t* const rows[4], int w, int bpc, std::int16_t* lo, std::int16_t* hi,
              std::int32_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* d) {
  HWY_DYNAMIC_DISPATCH(Dwt0)(rows, w, bpc, lo, hi, a, v, h, d);
}

}  // namespace vqx::bench
#endif

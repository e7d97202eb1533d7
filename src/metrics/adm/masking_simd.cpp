// ADM's CSF weighting, masking threshold and cube sums with explicit SIMD
// (Highway, compiled for each of its targets, chosen once per row): the same
// fixed-point steps as the reference forms (masking.cpp), on whole vectors of
// columns. The CSF weighting's last vector ends at the row's end (it rewrites
// a few columns with the same values); the sums and the threshold leave a
// row's last columns to the reference, as do narrow rows and the scalar target.
//
// The int64 steps use 32 x 32 -> 64-bit products of the even lanes (the odd
// lanes copied down for the second half), which AVX2 has, instead of the
// 64 x 64-bit products the plain loops' types ask the vectoriser for. Where
// a shifted int64 is cast to int32 only its low 32 bits count, so a logical
// shift serves; where an int64 is kept (the cubes), the arithmetic shift is
// formed from a logical one (shift_right's bias, params.hpp).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/masking_simd.cpp"
#include <array>
#include <cstdint>

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "metrics/adm/masking.hpp"
#include "metrics/adm/params.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::adm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR

using D32 = hn::ScalableTag<std::int32_t>;
using DU32 = hn::RebindToUnsigned<D32>;
using D64 = hn::Repartition<std::int64_t, D32>;
using DU64 = hn::Repartition<std::uint64_t, D32>;
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;
using VU64 = hn::Vec<DU64>;

HWY_INLINE V32 load16(const std::int16_t* p) {
  return hn::PromoteTo(D32(), hn::LoadU(hn::Rebind<std::int16_t, D32>(), p));
}

// Arithmetic right shift of int64 lanes by s (0 <= s < 64).
HWY_INLINE V64 sra64(V64 v, int s) {
  const DU64 du;
  const VU64 bias = hn::Set(du, std::uint64_t{1} << 63);
  const VU64 shifted = hn::ShiftRightSame(hn::Xor(hn::BitCast(du, v), bias), s);
  return hn::BitCast(D64(), hn::Sub(shifted, hn::ShiftRightSame(bias, s)));
}

// Low 32 bits of each 64-bit lane at the even 32-bit positions.
HWY_INLINE V32 even_low(V64 v) { return hn::BitCast(D32(), v); }

// --- CSF weighting -----------------------------------------------------------

// Scale 0 (params.hpp: csf0_hv, csf0_d, div30_q12, div15_q12) in 16-bit
// lanes, every step modulo 2^16 as the reference's int16_t results are:
//  * (q s + 2^14) >> 15 is the rounding fixed-point product of s and q, for
//    q >= 2^15 that of s and q - 2^16 plus 2 s;
//  * (q s + 65535) >> 17 is (hi + (lo != 0)) >> 1 for the high and low 16
//    bits of q s (hi: the signed high product, plus s for q >= 2^15);
//  * |c| / 30 = (4369 m + 2^11) >> 12 = (34952 m + 2^14) >> 15 and |c| / 15 =
//    (69904 m + 2^14) >> 15, 0 <= m <= 2^15, as fixed-point products with the
//    same corrections: m = 2^15 reads -2^15 in a lane and adds 2 * (q - 2^16).
using D16 = hn::ScalableTag<std::int16_t>;
using V16 = hn::Vec<D16>;

HWY_INLINE V16 weigh0_hv(V16 s, std::uint16_t q) {
  const D16 d;
  if (q < 32768) return hn::MulFixedPoint15(s, hn::Set(d, static_cast<std::int16_t>(q)));
  const V16 low = hn::MulFixedPoint15(s, hn::Set(d, static_cast<std::int16_t>(q - 65536)));
  return hn::Add(low, hn::Add(s, s));
}

HWY_INLINE V16 weigh0_d(V16 s, std::uint16_t q) {
  const D16 d;
  const V16 qs = hn::Set(d, static_cast<std::int16_t>(q));  // q - 2^16 for q >= 2^15
  V16 hi = hn::MulHigh(s, qs);
  if (q >= 32768) hi = hn::Add(hi, s);
  const V16 lo = hn::Mul(s, qs);
  // hi + 1 where lo != 0 (the mask is -1 there).
  const V16 carried = hn::Sub(hi, hn::VecFromMask(d, hn::Ne(lo, hn::Zero(d))));
  return hn::ShiftRight<1>(carried);
}

struct Div16 {
  V16 by30, by15;
};
HWY_INLINE Div16 div0(V16 w) {
  const D16 d;
  const V16 m = hn::Abs(w);  // 2^15 reads -2^15
  const V16 twice = hn::Add(m, m);
  const auto top = hn::Eq(m, hn::Set(d, std::int16_t{-32768}));
  constexpr std::int16_t k30 = static_cast<std::int16_t>(8 * kOneBy30Q12 - 65536);  // 34952
  constexpr std::int16_t k15 = static_cast<std::int16_t>(8 * kOneBy15Q12 - 65536);  // 69904 - 2^16
  constexpr std::int16_t fix30 = static_cast<std::int16_t>(2 * k30 + 65536);  // 2 k30 mod 2^16
  constexpr std::int16_t fix15 = static_cast<std::int16_t>(2 * k15);
  const V16 by30 = hn::Add(hn::Add(hn::MulFixedPoint15(m, hn::Set(d, k30)), twice),
                           hn::IfThenElseZero(top, hn::Set(d, fix30)));
  const V16 by15 = hn::Add(hn::Add(hn::MulFixedPoint15(m, hn::Set(d, k15)), twice),
                           hn::IfThenElseZero(top, hn::Set(d, fix15)));
  return {by30, by15};
}

// Sum of three int16 vectors, widened, stored as int32 at p.
HWY_INLINE void store_sum3(V16 a, V16 b, V16 c, std::int32_t* p) {
  const D32 d32;
  const hn::Half<D16> dh;
  auto lo = [&](V16 v) { return hn::PromoteTo(d32, hn::LowerHalf(dh, v)); };
  auto hi = [&](V16 v) { return hn::PromoteTo(d32, hn::UpperHalf(dh, v)); };
  hn::StoreU(hn::Add(hn::Add(lo(a), lo(b)), lo(c)), d32, p);
  hn::StoreU(hn::Add(hn::Add(hi(a), hi(b)), hi(c)), d32, p + hn::Lanes(d32));
}

void Csf0(DetailRow<std::int16_t> src, int begin, int end, const std::array<std::uint16_t, 3>& q,
          std::int32_t* flt_sum, std::int32_t* ctr_sum) {
  const D16 d;
  const int n = static_cast<int>(hn::Lanes(d));
  if (end - begin < n) {
    reference::csf_row_scale0(src, begin, end, q, flt_sum, ctr_sum);
    return;
  }
  // The last vector ends at `end` (recomputing a few columns, same values).
  for (int j = begin;; j += n) {
    const int at = j + n <= end ? j : end - n;
    const Div16 h = div0(weigh0_hv(hn::LoadU(d, src.h + at), q[0]));
    const Div16 v = div0(weigh0_hv(hn::LoadU(d, src.v + at), q[1]));
    const Div16 dg = div0(weigh0_d(hn::LoadU(d, src.d + at), q[2]));
    store_sum3(h.by30, v.by30, dg.by30, flt_sum + at);
    store_sum3(h.by15, v.by15, dg.by15, ctr_sum + at);
    if (at + n >= end) break;
  }
}

// Scales 1..3: (q * s + 2^27) >> 28 to int32 for the even lanes of s, q an
// unsigned 32-bit weight: the signed product with q - 2^32 plus s * 2^32
// where q >= 2^31.
HWY_INLINE V32 weigh_n_even(V32 s, std::uint32_t q) {
  const DU64 du;
  const auto qs = static_cast<std::int32_t>(q);
  V64 p = hn::MulEven(s, hn::Set(D32(), qs));
  if (qs < 0) p = hn::Add(p, hn::BitCast(D64(), hn::ShiftLeft<32>(hn::BitCast(du, s))));
  const VU64 r = hn::ShiftRight<kCsfNShift>(hn::BitCast(du, hn::Add(p, hn::Set(D64(), kCsfNAdd))));
  return even_low(hn::BitCast(D64(), r));
}

// (c * m - 2^31) >> 32 to int32 (kOneBy30Q32, kOneBy15Q32 fit int32): the
// high half of the int64, for the even lanes of m.
HWY_INLINE V64 div_q32_even(V32 m, std::int64_t c) {
  return hn::Add(hn::MulEven(m, hn::Set(D32(), static_cast<std::int32_t>(c))),
                 hn::Set(D64(), kQ32Bias));
}

// Joins the high halves of the even-lane and odd-lane results.
HWY_INLINE V32 join_high(V64 even, V64 odd) {
  const DU64 du;
  return hn::OddEven(hn::BitCast(D32(), odd),
                     hn::BitCast(D32(), hn::ShiftRight<32>(hn::BitCast(du, even))));
}

void CsfN(DetailRow<std::int32_t> src, int begin, int end, const std::array<std::uint32_t, 3>& q,
          std::int32_t* flt_sum, std::int32_t* ctr_sum) {
  const D32 d;
  const int n = static_cast<int>(hn::Lanes(d));
  const std::int32_t* bands[3] = {src.h, src.v, src.d};
  int j = begin;
  for (; j + n <= end; j += n) {
    V32 flt = hn::Zero(d), ctr = hn::Zero(d);
    for (int b = 0; b < 3; ++b) {
      const V32 s = hn::LoadU(d, bands[b] + j);
      const V32 me = hn::Abs(weigh_n_even(s, q[b]));
      const V32 mo = hn::Abs(weigh_n_even(hn::DupOdd(s), q[b]));
      flt = hn::Add(flt, join_high(div_q32_even(me, kOneBy30Q32), div_q32_even(mo, kOneBy30Q32)));
      ctr = hn::Add(ctr, join_high(div_q32_even(me, kOneBy15Q32), div_q32_even(mo, kOneBy15Q32)));
    }
    hn::StoreU(flt, d, flt_sum + j);
    hn::StoreU(ctr, d, ctr_sum + j);
  }
  if (j < end) reference::csf_row_scale_n(src, j, end, q, flt_sum, ctr_sum);
}

// --- Threshold ---------------------------------------------------------------

void Threshold(const std::int32_t* up, const std::int32_t* mid, const std::int32_t* down,
               const std::int32_t* ctr, int begin, int end, std::int32_t* col_scratch,
               std::int32_t* thr) {
  const D32 d;
  const int n = static_cast<int>(hn::Lanes(d));
  auto col = [&](int j) {
    return hn::Add(hn::Add(hn::LoadU(d, up + j), hn::LoadU(d, mid + j)), hn::LoadU(d, down + j));
  };
  int j = begin;
  for (; j + n <= end; j += n) {
    const V32 s = hn::Add(hn::Add(col(j - 1), col(j)), col(j + 1));
    hn::StoreU(hn::Add(hn::Sub(s, hn::LoadU(d, mid + j)), hn::LoadU(d, ctr + j)), d, thr + j);
  }
  if (j < end) reference::threshold_row(up, mid, down, ctr, j, end, col_scratch, thr);
}

// --- Cube sums ---------------------------------------------------------------

// max(|x| - (thr << thr_shift), 0)^3 with the reference's roundings, for the
// even lanes of x and thr.
HWY_INLINE V64 masked_cube_even(V32 x, V32 thr, const CubeRounding& r) {
  const D32 d;
  const DU64 du;
  const V32 m = hn::Max(hn::Sub(hn::Abs(x), hn::ShiftLeftSame(thr, r.thr_shift)), hn::Zero(d));
  const DU32 du32;
  const VU64 sq64 =
      hn::ShiftRightSame(hn::Add(hn::MulEven(hn::BitCast(du32, m), hn::BitCast(du32, m)),
                                 hn::Set(du, static_cast<std::uint64_t>(r.sq_add))),
                         r.sq_shift);
  const V64 cube = hn::MulEven(even_low(hn::BitCast(D64(), sq64)), m);
  return sra64(hn::Add(cube, hn::Set(D64(), r.cub_add)), r.cub_shift);
}

// The sum of a vector's 64-bit lanes, added as uint64, where a wrap is
// defined: GCC's AVX-512 reduction (behind SumOfLanes on AVX3) adds the
// lanes as signed integers, an overflow UBSan reports once the sums pass
// 2^63, which the unsigned reference sums may. The bits are the same.
template <class V>
HWY_INLINE std::uint64_t wrapping_lane_sum(V v) {
  const DU64 du;
  HWY_ALIGN std::uint64_t lanes[HWY_MAX_BYTES / sizeof(std::uint64_t)];
  hn::Store(hn::BitCast(du, v), du, lanes);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < hn::Lanes(du); ++i) sum += lanes[i];
  return sum;
}

HWY_INLINE std::int64_t sum_lanes(V64 v) { return static_cast<std::int64_t>(wrapping_lane_sum(v)); }

BandSums MaskedCubes0(DetailRow<std::int16_t> x, const std::int32_t* thr, int begin, int end,
                      const std::array<std::uint16_t, 3>& q, const CubeRoundings& r) {
  const D32 d;
  const int n = static_cast<int>(hn::Lanes(d));
  const std::int16_t* bands[3] = {x.h, x.v, x.d};
  const int vec_end = begin + (end - begin) / n * n;
  BandSums sums{};
  for (int b = 0; b < 3; ++b) {
    const V32 qb = hn::Set(d, q[b]);
    V64 acc = hn::Zero(D64());
    for (int j = begin; j < vec_end; j += n) {
      const V32 c = hn::Mul(qb, load16(bands[b] + j));
      const V32 t = hn::LoadU(d, thr + j);
      acc = hn::Add(acc, masked_cube_even(c, t, r[b]));
      acc = hn::Add(acc, masked_cube_even(hn::DupOdd(c), hn::DupOdd(t), r[b]));
    }
    sums[b] = sum_lanes(acc);
  }
  if (vec_end < end) {
    const BandSums tail = reference::masked_cubes_scale0(x, thr, vec_end, end, q, r);
    for (int b = 0; b < 3; ++b) sums[b] += tail[b];
  }
  return sums;
}

BandSums MaskedCubesN(DetailRow<std::int32_t> x, const std::int32_t* thr, int begin, int end,
                      const std::array<std::uint32_t, 3>& q, const CubeRoundings& r) {
  const D32 d;
  const int n = static_cast<int>(hn::Lanes(d));
  const std::int32_t* bands[3] = {x.h, x.v, x.d};
  const int vec_end = begin + (end - begin) / n * n;
  BandSums sums{};
  for (int b = 0; b < 3; ++b) {
    V64 acc = hn::Zero(D64());
    for (int j = begin; j < vec_end; j += n) {
      const V32 s = hn::LoadU(d, bands[b] + j);
      const V32 t = hn::LoadU(d, thr + j);
      acc = hn::Add(acc, masked_cube_even(weigh_n_even(s, q[b]), t, r[b]));
      acc = hn::Add(acc, masked_cube_even(weigh_n_even(hn::DupOdd(s), q[b]), hn::DupOdd(t), r[b]));
    }
    sums[b] = sum_lanes(acc);
  }
  if (vec_end < end) {
    const BandSums tail = reference::masked_cubes_scale_n(x, thr, vec_end, end, q, r);
    for (int b = 0; b < 3; ++b) sums[b] += tail[b];
  }
  return sums;
}

BandSumsU RefCubes0(DetailRow<std::int16_t> o, int begin, int end) {
  const D32 d;
  const DU32 du32;
  const int n = static_cast<int>(hn::Lanes(d));
  const std::int16_t* bands[3] = {o.h, o.v, o.d};
  const int vec_end = begin + (end - begin) / n * n;
  BandSumsU sums{};
  for (int b = 0; b < 3; ++b) {
    VU64 acc = hn::Zero(DU64());
    for (int j = begin; j < vec_end; j += n) {
      const auto m = hn::BitCast(du32, hn::Abs(load16(bands[b] + j)));  // at most 2^15
      const auto sq = hn::Mul(m, m);                                    // at most 2^30
      acc = hn::Add(acc, hn::MulEven(sq, m));
      acc = hn::Add(acc, hn::MulEven(hn::DupOdd(sq), hn::DupOdd(m)));
    }
    sums[b] = wrapping_lane_sum(acc);
  }
  if (vec_end < end) {
    const BandSumsU tail = reference::ref_cubes_scale0(o, vec_end, end);
    for (int b = 0; b < 3; ++b) sums[b] += tail[b];
  }
  return sums;
}

// ((m^2 + sq_add) >> sq_shift) * m, rounded, for the even lanes of m (as
// uint64, wrapping as the reference does: the first factor may exceed 32
// bits, its high part is multiplied separately).
HWY_INLINE VU64 ref_cube_even(hn::Vec<DU32> m, const RefCubeRounding& r) {
  const DU64 du;
  const DU32 du32;
  const VU64 t = hn::ShiftRightSame(hn::Add(hn::MulEven(m, m), hn::Set(du, r.sq_add)), r.sq_shift);
  const VU64 lo = hn::MulEven(hn::BitCast(du32, t), m);
  const VU64 hi = hn::MulEven(hn::BitCast(du32, hn::ShiftRight<32>(t)), m);
  const VU64 cube = hn::Add(lo, hn::ShiftLeft<32>(hi));
  return hn::ShiftRightSame(hn::Add(cube, hn::Set(du, r.cub_add)), r.cub_shift);
}

BandSumsU RefCubesN(DetailRow<std::int32_t> o, int begin, int end, const RefCubeRounding& r) {
  const D32 d;
  const DU32 du32;
  const int n = static_cast<int>(hn::Lanes(d));
  const std::int32_t* bands[3] = {o.h, o.v, o.d};
  const int vec_end = begin + (end - begin) / n * n;
  BandSumsU sums{};
  for (int b = 0; b < 3; ++b) {
    VU64 acc = hn::Zero(DU64());
    for (int j = begin; j < vec_end; j += n) {
      const auto m = hn::BitCast(du32, hn::Abs(hn::LoadU(d, bands[b] + j)));
      acc = hn::Add(acc, ref_cube_even(m, r));
      acc = hn::Add(acc, ref_cube_even(hn::DupOdd(m), r));
    }
    sums[b] = wrapping_lane_sum(acc);
  }
  if (vec_end < end) {
    const BandSumsU tail = reference::ref_cubes_scale_n(o, vec_end, end, r);
    for (int b = 0; b < 3; ++b) sums[b] += tail[b];
  }
  return sums;
}

#else  // HWY_SCALAR: the reference loops are the scalar code.

void Csf0(DetailRow<std::int16_t> src, int begin, int end, const std::array<std::uint16_t, 3>& q,
          std::int32_t* flt_sum, std::int32_t* ctr_sum) {
  reference::csf_row_scale0(src, begin, end, q, flt_sum, ctr_sum);
}
void CsfN(DetailRow<std::int32_t> src, int begin, int end, const std::array<std::uint32_t, 3>& q,
          std::int32_t* flt_sum, std::int32_t* ctr_sum) {
  reference::csf_row_scale_n(src, begin, end, q, flt_sum, ctr_sum);
}
void Threshold(const std::int32_t* up, const std::int32_t* mid, const std::int32_t* down,
               const std::int32_t* ctr, int begin, int end, std::int32_t* col_scratch,
               std::int32_t* thr) {
  reference::threshold_row(up, mid, down, ctr, begin, end, col_scratch, thr);
}
BandSums MaskedCubes0(DetailRow<std::int16_t> x, const std::int32_t* thr, int begin, int end,
                      const std::array<std::uint16_t, 3>& q, const CubeRoundings& r) {
  return reference::masked_cubes_scale0(x, thr, begin, end, q, r);
}
BandSums MaskedCubesN(DetailRow<std::int32_t> x, const std::int32_t* thr, int begin, int end,
                      const std::array<std::uint32_t, 3>& q, const CubeRoundings& r) {
  return reference::masked_cubes_scale_n(x, thr, begin, end, q, r);
}
BandSumsU RefCubes0(DetailRow<std::int16_t> o, int begin, int end) {
  return reference::ref_cubes_scale0(o, begin, end);
}
BandSumsU RefCubesN(DetailRow<std::int32_t> o, int begin, int end, const RefCubeRounding& r) {
  return reference::ref_cubes_scale_n(o, begin, end, r);
}

#endif

}  // namespace HWY_NAMESPACE
}  // namespace vqx::adm
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::adm {

HWY_EXPORT(Csf0);
HWY_EXPORT(CsfN);
HWY_EXPORT(Threshold);
HWY_EXPORT(MaskedCubes0);
HWY_EXPORT(MaskedCubesN);
HWY_EXPORT(RefCubes0);
HWY_EXPORT(RefCubesN);

void csf_row_scale0(DetailRow<std::int16_t> src, int begin, int end,
                    const std::array<std::uint16_t, 3>& q, std::int32_t* flt_sum,
                    std::int32_t* ctr_sum) {
  HWY_DYNAMIC_DISPATCH(Csf0)(src, begin, end, q, flt_sum, ctr_sum);
}

void csf_row_scale_n(DetailRow<std::int32_t> src, int begin, int end,
                     const std::array<std::uint32_t, 3>& q, std::int32_t* flt_sum,
                     std::int32_t* ctr_sum) {
  HWY_DYNAMIC_DISPATCH(CsfN)(src, begin, end, q, flt_sum, ctr_sum);
}

void threshold_row(const std::int32_t* up, const std::int32_t* mid, const std::int32_t* down,
                   const std::int32_t* ctr, int begin, int end, std::int32_t* col_scratch,
                   std::int32_t* thr) {
  HWY_DYNAMIC_DISPATCH(Threshold)(up, mid, down, ctr, begin, end, col_scratch, thr);
}

BandSums masked_cubes_scale0(DetailRow<std::int16_t> x, const std::int32_t* thr, int begin, int end,
                             const std::array<std::uint16_t, 3>& q, const CubeRoundings& r) {
  return HWY_DYNAMIC_DISPATCH(MaskedCubes0)(x, thr, begin, end, q, r);
}

BandSums masked_cubes_scale_n(DetailRow<std::int32_t> x, const std::int32_t* thr, int begin,
                              int end, const std::array<std::uint32_t, 3>& q,
                              const CubeRoundings& r) {
  return HWY_DYNAMIC_DISPATCH(MaskedCubesN)(x, thr, begin, end, q, r);
}

BandSumsU ref_cubes_scale0(DetailRow<std::int16_t> o, int begin, int end) {
  return HWY_DYNAMIC_DISPATCH(RefCubes0)(o, begin, end);
}

BandSumsU ref_cubes_scale_n(DetailRow<std::int32_t> o, int begin, int end,
                            const RefCubeRounding& r) {
  return HWY_DYNAMIC_DISPATCH(RefCubesN)(o, begin, end, r);
}

}  // namespace vqx::adm
#endif

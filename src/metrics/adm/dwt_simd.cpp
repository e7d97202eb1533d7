// ADM's wavelet rows with explicit SIMD (Highway, compiled for each of its
// targets, chosen once per row): the same integer steps as reference::
// dwt_scale0_row and reference::dwt_scale_n_row (dwt.cpp), on whole vectors.
// A row's last columns are covered by one more vector that ends at the row's
// end (it recomputes a few columns with the same result); rows narrower than
// a vector, 16-bit samples and the scalar target run the reference.
//
// Scale 0: products of 16-bit values summed in pairs into 32 bits (madd on
// x86), which is exact: every tap and every sample (bpc <= 15) or vertical
// sum (at most 27411 in magnitude) fits int16 and no pair sum overflows.
// Scales 1..3: 32 x 32 -> 64-bit products of the even and odd lanes; only the
// low 32 bits of each shifted sum are kept, as the reference's cast does, so
// a logical shift serves.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/adm/dwt_simd.cpp"
#include <array>
#include <cstdint>

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "core/index_math.hpp"
#include "metrics/adm/dwt.hpp"
#include "metrics/adm/params.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::adm {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR

using D16 = hn::ScalableTag<std::int16_t>;
using D32 = hn::Repartition<std::int32_t, D16>;
using D64 = hn::Repartition<std::int64_t, D16>;
using V16 = hn::Vec<D16>;
using V32 = hn::Vec<D32>;
using V64 = hn::Vec<D64>;

// Two taps as the int16 pair (lo, hi) of every 32-bit lane.
HWY_INLINE V16 tap_pair(std::int32_t lo, std::int32_t hi) {
  const auto bits = (static_cast<std::uint32_t>(static_cast<std::uint16_t>(hi)) << 16) |
                    static_cast<std::uint16_t>(lo);
  return hn::BitCast(D16(), hn::Set(D32(), static_cast<std::int32_t>(bits)));
}

// Per 32-bit lane i: a[2i] * b[2i] + a[2i + 1] * b[2i + 1].
HWY_INLINE V32 pair_sums(V16 a, V16 b) {
  const D32 d32;
  V32 odd = hn::Zero(d32);
  const V32 even = hn::ReorderWidenMulAccumulate(d32, a, b, hn::Zero(d32), odd);
  return hn::RearrangeToOddPlusEven(even, odd);
}

HWY_INLINE V16 load_samples(const std::uint8_t* p) {
  return hn::PromoteTo(D16(), hn::LoadU(hn::Rebind<std::uint8_t, D16>(), p));
}
HWY_INLINE V16 load_samples(const std::uint16_t* p) {  // bpc <= 15: fits int16
  return hn::BitCast(D16(), hn::LoadU(hn::RebindToUnsigned<D16>(), p));
}

struct Taps16 {
  V16 l01, l23, h01, h23;
};
HWY_INLINE Taps16 taps16() {
  return {tap_pair(kDb2Lo[0], kDb2Lo[1]), tap_pair(kDb2Lo[2], kDb2Lo[3]),
          tap_pair(kDb2Hi[0], kDb2Hi[1]), tap_pair(kDb2Hi[2], kDb2Hi[3])};
}

// Vertical pass of 16-bit lanes' worth of columns from j. The interleaved
// pairs hold columns in an order per 128-bit block that the saturating pack
// (exact: the values fit int16) restores.
template <typename Sample, bool kDetail>
HWY_INLINE void vertical0_at(const Sample* const rows[4], int j, int bpc, const Taps16& t,
                             std::int32_t lo_bias, std::int32_t hi_bias, std::int16_t* lo,
                             std::int16_t* hi) {
  const D16 d16;
  const D32 d32;
  const V16 x0 = load_samples(rows[0] + j), x1 = load_samples(rows[1] + j);
  const V16 x2 = load_samples(rows[2] + j), x3 = load_samples(rows[3] + j);
  const V16 a01 = hn::InterleaveLower(d16, x0, x1), b01 = hn::InterleaveUpper(d16, x0, x1);
  const V16 a23 = hn::InterleaveLower(d16, x2, x3), b23 = hn::InterleaveUpper(d16, x2, x3);
  auto filter = [&](V16 c01, V16 c23, std::int32_t bias) {
    const V32 sa = hn::Add(hn::Add(pair_sums(a01, c01), pair_sums(a23, c23)), hn::Set(d32, bias));
    const V32 sb = hn::Add(hn::Add(pair_sums(b01, c01), pair_sums(b23, c23)), hn::Set(d32, bias));
    return hn::ReorderDemote2To(d16, hn::ShiftRightSame(sa, bpc), hn::ShiftRightSame(sb, bpc));
  };
  hn::StoreU(filter(t.l01, t.l23, lo_bias), d16, lo + j);
  if constexpr (kDetail) hn::StoreU(filter(t.h01, t.h23, hi_bias), d16, hi + j);
}

// Stores int32 lanes known to fit int16.
HWY_INLINE void store16(V32 v, std::int16_t* p) {
  hn::StoreU(hn::DemoteTo(hn::Rebind<std::int16_t, D32>(), v), hn::Rebind<std::int16_t, D32>(), p);
}

// Horizontal pass of outputs j .. j + lanes: the int16 pairs (x[2j-1], x[2j])
// and (x[2j+1], x[2j+2]) read as 32-bit lanes.
HWY_INLINE V32 horizontal0(V16 p, V16 q, V16 c01, V16 c23) {
  const V32 s =
      hn::Add(hn::Add(pair_sums(p, c01), pair_sums(q, c23)), hn::Set(D32(), kDwt0HorzAdd));
  return hn::ShiftRight<kDwt0HorzShift>(s);
}

template <typename Sample>
void scale0(const Sample* const in_rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
            const Dwt0Row& in_out) {
  // Local copies: vector stores may alias anything, so pointers read through
  // the arguments would be reloaded after each one.
  const Sample* const rows[4] = {in_rows[0], in_rows[1], in_rows[2], in_rows[3]};
  const Dwt0Row out = in_out;
  const D16 d16;
  const D32 d32;
  const int n16 = static_cast<int>(hn::Lanes(d16));
  const int n32 = static_cast<int>(hn::Lanes(d32));
  const int bw = (w + 1) / 2;
  if (bpc > 15 || w < n16 || bw < n32) {
    reference::dwt_scale0_row(rows, w, bpc, tmp, out);
    return;
  }
  const Taps16 t = taps16();
  const Dwt0Bias bias = dwt0_bias(bpc);
  const auto lo_bias = static_cast<std::int32_t>(bias.lo);
  const auto hi_bias = static_cast<std::int32_t>(bias.hi);
  const bool detail = out.v != nullptr;
  for (int j = 0;; j += n16) {
    const int at = j + n16 <= w ? j : w - n16;
    if (detail) {
      vertical0_at<Sample, true>(rows, at, bpc, t, lo_bias, hi_bias, tmp.lo, tmp.hi);
    } else {
      vertical0_at<Sample, false>(rows, at, bpc, t, lo_bias, hi_bias, tmp.lo, tmp.hi);
    }
    if (at + n16 >= w) break;
  }
  pad_reflect101_repeat_end(tmp.lo, w, 1, 2);
  if (detail) pad_reflect101_repeat_end(tmp.hi, w, 1, 2);
  for (int j = 0;; j += n32) {
    const int at = j + n32 <= bw ? j : bw - n32;
    const V16 lp = hn::LoadU(d16, tmp.lo + 2 * at - 1), lq = hn::LoadU(d16, tmp.lo + 2 * at + 1);
    if (out.a16 != nullptr) {
      store16(horizontal0(lp, lq, t.l01, t.l23), out.a16 + at);
    } else {
      hn::StoreU(horizontal0(lp, lq, t.l01, t.l23), d32, out.a + at);
    }
    if (detail) {
      const V16 hp = hn::LoadU(d16, tmp.hi + 2 * at - 1);
      const V16 hq = hn::LoadU(d16, tmp.hi + 2 * at + 1);
      store16(horizontal0(lp, lq, t.h01, t.h23), out.v + at);
      store16(horizontal0(hp, hq, t.l01, t.l23), out.h + at);
      store16(horizontal0(hp, hq, t.h01, t.h23), out.d + at);
    }
    if (at + n32 >= bw) break;
  }
}

// --- Scales 1..3 -------------------------------------------------------------

// Low 32 bits of (sum + add) >> shift for the int64 lanes of even and odd.
HWY_INLINE V32 join_rounded(V64 even, V64 odd, std::int64_t add, int shift) {
  const D32 d32;
  const hn::RebindToUnsigned<D64> du64;
  const V64 a = hn::Set(D64(), add);
  const auto e = hn::ShiftRightSame(hn::BitCast(du64, hn::Add(even, a)), shift);
  const auto o = hn::ShiftRightSame(hn::BitCast(du64, hn::Add(odd, a)), shift);
  return hn::OddEven(hn::BitCast(d32, hn::ShiftLeft<32>(o)), hn::BitCast(d32, e));
}

// Sum of tap[k] * x[k] over the four rows, for the even lanes and the odd lanes.
struct Sums64 {
  V64 even, odd;
};
HWY_INLINE Sums64 vertical_sums(const V32 x[4], const V32 odd_x[4],
                                const std::array<std::int32_t, 4>& taps) {
  const D32 d32;
  V64 e = hn::MulEven(x[0], hn::Set(d32, taps[0]));
  V64 o = hn::MulEven(odd_x[0], hn::Set(d32, taps[0]));
  for (int k = 1; k < 4; ++k) {
    e = hn::Add(e, hn::MulEven(x[k], hn::Set(d32, taps[k])));
    o = hn::Add(o, hn::MulEven(odd_x[k], hn::Set(d32, taps[k])));
  }
  return {e, o};
}

// One output of each of the 64-bit lanes of p = (x[2i-1], x[2i]) and
// q = (x[2i+1], x[2i+2]): tap0 x[2i-1] + tap1 x[2i] + tap2 x[2i+1] + tap3 x[2i+2].
HWY_INLINE V64 horizontal_sum(V32 p, V32 p_odd, V32 q, V32 q_odd,
                              const std::array<std::int32_t, 4>& taps) {
  const D32 d32;
  V64 s = hn::MulEven(p, hn::Set(d32, taps[0]));
  s = hn::Add(s, hn::MulEven(p_odd, hn::Set(d32, taps[1])));
  s = hn::Add(s, hn::MulEven(q, hn::Set(d32, taps[2])));
  return hn::Add(s, hn::MulEven(q_odd, hn::Set(d32, taps[3])));
}

// Outputs at .. at + lanes of the low-pass and the high-pass filter on row x
// (padded): the loads shared by both.
struct BandPair {
  V32 low, high;
};
HWY_INLINE BandPair horizontal_n(const std::int32_t* x, int at, std::int64_t add, int shift) {
  const D32 d32;
  const D64 d64;
  const hn::RebindToUnsigned<D64> du64;
  const int half = static_cast<int>(hn::Lanes(d64));
  const V64 a = hn::Set(d64, add);
  V32 low[2], high[2];
  for (int m = 0; m < 2; ++m) {
    const std::int32_t* base = x + 2 * (at + m * half) - 1;
    const V32 p = hn::LoadU(d32, base), q = hn::LoadU(d32, base + 2);
    const V32 p_odd = hn::DupOdd(p), q_odd = hn::DupOdd(q);
    auto rounded = [&](const std::array<std::int32_t, 4>& taps) {
      const V64 s = hn::Add(horizontal_sum(p, p_odd, q, q_odd, taps), a);
      return hn::BitCast(d32, hn::ShiftRightSame(hn::BitCast(du64, s), shift));
    };
    low[m] = rounded(kDb2Lo);
    high[m] = rounded(kDb2Hi);
  }
  return {hn::ConcatEven(d32, low[1], low[0]), hn::ConcatEven(d32, high[1], high[0])};
}

// Whether every lane fits int16: the vertical sums of such rows fit int32
// (at most 54822 * 2^15 + 2^15), so 32-bit products serve. Scale 1 always
// reads such rows (scale 0's approximation band is at most 27411 in magnitude).
HWY_INLINE bool fit16(const V32 x[4]) {
  const D32 d32;
  auto fits = [&](V32 v) { return hn::Eq(v, hn::ShiftRight<16>(hn::ShiftLeft<16>(v))); };
  return hn::AllTrue(d32,
                     hn::And(hn::And(fits(x[0]), fits(x[1])), hn::And(fits(x[2]), fits(x[3]))));
}

HWY_INLINE V32 vertical_sum32(const V32 x[4], const std::array<std::int32_t, 4>& taps,
                              std::int32_t add, int shift) {
  const D32 d32;
  V32 s = hn::Mul(x[0], hn::Set(d32, taps[0]));
  for (int k = 1; k < 4; ++k) s = hn::Add(s, hn::Mul(x[k], hn::Set(d32, taps[k])));
  return hn::ShiftRightSame(hn::Add(s, hn::Set(d32, add)), shift);
}

HWY_INLINE V32 load_row(const std::int32_t* p) { return hn::LoadU(D32(), p); }
HWY_INLINE V32 load_row(const std::int16_t* p) {
  return hn::PromoteTo(D32(), hn::LoadU(hn::Rebind<std::int16_t, D32>(), p));
}

// Src: int32_t, or int16_t for scale 1 from Dwt0Row::a16 (whose rows always
// take the 32-bit vertical path).
template <typename Src>
void scale_n(const Src* const in_rows[4], int w, int scale, DwtScratch<std::int32_t> tmp,
             const DwtNRow& in_out) {
  // Local copies (see scale0).
  const Src* const rows[4] = {in_rows[0], in_rows[1], in_rows[2], in_rows[3]};
  const DwtNRow out = in_out;
  const D32 d32;
  const int n = static_cast<int>(hn::Lanes(d32));
  const int bw = (w + 1) / 2;
  if (w < n || bw < n) {
    if constexpr (sizeof(Src) == 2) {
      reference::dwt_scale1_row(rows, w, tmp, out);
    } else {
      reference::dwt_scale_n_row(rows, w, scale, tmp, out);
    }
    return;
  }
  const DwtRounding rounding = dwt_rounding(scale);
  const auto vadd32 = static_cast<std::int32_t>(rounding.vert_add);
  for (int j = 0;; j += n) {
    const int at = j + n <= w ? j : w - n;
    V32 x[4];
    for (int k = 0; k < 4; ++k) x[k] = load_row(rows[k] + at);
    if (sizeof(Src) == 2 || fit16(x)) {
      hn::StoreU(vertical_sum32(x, kDb2Lo, vadd32, rounding.vert_shift), d32, tmp.lo + at);
      hn::StoreU(vertical_sum32(x, kDb2Hi, vadd32, rounding.vert_shift), d32, tmp.hi + at);
    } else {
      V32 odd_x[4];
      for (int k = 0; k < 4; ++k) odd_x[k] = hn::DupOdd(x[k]);
      const Sums64 lo = vertical_sums(x, odd_x, kDb2Lo);
      const Sums64 hi = vertical_sums(x, odd_x, kDb2Hi);
      hn::StoreU(join_rounded(lo.even, lo.odd, rounding.vert_add, rounding.vert_shift), d32,
                 tmp.lo + at);
      hn::StoreU(join_rounded(hi.even, hi.odd, rounding.vert_add, rounding.vert_shift), d32,
                 tmp.hi + at);
    }
    if (at + n >= w) break;
  }
  pad_reflect101_repeat_end(tmp.lo, w, 1, 2);
  pad_reflect101_repeat_end(tmp.hi, w, 1, 2);
  const std::int64_t hadd = rounding.horz_add;
  const int hsh = rounding.horz_shift;
  for (int j = 0;; j += n) {
    const int at = j + n <= bw ? j : bw - n;
    const BandPair from_lo = horizontal_n(tmp.lo, at, hadd, hsh);
    const BandPair from_hi = horizontal_n(tmp.hi, at, hadd, hsh);
    if (out.a != nullptr) hn::StoreU(from_lo.low, d32, out.a + at);
    hn::StoreU(from_lo.high, d32, out.v + at);
    hn::StoreU(from_hi.low, d32, out.h + at);
    hn::StoreU(from_hi.high, d32, out.d + at);
    if (at + n >= bw) break;
  }
}

#else  // HWY_SCALAR: the reference loops are the scalar code.

template <typename Sample>
void scale0(const Sample* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
            const Dwt0Row& out) {
  reference::dwt_scale0_row(rows, w, bpc, tmp, out);
}

void scale_n(const std::int32_t* const rows[4], int w, int scale, DwtScratch<std::int32_t> tmp,
             const DwtNRow& out) {
  reference::dwt_scale_n_row(rows, w, scale, tmp, out);
}

void scale_n(const std::int16_t* const rows[4], int w, int /*scale*/, DwtScratch<std::int32_t> tmp,
             const DwtNRow& out) {
  reference::dwt_scale1_row(rows, w, tmp, out);
}

#endif

void Dwt0U8(const std::uint8_t* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
            const Dwt0Row& out) {
  scale0(rows, w, bpc, tmp, out);
}

void Dwt0U16(const std::uint16_t* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
             const Dwt0Row& out) {
  scale0(rows, w, bpc, tmp, out);
}

void DwtN(const std::int32_t* const rows[4], int w, int scale, DwtScratch<std::int32_t> tmp,
          const DwtNRow& out) {
  scale_n(rows, w, scale, tmp, out);
}

void Dwt1From16(const std::int16_t* const rows[4], int w, DwtScratch<std::int32_t> tmp,
                const DwtNRow& out) {
  scale_n(rows, w, 1, tmp, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace vqx::adm
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::adm {

HWY_EXPORT(Dwt0U8);
HWY_EXPORT(Dwt0U16);
HWY_EXPORT(DwtN);
HWY_EXPORT(Dwt1From16);

void dwt_scale0_row(const std::uint8_t* const rows[4], int w, int bpc, DwtScratch<std::int16_t> tmp,
                    const Dwt0Row& out) {
  HWY_DYNAMIC_DISPATCH(Dwt0U8)(rows, w, bpc, tmp, out);
}

void dwt_scale0_row(const std::uint16_t* const rows[4], int w, int bpc,
                    DwtScratch<std::int16_t> tmp, const Dwt0Row& out) {
  HWY_DYNAMIC_DISPATCH(Dwt0U16)(rows, w, bpc, tmp, out);
}

void dwt_scale_n_row(const std::int32_t* const rows[4], int w, int scale,
                     DwtScratch<std::int32_t> tmp, const DwtNRow& out) {
  HWY_DYNAMIC_DISPATCH(DwtN)(rows, w, scale, tmp, out);
}

void dwt_scale1_row(const std::int16_t* const rows[4], int w, DwtScratch<std::int32_t> tmp,
                    const DwtNRow& out) {
  HWY_DYNAMIC_DISPATCH(Dwt1From16)(rows, w, tmp, out);
}

}  // namespace vqx::adm
#endif

// Integer VIF's row kernels (simd.hpp) in Highway's portable vectors,
// compiled for each of its x86 targets and chosen at run time. The same
// integer steps as the reference forms (simd_reference.cpp), the same
// double operations in the same order; tests/unit/vif_simd_test.cpp holds
// every target to them. Highway's scalar target runs the reference forms.
//
// The integer tricks that keep the bits:
//  * 16-bit values (biased into int16) are filtered with pairwise 16-bit
//    multiply-adds (ReorderWidenMulAccumulate, pmaddwd on x86): vertically
//    the rows of taps k and 2 * half - k interleaved, times (t_k, t_k);
//    horizontally the row read once per vector at even offsets, times the
//    tap pairs (t_2m, t_2m+1) for the even output columns and (t_2m-1,
//    t_2m) for the odd ones (on AVX-512 and AVX2 the shifted vectors made
//    from the row's aligned neighbours: Window);
//  * the 32-bit products of 8-bit samples: pairwise multiply-adds of the
//    samples with themselves (x_a^2 + x_b^2), times the tap; on AVX-512
//    from samples centred on 128 (Vertical8), whose squares and products
//    are int16, filtered like the means;
//  * 8-bit samples of two rows that share a tap added before the multiply
//    (the downsampling's vertical pass: at most 510, an int16);
//  * past the horizontal pass every column is a separate pixel of a sum,
//    so the even and odd columns are never put back in order;
//  * the statistics of a vector of pixels skip what none of its pixels
//    needs (PixelStats: all flat, or no gain term), which is what every
//    lane would have masked to 0;
//  * the log2 table read by plain loads (table_sums.cpp) of the indices
//    stored for the row's non-flat vectors; on AVX-512 its entries are
//    computed in the vectors instead (Log2Entries), every one of them
//    tested equal to the table's.
//
// Besides Highway's default targets this file is compiled for AVX3_DL
// (AVX-512 with VNNI, as on Intel's Ice Lake and later and AMD's Zen 4 and
// later), whose vpdpwssd adds a pairwise multiply to a sum in one
// instruction (MulPairsAdd); tests/unit/vif_simd_test.cpp asks for the same
// target, so that it runs it too. Highway grants AVX3_DL only with the
// whole of its group (VNNI, VAES, VPCLMULQDQ, GFNI, VBMI2, ...), which some
// virtual machines report in part: for CPUs with AVX512_VNNI but without
// AVX3_DL, simd_avx3_vnni.cpp compiles this file once more, for AVX3 with
// MulPairsAdd as vpdpwssd (VQX_VIF_AVX3_VNNI, its kernels in the
// namespace avx3_vnni), and the dispatch below calls those.
#ifndef HWY_WANT_AVX3_DL
#define HWY_WANT_AVX3_DL 1
#endif
#ifndef VQX_VIF_AVX3_VNNI
#define VQX_VIF_AVX3_VNNI 0
#endif
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/vif/simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <numbers>
#include <type_traits>
#include <utility>

#include "core/index_math.hpp"
#include "metrics/vif/simd.hpp"

// The AVX-512 targets, with and without VNNI.
#define VQX_VIF_AVX512 (HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL)
// Whether MulPairsAdd is vpdpwssd.
#define VQX_VIF_VNNI (HWY_TARGET == HWY_AVX3_DL || (HWY_TARGET == HWY_AVX3 && VQX_VIF_AVX3_VNNI))

HWY_BEFORE_NAMESPACE();
namespace vqx::vif::simd {
#if VQX_VIF_AVX3_VNNI
namespace avx3_vnni {
#endif
namespace HWY_NAMESPACE {

#if HWY_TARGET == HWY_SCALAR

// One-lane vectors cannot be interleaved or read as pairs: the plain forms.
void Vertical8(const Taps8& taps, std::size_t n, std::int16_t* const* out) {
  reference::vertical_8bit(taps, n, out);
}
void Prepare16(const std::uint16_t* ref, const std::uint16_t* dis, std::size_t n,
               std::int16_t* const* out) {
  reference::prepare_16bit(ref, dis, n, out);
}
void Vertical16(int scale, const Taps16* taps, int rows, std::size_t n, Rounding means,
                Rounding squares, std::int16_t* const* out) {
  reference::vertical_16bit(scale, taps, rows, n, means, squares, out);
}
void RowStats(int scale, const std::int16_t* const* planes, unsigned w, double gain_limit,
              const std::uint16_t* lut, std::uint16_t* /*scratch*/, RowSums& sums) {
  reference::row_stats(scale, planes, w, gain_limit, lut, sums);
}
void Downsample8(const std::uint8_t* const* rows, unsigned w, Rounding vertical, std::int16_t* conv,
                 std::uint16_t* out) {
  reference::downsample_8bit(rows, w, vertical, conv, out);
}
void Log2Q11Values(const std::uint16_t* lut, const double* v, std::size_t n, std::int32_t* out) {
  reference::log2_q11(lut, v, n, out);
}
void Downsample16(int filter, const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                  std::int16_t* conv, std::uint16_t* out) {
  reference::downsample_16bit(filter, rows, w, vertical, conv, out);
}

#else

namespace hn = hwy::HWY_NAMESPACE;

using D16 = hn::ScalableTag<std::int16_t>;
using DU16 = hn::RebindToUnsigned<D16>;
using D32 = hn::Repartition<std::int32_t, D16>;
using DU32 = hn::RebindToUnsigned<D32>;
using DU64 = hn::Repartition<std::uint64_t, D16>;
using V16 = hn::Vec<D16>;
using V32 = hn::Vec<D32>;
using VU32 = hn::Vec<DU32>;

// Lane i: a[2i] * b[2i] + a[2i + 1] * b[2i + 1], in 32 bits.
HWY_INLINE V32 MulPairs(V16 a, V16 b) {
  const D32 d32;
  V32 odd = hn::Zero(d32);
  const V32 even = hn::ReorderWidenMulAccumulate(d32, a, b, hn::Zero(d32), odd);
  return hn::RearrangeToOddPlusEven(even, odd);
}

// sum + MulPairs(a, b): on AVX3_DL (and AVX3 in simd_avx3_vnni.cpp) one
// vpdpwssd. Highway 1.0 compiles that target without GCC's avx512vnni (it
// names the VEX form, avxvnni), though its run-time check asks for
// AVX512_VNNI (CPUID.7.0:ECX[11]), so the instruction is written out.
HWY_INLINE V32 MulPairsAdd(V32 sum, V16 a, V16 b) {
#if VQX_VIF_VNNI
  __m512i s = sum.raw;
  asm("vpdpwssd %2, %1, %0" : "+v"(s) : "v"(a.raw), "v"(b.raw));
  return V32{s};
#else
  return hn::Add(sum, MulPairs(a, b));
#endif
}

// (a, b) as the int16 pair of every 32-bit lane.
HWY_INLINE V16 PairOf(std::uint32_t a, std::uint32_t b) {
  return hn::BitCast(D16(), hn::Set(DU32(), (b << 16) | a));
}

// A filtered biased sum back to the sum (modulo 2^32: taps sum to 2^16).
HWY_INLINE VU32 Unbias(V32 v) {
  return hn::BitCast(DU32(), hn::Add(v, hn::Set(D32(), std::numeric_limits<std::int32_t>::min())));
}

// 32-bit lanes v < 2^16, from two vectors of interleaved halves (lower,
// upper), biased and stored as int16 in column order: the demotion of two
// vectors undoes the interleaving block by block.
HWY_INLINE void StoreBiased(VU32 lower, VU32 upper, std::int16_t* dst) {
  const D32 d32;
  const auto bias = hn::Set(d32, kBias);
  const V32 l = hn::Sub(hn::BitCast(d32, lower), bias);
  const V32 u = hn::Sub(hn::BitCast(d32, upper), bias);
  hn::StoreU(hn::ReorderDemote2To(D16(), l, u), D16(), dst);
}

// A 32-bit moment as its two biased halves.
HWY_INLINE void StoreMoment(VU32 lower, VU32 upper, std::int16_t* hi, std::int16_t* lo,
                            std::size_t j) {
  const DU32 du32;
  const auto low_bits = hn::Set(du32, 0xffffU);
  StoreBiased(hn::ShiftRight<16>(lower), hn::ShiftRight<16>(upper), hi + j);
  StoreBiased(hn::And(lower, low_bits), hn::And(upper, low_bits), lo + j);
}

// On AVX-512 the samples are centred, c = x - 128 (|c| <= 128), so that the
// squares and products fit 16 bits (|c c'| <= 16384) and are filtered by
// pairwise multiply-adds like the means, not as 32-bit x_a^2 + x_b^2 times
// the tap (a 32-bit multiply: two instructions on Intel's cores, whose two
// 512-bit ports bound this loop). With the taps summing to 2^16 the plain
// sums follow, modulo 2^32:
//   sum t x   = sum t c + 128 * 2^16,
//   sum t x^2 = sum t c^2 + 256 sum t c + 128^2 * 2^16,
//   sum t x y = sum t c d + 128 (sum t c + sum t d) + 128^2 * 2^16.
// The other targets keep the 32-bit multiplies: centring cost the AVX2
// paths 4 % of VIF on Zen 5 (docs/performance.md).
void Vertical8(const Taps8& taps, std::size_t n, std::int16_t* const* out) {
  const D16 d16;
  const DU16 du16;
  const hn::Rebind<std::uint8_t, DU16> d8;
  const D32 d32;
  const DU32 du32;
  constexpr bool kCentred = VQX_VIF_AVX512;
  constexpr int kHalf = kFilters[0].half;
  constexpr int kCentreBits = 7;
  constexpr std::int16_t kCentre = kCentred ? 1 << kCentreBits : 0;
  const std::uint16_t* t = kFilters[0].taps.data();
  const Rounding means = mean_rounding(0, 8);
  const std::size_t lanes = hn::Lanes(d16);
  const V16 centre = hn::Set(d16, kCentre);
  for (std::size_t j = 0; j < n; j += lanes) {
    V32 mu1l = hn::Zero(d32), mu1u = mu1l, mu2l = mu1l, mu2u = mu1l;
    V32 xxl = mu1l, xxu = mu1l, yyl = mu1l, yyu = mu1l, xyl = mu1l, xyu = mu1l;
    for (int k = 0; k <= kHalf; ++k) {
      // Rows k and 2 * half - k share tap k; the centre row pairs with a
      // sample whose centred value is 0.
      const auto load = [&](const std::uint8_t* row) {
        return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, row + j)));
      };
      const V16 xa = load(taps.ref[k]);
      const V16 ya = load(taps.dis[k]);
      const V16 xb = k == kHalf ? centre : load(taps.ref[2 * kHalf - k]);
      const V16 yb = k == kHalf ? centre : load(taps.dis[2 * kHalf - k]);
      const auto centred = [&](V16 v) { return kCentred ? hn::Sub(v, centre) : v; };
      const V16 xl = centred(hn::InterleaveLower(d16, xa, xb));
      const V16 xu = centred(hn::InterleaveUpper(d16, xa, xb));
      const V16 yl = centred(hn::InterleaveLower(d16, ya, yb));
      const V16 yu = centred(hn::InterleaveUpper(d16, ya, yb));
      const V16 tt = PairOf(t[k], t[k]);
      mu1l = MulPairsAdd(mu1l, xl, tt);
      mu1u = MulPairsAdd(mu1u, xu, tt);
      mu2l = MulPairsAdd(mu2l, yl, tt);
      mu2u = MulPairsAdd(mu2u, yu, tt);
      // c c' t summed in pairs; else x_a x'_a + x_b x'_b < 2^17 times the
      // tap, below 2^32 in all (wrapping in the int32 lanes).
      const V32 tk = hn::Set(d32, t[k]);
      const auto term = [&](V32 sum, V16 a, V16 b) {
        return kCentred ? MulPairsAdd(sum, hn::Mul(a, b), tt)
                        : hn::Add(sum, hn::Mul(tk, MulPairs(a, b)));
      };
      xxl = term(xxl, xl, xl);
      xxu = term(xxu, xu, xu);
      yyl = term(yyl, yl, yl);
      yyu = term(yyu, yu, yu);
      xyl = term(xyl, xl, yl);
      xyu = term(xyu, xu, yu);
    }
    const auto u32 = [&](V32 v) { return hn::BitCast(du32, v); };
    const VU32 square_bias = hn::Set(du32, std::uint32_t(kCentre * kCentre) << kTapBits);
    const auto square = [&](V32 cc, V32 c) {
      if constexpr (!kCentred) return u32(cc);
      return hn::Add(hn::Add(u32(cc), hn::ShiftLeft<kCentreBits + 1>(u32(c))), square_bias);
    };
    const auto product = [&](V32 cd, V32 c, V32 d) {
      if constexpr (!kCentred) return u32(cd);
      return hn::Add(hn::Add(u32(cd), hn::ShiftLeft<kCentreBits>(u32(hn::Add(c, d)))), square_bias);
    };
    const VU32 add = hn::Set(du32, means.add + (std::uint32_t(kCentre) << kTapBits));
    const auto round = [&](V32 c) { return hn::ShiftRightSame(hn::Add(u32(c), add), means.shift); };
    StoreBiased(round(mu1l), round(mu1u), out[kMu1] + j);
    StoreBiased(round(mu2l), round(mu2u), out[kMu2] + j);
    StoreMoment(square(xxl, mu1l), square(xxu, mu1u), out[kXxHi], out[kXxLo], j);
    StoreMoment(square(yyl, mu2l), square(yyu, mu2u), out[kYyHi], out[kYyLo], j);
    StoreMoment(product(xyl, mu1l, mu2l), product(xyu, mu1u, mu2u), out[kXyHi], out[kXyLo], j);
  }
}

void Prepare16(const std::uint16_t* ref, const std::uint16_t* dis, std::size_t n,
               std::int16_t* const* out) {
  const DU16 du16;
  const D16 d16;
  const auto flip = hn::Set(du16, 0x8000);  // v - 2^15 as int16: the top bit flipped
  const auto store = [&](hn::Vec<DU16> v, std::int16_t* dst) {
    hn::StoreU(hn::BitCast(d16, hn::Xor(v, flip)), d16, dst);
  };
  for (std::size_t j = 0; j < n; j += hn::Lanes(du16)) {
    const auto x = hn::LoadU(du16, ref + j);
    const auto y = hn::LoadU(du16, dis + j);
    store(x, out[0] + j);
    store(y, out[1] + j);
    store(hn::MulHigh(x, x), out[2] + j);
    store(hn::Mul(x, x), out[3] + j);
    store(hn::MulHigh(y, y), out[4] + j);
    store(hn::Mul(y, y), out[5] + j);
    store(hn::MulHigh(x, y), out[6] + j);
    store(hn::Mul(x, y), out[7] + j);
  }
}

// The vertical filter of one prepared plane at columns j..: the sums of
// the interleaved lower and upper halves of the block.
template <int Scale>
HWY_INLINE void VerticalPlane(const std::int16_t* const* rows, std::size_t j, VU32& lower,
                              VU32& upper) {
  const D16 d16;
  const D32 d32;
  constexpr int kHalf = kFilters[Scale].half;
  const std::uint16_t* t = kFilters[Scale].taps.data();
  V32 l = hn::Zero(d32), u = l;
  for (int k = 0; k <= kHalf; ++k) {
    // The centre row pairs with itself, its tap split in two halves (scale
    // 3's, 43728, is no int16).
    const V16 a = hn::LoadU(d16, rows[k] + j);
    const V16 b = k == kHalf ? a : hn::LoadU(d16, rows[2 * kHalf - k] + j);
    const V16 tt = k == kHalf ? PairOf(t[k] / 2, t[k] - t[k] / 2) : PairOf(t[k], t[k]);
    l = MulPairsAdd(l, hn::InterleaveLower(d16, a, b), tt);
    u = MulPairsAdd(u, hn::InterleaveUpper(d16, a, b), tt);
  }
  // Each tap's biased sample taken once in all.
  lower = Unbias(l);
  upper = Unbias(u);
}

// kRows output rows, side by side a vector of columns at a time.
template <int Scale, int kRows>
void Vertical16T(const Taps16* taps, std::size_t n, Rounding means, Rounding squares,
                 std::int16_t* const* out) {
  const DU32 du32;
  const VU32 mean_add = hn::Set(du32, means.add);
  const VU32 square_add = hn::Set(du32, squares.add);
  const int up = kTapBits - squares.shift;
  for (std::size_t j = 0; j < n; j += hn::Lanes(D16())) {
    for (int r = 0; r < kRows; ++r) {
      std::int16_t* const* row_out = out + r * kRowPlanes;
      VU32 l, u;
      for (int p = 0; p < 2; ++p) {
        VerticalPlane<Scale>(taps[r].rows[p], j, l, u);
        StoreBiased(hn::ShiftRightSame(hn::Add(l, mean_add), means.shift),
                    hn::ShiftRightSame(hn::Add(u, mean_add), means.shift), row_out[kMu1 + p] + j);
      }
      for (int m = 0; m < 3; ++m) {
        VU32 hl, hu;
        VerticalPlane<Scale>(taps[r].rows[2 + 2 * m], j, hl, hu);
        VerticalPlane<Scale>(taps[r].rows[3 + 2 * m], j, l, u);
        // (hi * 2^16 + lo + add) >> shift modulo 2^32, hi's part exact.
        const auto combine = [&](VU32 hi, VU32 lo) {
          return hn::Add(hn::ShiftLeftSame(hi, up),
                         hn::ShiftRightSame(hn::Add(lo, square_add), squares.shift));
        };
        StoreMoment(combine(hl, l), combine(hu, u), row_out[kXxHi + 2 * m], row_out[kXxLo + 2 * m],
                    j);
      }
    }
  }
}

template <int Scale>
void Vertical16Rows(const Taps16* taps, int rows, std::size_t n, Rounding means, Rounding squares,
                    std::int16_t* const* out) {
  // kRows from 1 to kVerticalRows, chosen once a call.
  [&]<int... kR>(std::integer_sequence<int, kR...>) {
    ((rows == kR + 1 ? Vertical16T<Scale, kR + 1>(taps, n, means, squares, out) : void()), ...);
  }
  (std::make_integer_sequence<int, kVerticalRows>());
}

void Vertical16(int scale, const Taps16* taps, int rows, std::size_t n, Rounding means,
                Rounding squares, std::int16_t* const* out) {
  switch (scale) {
    case 0:
      return Vertical16Rows<0>(taps, rows, n, means, squares, out);
    case 1:
      return Vertical16Rows<1>(taps, rows, n, means, squares, out);
    case 2:
      return Vertical16Rows<2>(taps, rows, n, means, squares, out);
    default:
      return Vertical16Rows<3>(taps, rows, n, means, squares, out);
  }
}

// The per-lane sums of one row, reduced at its end.
struct RowLanes {
  V32 num_log, den_log, den_lin;  // den_lin counts down (masks are -1)
  hn::Vec<hn::Repartition<std::int64_t, D16> > num_lin;
};

// (a * b + 2^31) >> 32 of 32-bit lanes.
HWY_INLINE VU32 MeanProduct(VU32 a, VU32 b) {
  const DU32 du32;
  const DU64 du64;
  const auto half = hn::Set(du64, 0x80000000ULL);
  const auto even = hn::Add(hn::MulEven(a, b), half);
  const auto odd = hn::Add(hn::MulEven(hn::BitCast(du32, hn::ShiftRight<32>(hn::BitCast(du64, a))),
                                       hn::BitCast(du32, hn::ShiftRight<32>(hn::BitCast(du64, b)))),
                           half);
  return hn::OddEven(hn::BitCast(du32, odd), hn::BitCast(du32, hn::ShiftRight<32>(even)));
}

// The top bits of doubles that hold positive integers: bits >> 37 (52 - 15) keeps
// the biased exponent (above bit 15) and the 15 fraction bits of the log2
// table index, as 32-bit lanes in the order of the halves.
template <class DF>
HWY_INLINE VU32 TopBits(DF df, hn::Vec<DF> lower, hn::Vec<DF> upper) {
  const hn::RebindToUnsigned<DF> du64;
  constexpr int kShift = kDoubleMantissaBits - (kLog2TableBits - 1);
  const auto lo = hn::ShiftRight<kShift>(hn::BitCast(du64, lower));
  const auto hi = hn::ShiftRight<kShift>(hn::BitCast(du64, upper));
  (void)df;
  // The low halves of the 64-bit lanes: the even 32-bit lanes.
  return hn::ConcatEven(DU32(), hn::BitCast(DU32(), hi), hn::BitCast(DU32(), lo));
}

// The whole part (the biased exponent << 11, the callers take the biases
// off) and the table index (the top 16 bits) of top bits from TopBits.
// Less kWholeBias, the whole part is 2048 * (floor(log2 v) - 15), to which
// the table's entry (2048 * log2 of the index) adds the rest.
constexpr std::int32_t kWholeBias = (kDoubleExponentBias + kLog2TableBits - 1) << kLogFracBits;
struct Log2Q11 {
  V32 whole;
  VU32 index;
};
HWY_INLINE Log2Q11 Log2Of(VU32 top) {
  const DU32 du32;
  const auto index = hn::Or(hn::And(top, hn::Set(du32, 0x7fffU)), hn::Set(du32, 0x8000U));
  return {hn::BitCast(D32(), hn::ShiftLeft<kLogFracBits>(hn::ShiftRight<15>(top))), index};
}

#if VQX_VIF_AVX512
// On AVX-512 the table's entries are computed in the vectors rather than
// loaded (Log2Entries); elsewhere the indices are stored and the entries
// loaded by table_sums.cpp.
constexpr bool kVectorLog2 = true;

// The log2 table's entries (log2_q11_table(): round(float(log2 i) * 2048),
// i the top 16 significant bits) of doubles holding positive integers,
// computed: x = i / 2^15 in [1, 2), c the centre of x's sixteenth of [1, 2),
// log2 x = log2 c + log2(1 + r), r = x / c - 1 (|r| <= 1/33) taken to r^3
// by its series; log2 i rounded to a multiple of 2^-20 (a float's step in
// [15, 16]), then to Q11 half up. The input is the 15 bits of i alone, so
// the exhaustive test (tests/unit/vif_simd_test.cpp,
// Log2EntriesEqualTheTable) proves every entry on every target. The cubic's
// error (up to 3e-7) exceeds the 7.4e-9 by which log2 x comes near a
// rounding point (at i = 61340), so it is exact by where its values fall,
// not by its error bound: the closest computed value lies 0.028 of a 2^-20
// step (2.7e-8) from a rounding point that changes an entry, about 10^8
// times what a last-bit difference in the segment constants (std::log2)
// moves it. The fifth degree, exact by its bound, took two more
// multiply-adds for each of the six halves of a vector's three log2s
// (docs/performance.md, "VIF's log2 entries by a cubic").
constexpr int kLog2SegmentBits = 4;
constexpr int kLog2Segments = 1 << kLog2SegmentBits;  // two vectors of doubles
constexpr int kLog2Degree = 3;
struct Log2Segments {
  alignas(64) double inverse[kLog2Segments];  // 1 / c
  alignas(64) double log2_centre[kLog2Segments];
};
inline const Log2Segments& log2_segments() {
  static const Log2Segments s = [] {
    Log2Segments t{};
    for (int k = 0; k < kLog2Segments; ++k) {
      const double c = 1.0 + (k + 0.5) / kLog2Segments;
      t.inverse[k] = 1.0 / c;
      t.log2_centre[k] = std::log2(c);
    }
    return t;
  }();
  return s;
}

// A 16-entry table of doubles (two vectors) read at the low 4 bits of each
// lane of `index` (vpermt2pd ignores the bits above them).
HWY_INLINE __m512d Lookup16(const double* table, __m512i index) {
  return _mm512_permutex2var_pd(_mm512_load_pd(table), index, _mm512_load_pd(table + 8));
}

template <class DF>
HWY_INLINE hn::Vec<DF> Log2Fraction(DF df, hn::Vec<DF> v, const Log2Segments& seg) {
  const hn::RebindToUnsigned<DF> du64;
  static_assert(hn::MaxLanes(DF()) * 2 == kLog2Segments);
  constexpr int kIndexShift = kDoubleMantissaBits - (kLog2TableBits - 1);
  constexpr std::uint64_t kIndexBits = ((std::uint64_t{1} << (kLog2TableBits - 1)) - 1)
                                       << kIndexShift;
  constexpr std::uint64_t kOne = std::uint64_t{kDoubleExponentBias} << kDoubleMantissaBits;
  const auto bits = hn::BitCast(du64, v);
  const auto x =
      hn::BitCast(df, hn::Or(hn::And(bits, hn::Set(du64, kIndexBits)), hn::Set(du64, kOne)));
  const __m512i segment =
      hn::ShiftRight<kDoubleMantissaBits - kLog2SegmentBits>(bits).raw;  // above: ignored
  const hn::Vec<DF> inverse{Lookup16(seg.inverse, segment)};
  const hn::Vec<DF> centre{Lookup16(seg.log2_centre, segment)};
  const auto r = hn::MulAdd(x, inverse, hn::Set(df, -1.0));
  // log2(1 + r) = sum (-1)^(n+1) r^n / (n ln 2), n = 1 .. kLog2Degree.
  const auto coefficient = [](int n) {
    return (n % 2 == 1 ? 1.0 : -1.0) / (n * std::numbers::ln2);
  };
  auto q = hn::Set(df, coefficient(kLog2Degree));
  for (int n = kLog2Degree - 1; n >= 1; --n) q = hn::MulAdd(r, q, hn::Set(df, coefficient(n)));
  return hn::MulAdd(r, q, centre);
}

// The entries of two vectors of doubles, as 32-bit lanes in the order of
// the halves (TopBits').
template <class DF>
HWY_INLINE V32 Log2Entries(DF df, hn::Vec<DF> lower, hn::Vec<DF> upper) {
  const Log2Segments& seg = log2_segments();
  // log2 x * 2^20 + 1.5 * 2^52: rounded to a whole number, whose low 32
  // bits are the number. (2^-20 is a float's step in [8, 16), where the
  // table's float log2 of an index lies.)
  constexpr int kFloatStepBits = 20;
  constexpr double kSteps = 1 << kFloatStepBits;
  constexpr double kRound = 0x1.8p52;  // 1.5 * 2^52
  const auto steps = hn::Set(df, kSteps);
  const auto round = hn::Set(df, kRound);
  const auto lo = hn::MulAdd(Log2Fraction(df, lower, seg), steps, round);
  const auto hi = hn::MulAdd(Log2Fraction(df, upper, seg), steps, round);
  const DU32 du32;
  const VU32 r = hn::ConcatEven(du32, hn::BitCast(du32, hi), hn::BitCast(du32, lo));
  // 2^20 steps to 2^11, half up; plus the whole 15 of i's log2.
  constexpr int kDrop = kFloatStepBits - kLogFracBits;
  const VU32 q11 = hn::ShiftRight<kDrop>(hn::Add(r, hn::Set(du32, 1U << (kDrop - 1))));
  return hn::Add(hn::BitCast(D32(), q11), hn::Set(D32(), (kLog2TableBits - 1) << kLogFracBits));
}
#else
constexpr bool kVectorLog2 = false;
#endif

// The table indices of the row's lookups, kept only for the vectors of
// pixels that have a term of their kind (index 0, whose entry is 0, in the
// lanes that have none): den counts informative vectors, num those with a
// gain term (an index of the signal's log2 and one of the noise's each).
// An index a 32-bit lane, as the vectors hold it: the plain loops that sum
// the entries then read each with one load (16-bit indices packed in
// words took them half as many again instructions).
struct IndexRows {
  std::uint32_t* den;
  std::uint32_t* signal;
  std::uint32_t* noise;
  std::size_t den_count;
  std::size_t num_count;
};
HWY_INLINE void StoreIndices(hn::Mask<D32> m, VU32 index, std::uint32_t* dst) {
  hn::StoreU(hn::IfThenElseZero(hn::RebindMask(DU32(), m), index), DU32(), dst);
}

// The statistics of one vector of pixels (the reference's row_stats, per
// lane): sigma1^2, sigma2^2, sigma12 and which lanes are pixels. A vector
// whose pixels are all flat (or past the width) adds its linear sums only,
// and one without a gain term skips the gain's double arithmetic: the
// terms they skip are those every lane would have masked to 0.
HWY_INLINE void PixelStats(V32 s11, V32 s22, V32 s12, hn::Mask<D32> valid, double gain_limit,
                           IndexRows& rows, RowLanes& acc) {
  const D32 d32;
  const hn::Repartition<double, D16> df;
  const hn::Rebind<std::int32_t, decltype(df)> d32h;
  const hn::Repartition<std::int64_t, D16> d64;
  const V32 nsq = hn::Set(d32, kSigmaNsq);
  const auto flat = hn::And(valid, hn::Lt(s11, nsq));
  const auto informative = hn::AndNot(flat, valid);
  const auto zero = hn::Zero(d32);

  // The flat pixels' linear sums.
  const V32 lin = hn::IfThenElseZero(flat, s22);
  acc.num_lin = hn::Add(acc.num_lin, hn::PromoteTo(d64, hn::LowerHalf(lin)));
  acc.num_lin = hn::Add(acc.num_lin, hn::PromoteTo(d64, hn::UpperHalf(d32h, lin)));
  acc.den_lin = hn::Add(acc.den_lin, hn::VecFromMask(d32, flat));
  if (hn::AllFalse(d32, informative)) return;

  const auto nsq_d = hn::Set(df, static_cast<double>(kSigmaNsq));
  // den: 2048 * (e - 15) + entry - 2048 * 17, e = biased exponent - 1023.
  constexpr std::int32_t kDenBias = kWholeBias + (kLog2SigmaNsq << kLogFracBits);
  const auto den_lower = hn::Add(hn::PromoteTo(df, hn::LowerHalf(s11)), nsq_d);
  const auto den_upper = hn::Add(hn::PromoteTo(df, hn::UpperHalf(d32h, s11)), nsq_d);
  const Log2Q11 den_log = Log2Of(TopBits(df, den_lower, den_upper));
  V32 den_term = hn::Sub(den_log.whole, hn::Set(d32, kDenBias));
#if VQX_VIF_AVX512
  den_term = hn::Add(den_term, Log2Entries(df, den_lower, den_upper));
#else
  StoreIndices(informative, den_log.index, rows.den + rows.den_count);
  rows.den_count += hn::Lanes(d32);
#endif
  acc.den_log = hn::Add(acc.den_log, hn::IfThenElseZero(informative, den_term));

  const auto gain = hn::And(informative, hn::And(hn::Gt(s12, zero), hn::Gt(s22, zero)));
  if (hn::AllFalse(d32, gain)) return;
  // The gain in double in every lane: the lanes without a gain term (where
  // a quotient may be infinite or not a number) are masked off below.
  const auto eps = hn::Set(df, kGainEps);
  const auto limit = hn::Set(df, gain_limit);
  const auto zero_d = hn::Zero(df);
  hn::Vec<decltype(df)> signal[2], noise[2];
  for (int half = 0; half < 2; ++half) {
    const auto pick = [&](V32 v) {
      return hn::PromoteTo(df, half == 0 ? hn::LowerHalf(v) : hn::UpperHalf(d32h, v));
    };
    const auto a = pick(s11), b = pick(s22), c = pick(s12);
    auto g = hn::Div(c, hn::Add(a, eps));
    // sv^2: b - g c truncated (below b, so below 2^31), at least 0; the
    // reference's int32 conversion and max in double.
    const auto sv = hn::Max(hn::Trunc(hn::Sub(b, hn::Mul(g, c))), zero_d);
    g = hn::Min(g, limit);
    noise[half] = hn::Add(sv, nsq_d);
    signal[half] = hn::Add(hn::Floor(hn::Mul(hn::Mul(g, g), a)), noise[half]);
  }
  const Log2Q11 sig_log = Log2Of(TopBits(df, signal[0], signal[1]));
  const Log2Q11 noise_log = Log2Of(TopBits(df, noise[0], noise[1]));
  V32 num_term = hn::Sub(sig_log.whole, noise_log.whole);
#if VQX_VIF_AVX512
  num_term = hn::Add(num_term, hn::Sub(Log2Entries(df, signal[0], signal[1]),
                                       Log2Entries(df, noise[0], noise[1])));
#else
  StoreIndices(gain, sig_log.index, rows.signal + rows.num_count);
  StoreIndices(gain, noise_log.index, rows.noise + rows.num_count);
  rows.num_count += hn::Lanes(d32);
#endif
  acc.num_log = hn::Add(acc.num_log, hn::IfThenElseZero(gain, num_term));
}

// The horizontal filter as pairs of taps for pairwise multiply-adds, each
// applied to the plane read at one offset from the output columns: a vector
// of int16 read at column c + offset gives, lane pair by lane pair, the
// samples (c + offset + 2i, c + offset + 2i + 1); times the even pair it
// adds two taps to output column c + 2i, times the odd pair two taps to
// output column c + 2i + 1 (a pair of 0 when none). Scales 0..2 (half
// even): offsets -half, -half + 2, ..., half; the even pairs (t_2m,
// t_2m+1), the odd pairs (t_2m-1, t_2m), taps outside the filter 0. Scale
// 3's centre tap (43728, no int16) is split between two pairs.
struct TapTerm {
  int offset;
  std::uint32_t even[2];
  std::uint32_t odd[2];
};
template <int Scale>
constexpr int tap_term_count() {
  return Scale == 3 ? 3 : kFilters[Scale].half + 1;
}
template <int Scale>
constexpr std::array<TapTerm, tap_term_count<Scale>()> tap_terms() {
  constexpr int kHalf = kFilters[Scale].half;
  std::array<TapTerm, tap_term_count<Scale>()> out{};
  if constexpr (Scale == 3) {
    static_assert(kTaps3.size() == 3 && kTaps3[0] < 32768 && kTaps3[2] < 32768);
    const std::uint32_t centre_a = kTaps3[1] / 2U;
    const std::uint32_t centre_b = kTaps3[1] - centre_a;
    out[0] = {-1, {kTaps3[0], centre_a}, {0, 0}};
    out[1] = {0, {centre_b, kTaps3[2]}, {kTaps3[0], centre_a}};
    out[2] = {1, {0, 0}, {centre_b, kTaps3[2]}};
  } else {
    static_assert(kHalf % 2 == 0 && kFilters[Scale].taps.size() == 2 * kHalf + 1);
    const auto& taps = Scale == 0   ? kFilters[0].taps
                       : Scale == 1 ? kFilters[1].taps
                                    : kFilters[2].taps;
    const auto tap = [&](int k) { return k >= 0 && k <= 2 * kHalf ? std::uint32_t{taps[k]} : 0U; };
    for (int m = 0; m <= kHalf; ++m) {
      out[m] = {2 * m - kHalf, {tap(2 * m), tap(2 * m + 1)}, {tap(2 * m - 1), tap(2 * m)}};
    }
  }
  return out;
}

#if VQX_VIF_AVX512 || HWY_TARGET == HWY_AVX2
// The vector of int16 at row + j + 2 * kDwords (|2 * kDwords| at most the
// lanes) from the vectors before (a), at (b) and after (c) row + j: a
// shift across the whole vector (AVX-512's valignd; on AVX2 the shift
// within 128-bit blocks of b and c and of their middle), so that each
// plane is read by one load per vector, not one unaligned load per offset
// (loads that cross a cache line cost twice).
template <int kDwords>
HWY_INLINE V16 Window(V16 a, V16 b, V16 c) {
  constexpr int kVectorDwords = static_cast<int>(hn::MaxLanes(D32()));
  static_assert(-kVectorDwords <= kDwords && kDwords <= kVectorDwords);
  if constexpr (kDwords == 0) {
    return b;
  } else if constexpr (kDwords < 0) {
    return Window<kVectorDwords + kDwords>(a, a, b);
  } else if constexpr (kDwords == kVectorDwords) {
    return c;
  } else {
#if VQX_VIF_AVX512
    return V16{_mm512_alignr_epi32(c.raw, b.raw, kDwords)};
#else
    const D16 d16;
    const V16 mid = hn::ConcatLowerUpper(d16, c, b);  // b's upper block, c's lower
    constexpr int kBlockDwords = 4;
    if constexpr (kDwords < kBlockDwords) {
      return hn::CombineShiftRightBytes<4 * kDwords>(d16, mid, b);
    } else if constexpr (kDwords == kBlockDwords) {
      return mid;
    } else {
      return hn::CombineShiftRightBytes<4 * (kDwords - kBlockDwords)>(d16, c, mid);
    }
#endif
  }
}
#endif

// The horizontal pass of one row plane over columns [0, n) (n a multiple
// of the vector): out holds, vector by vector, the sums of the even
// columns then those of the odd ones.
template <int Scale>
HWY_INLINE void HorizontalPlane(const std::int16_t* row, std::size_t n, std::uint32_t* out) {
  const D16 d16;
  const D32 d32;
  // Static, so that the generic lambdas below name it in constant
  // expressions without capturing it.
  static constexpr auto kTerms = tap_terms<Scale>();
  constexpr std::size_t kCount = kTerms.size();
  V16 even[kCount], odd[kCount];
  for (std::size_t t = 0; t < kCount; ++t) {
    even[t] = PairOf(kTerms[t].even[0], kTerms[t].even[1]);
    odd[t] = PairOf(kTerms[t].odd[0], kTerms[t].odd[1]);
#if VQX_VIF_AVX512
    // Held in registers: GCC otherwise rebuilds each pair inside the loop
    // (a movabs and a vpbroadcastq per term: 9 per vector at scale 0), and
    // on Intel's cores the broadcasts share port 5 with the valignd shifts.
    // VIF alone x 0.97 on the device machine's Xeon, Zen 5 unchanged
    // (docs/performance.md). The AVX2 paths, with 16 registers, would spill
    // them: x 1.04 there.
    asm("" : "+v"(even[t].raw), "+v"(odd[t].raw));
#endif
  }
  const std::size_t lanes = hn::Lanes(d16);
  const std::size_t half = hn::Lanes(d32);
  // Every term's multiply-adds into e and o, term kT's samples from
  // samples(integral_constant<kT>). The index is a compile-time constant, so
  // a pair of zero taps adds nothing: with a run-time index GCC may test
  // them in the loop.
  const auto add_terms = [&](const auto& samples, V32& e, V32& o) {
    [&]<std::size_t... kT>(std::index_sequence<kT...>) {
      const auto add = [&]<std::size_t kI>(std::integral_constant<std::size_t, kI> t) {
        const V16 v = samples(t);
        if constexpr (kTerms[kI].even[0] != 0 || kTerms[kI].even[1] != 0) {
          e = MulPairsAdd(e, v, even[kI]);
        }
        if constexpr (kTerms[kI].odd[0] != 0 || kTerms[kI].odd[1] != 0) {
          o = MulPairsAdd(o, v, odd[kI]);
        }
      };
      (add(std::integral_constant<std::size_t, kT>{}), ...);
    }
    (std::make_index_sequence<kCount>());
  };
#if VQX_VIF_AVX512 || HWY_TARGET == HWY_AVX2
  if constexpr (Scale != 3) {  // even offsets: whole 32-bit lanes
    V16 a = hn::LoadU(d16, row - lanes);
    V16 b = hn::LoadU(d16, row);
    for (std::size_t j = 0; j < n; j += lanes) {
      const V16 c = hn::LoadU(d16, row + j + lanes);
      V32 e = hn::Zero(d32), o = e;
      add_terms(
          [&]<std::size_t kT>(std::integral_constant<std::size_t, kT>) {
            return Window<kTerms[kT].offset / 2>(a, b, c);
          },
          e, o);
      hn::StoreU(Unbias(e), DU32(), out + j);
      hn::StoreU(Unbias(o), DU32(), out + j + half);
      a = b;
      b = c;
    }
    return;
  }
#endif
  for (std::size_t j = 0; j < n; j += lanes) {
    V32 e = hn::Zero(d32), o = e;
    add_terms(
        [&]<std::size_t kT>(std::integral_constant<std::size_t, kT>) {
          return hn::LoadU(d16, row + j + kTerms[kT].offset);
        },
        e, o);
    hn::StoreU(Unbias(e), DU32(), out + j);
    hn::StoreU(Unbias(o), DU32(), out + j + half);
  }
}

template <int Scale>
void RowStatsT(const std::int16_t* const* planes, unsigned w, double gain_limit,
               const std::uint16_t* lut, std::uint16_t* scratch, RowSums& sums) {
  const std::size_t index_stride = round_up(std::size_t{w}, kBlock);
  const D32 d32;
  const DU32 du32;
  const hn::Repartition<std::int64_t, D16> d64;
  const std::size_t lanes = hn::Lanes(D16());
  const std::size_t half = hn::Lanes(d32);
  const V32 even_columns = hn::Add(hn::Iota(d32, 0), hn::Iota(d32, 0));  // 0, 2, 4, ...
  const V32 width = hn::Set(d32, static_cast<std::int32_t>(w));
  RowLanes acc{hn::Zero(d32), hn::Zero(d32), hn::Zero(d32), hn::Zero(d64)};
  // row_stats_scratch(): three rows of indices, then the chunk's sums.
  auto* index32 = reinterpret_cast<std::uint32_t*>(scratch);
  IndexRows index_rows{index32, index32 + index_stride, index32 + 2 * index_stride, 0, 0};
  std::uint32_t* sums32 = index32 + 3 * index_stride;
  const VU32 round = hn::Set(du32, kTapHalf);

  for (std::size_t c0 = 0; c0 < w; c0 += kStatsChunk) {
    const std::size_t n = std::min(round_up(std::size_t{w} - c0, lanes), kStatsChunk);
    for (int p = 0; p < kRowPlanes; ++p) {
      HorizontalPlane<Scale>(planes[p] + c0, n, sums32 + p * kStatsChunk);
    }
    for (std::size_t j = 0; j < n; j += lanes) {
      for (std::size_t odd = 0; odd < 2; ++odd) {
        const auto load = [&](int p) {
          return hn::LoadU(du32, sums32 + p * kStatsChunk + j + odd * half);
        };
        // E[.]: the 48-bit sum rounded by 16 bits, modulo 2^32.
        const auto moment = [&](int hi) {
          return hn::Add(load(hi), hn::ShiftRight<kTapBits>(hn::Add(load(hi + 1), round)));
        };
        const VU32 m1 = load(kMu1), m2 = load(kMu2);
        const V32 s11 = hn::BitCast(d32, hn::Sub(moment(kXxHi), MeanProduct(m1, m1)));
        const V32 s22 =
            hn::Max(hn::BitCast(d32, hn::Sub(moment(kYyHi), MeanProduct(m2, m2))), hn::Zero(d32));
        const V32 s12 = hn::BitCast(d32, hn::Sub(moment(kXyHi), MeanProduct(m1, m2)));
        const V32 column =
            hn::Add(even_columns, hn::Set(d32, static_cast<std::int32_t>(c0 + j + odd)));
        PixelStats(s11, s22, s12, hn::Lt(column, width), gain_limit, index_rows, acc);
      }
    }
  }

  // The table entries, by plain loads (table_sums.cpp).
  if constexpr (!kVectorLog2) {
    sums.den_log += den_table_sum(lut, index_rows.den, index_rows.den_count);
    sums.num_log += num_table_sum(lut, index_rows.signal, index_rows.noise, index_rows.num_count);
  }

  // The row's lanes summed (each lane's sums are far from overflowing).
  alignas(64) std::int32_t l32[3][hn::MaxLanes(d32)];
  alignas(64) std::int64_t l64[hn::MaxLanes(d64)];
  hn::Store(acc.num_log, d32, l32[0]);
  hn::Store(acc.den_log, d32, l32[1]);
  hn::Store(acc.den_lin, d32, l32[2]);
  hn::Store(acc.num_lin, d64, l64);
  for (std::size_t i = 0; i < hn::Lanes(d32); ++i) {
    sums.num_log += l32[0][i];
    sums.den_log += l32[1][i];
    sums.den_lin -= l32[2][i];
  }
  for (std::size_t i = 0; i < hn::Lanes(d64); ++i) sums.num_lin += l64[i];
}

void RowStats(int scale, const std::int16_t* const* planes, unsigned w, double gain_limit,
              const std::uint16_t* lut, std::uint16_t* scratch, RowSums& sums) {
  switch (scale) {
    case 0:
      return RowStatsT<0>(planes, w, gain_limit, lut, scratch, sums);
    case 1:
      return RowStatsT<1>(planes, w, gain_limit, lut, scratch, sums);
    case 2:
      return RowStatsT<2>(planes, w, gain_limit, lut, scratch, sums);
    default:
      return RowStatsT<3>(planes, w, gain_limit, lut, scratch, sums);
  }
}

void Log2Q11Values(const std::uint16_t* lut, const double* v, std::size_t n, std::int32_t* out) {
  const hn::Repartition<double, D16> df;
  const D32 d32;
  const std::size_t lanes = hn::Lanes(df);
  for (std::size_t i = 0; i < n; i += 2 * lanes) {
    const auto lower = hn::LoadU(df, v + i);
    const auto upper = hn::LoadU(df, v + i + lanes);
    const Log2Q11 parts = Log2Of(TopBits(df, lower, upper));
    const V32 whole = hn::Sub(parts.whole, hn::Set(d32, kWholeBias));
#if VQX_VIF_AVX512
    (void)lut;
    hn::StoreU(hn::Add(whole, Log2Entries(df, lower, upper)), d32, out + i);
#else
    alignas(64) std::uint32_t index[hn::MaxLanes(d32)];
    hn::Store(parts.index, DU32(), index);
    hn::StoreU(whole, d32, out + i);
    for (std::size_t k = 0; k < 2 * lanes; ++k) out[i + k] += lut[index[k]];
#endif
  }
}

// The pyramid's downsampling (simd.hpp: downsample_8bit, downsample_16bit).
// The horizontal pass at the even columns as pairs of taps: a vector of
// int16 read at conv column 2 * c + offset gives output column c + i the
// samples (2 (c + i) + offset, + 1), times the pair. Offsets -half,
// -half + 2, ..., half, pairs (t_2m, t_2m+1), the last with 0; filter 3's
// centre tap (43728, no int16) split in two, its second half on its own.
struct EvenTerm {
  int offset;
  std::uint32_t first;
  std::uint32_t second;
};
template <int F>
constexpr int even_term_count() {
  return F == 3 ? 3 : kFilters[F].half + 1;
}
template <int F>
constexpr std::array<EvenTerm, even_term_count<F>()> even_terms() {
  constexpr int kHalf = kFilters[F].half;
  std::array<EvenTerm, even_term_count<F>()> out{};
  if constexpr (F == 3) {
    const std::uint32_t centre_a = kTaps3[1] / 2U;
    out[0] = {-1, kTaps3[0], centre_a};
    out[1] = {0, kTaps3[1] - centre_a, 0};
    out[2] = {1, kTaps3[2], 0};
  } else {
    const auto& taps = F == 1 ? kFilters[1].taps : kFilters[2].taps;
    static_assert(kHalf % 2 == 0 && kFilters[F].taps.size() == 2 * kHalf + 1);
    for (int m = 0; m <= kHalf; ++m) {
      out[m] = {2 * m - kHalf, taps[2 * m],
                2 * m + 1 <= 2 * kHalf ? std::uint32_t{taps[2 * m + 1]} : 0U};
    }
  }
  return out;
}

// The horizontal half of a downsampling: conv mirrored, then out[0 .. w/2).
template <int F>
HWY_INLINE void DownsampleColumns(std::int16_t* conv, unsigned w, std::uint16_t* out) {
  const D16 d16;
  const D32 d32;
  const DU32 du32;
  const hn::Rebind<std::uint16_t, D32> du16h;
  constexpr auto kTerms = even_terms<F>();
  pad_reflect101(conv, static_cast<int>(w), kFilters[F].half);
  V16 pairs[kTerms.size()];
  for (std::size_t t = 0; t < kTerms.size(); ++t)
    pairs[t] = PairOf(kTerms[t].first, kTerms[t].second);
  const VU32 round = hn::Set(du32, kTapHalf);
  const std::size_t half = hn::Lanes(d32);
  for (std::size_t c = 0; c < w / 2; c += half) {
    V32 sum = hn::Zero(d32);
    for (std::size_t t = 0; t < kTerms.size(); ++t) {
      sum = MulPairsAdd(sum, hn::LoadU(d16, conv + 2 * c + kTerms[t].offset), pairs[t]);
    }
    const VU32 v = hn::ShiftRight<kTapBits>(hn::Add(Unbias(sum), round));
    hn::StoreU(hn::DemoteTo(du16h, hn::BitCast(d32, v)), du16h, out + c);
  }
}

void Downsample8(const std::uint8_t* const* rows, unsigned w, Rounding vertical, std::int16_t* conv,
                 std::uint16_t* out) {
  const D16 d16;
  const DU16 du16;
  const hn::Rebind<std::uint8_t, DU16> d8;
  const D32 d32;
  const DU32 du32;
  constexpr int kHalf = kFilters[1].half;
  static_assert(kHalf % 2 == 0);
  const std::uint16_t* t = kFilters[1].taps.data();
  const VU32 add = hn::Set(du32, vertical.add);
  for (std::size_t j = 0; j < w; j += hn::Lanes(d16)) {
    const auto row = [&](int k) {
      return hn::BitCast(d16, hn::PromoteTo(du16, hn::LoadU(d8, rows[k] + j)));
    };
    // Rows k and 2 * half - k added (at most 510), then pairs of such sums.
    V32 l = hn::Zero(d32), u = l;
    for (int k = 0; k < kHalf; k += 2) {
      const V16 a = hn::Add(row(k), row(2 * kHalf - k));
      const V16 b = hn::Add(row(k + 1), row(2 * kHalf - k - 1));
      const V16 tt = PairOf(t[k], t[k + 1]);
      l = MulPairsAdd(l, hn::InterleaveLower(d16, a, b), tt);
      u = MulPairsAdd(u, hn::InterleaveUpper(d16, a, b), tt);
    }
    const V16 c = row(kHalf);
    const V16 tc = PairOf(t[kHalf], 0);
    l = MulPairsAdd(l, hn::InterleaveLower(d16, c, hn::Zero(d16)), tc);
    u = MulPairsAdd(u, hn::InterleaveUpper(d16, c, hn::Zero(d16)), tc);
    const auto rounded = [&](V32 v) {
      return hn::ShiftRightSame(hn::Add(hn::BitCast(du32, v), add), vertical.shift);
    };
    StoreBiased(rounded(l), rounded(u), conv + j);
  }
  DownsampleColumns<1>(conv, w, out);
}

template <int F>
void Downsample16T(const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                   std::int16_t* conv, std::uint16_t* out) {
  const D16 d16;
  const DU16 du16;
  const DU32 du32;
  const VU32 add = hn::Set(du32, vertical.add);
  const auto flip = hn::Set(du16, 0x8000);  // v - 2^15 as int16: the top bit flipped
  for (std::size_t j = 0; j < w; j += hn::Lanes(d16)) {
    // The samples biased, rows k and 2 * half - k paired (VerticalPlane).
    constexpr int kHalf = kFilters[F].half;
    const std::uint16_t* t = kFilters[F].taps.data();
    V32 l = hn::Zero(D32()), u = l;
    for (int k = 0; k <= kHalf; ++k) {
      const V16 a = hn::BitCast(d16, hn::Xor(hn::LoadU(du16, rows[k] + j), flip));
      const V16 b = k == kHalf
                        ? a
                        : hn::BitCast(d16, hn::Xor(hn::LoadU(du16, rows[2 * kHalf - k] + j), flip));
      const V16 tt = k == kHalf ? PairOf(t[k] / 2, t[k] - t[k] / 2) : PairOf(t[k], t[k]);
      l = MulPairsAdd(l, hn::InterleaveLower(d16, a, b), tt);
      u = MulPairsAdd(u, hn::InterleaveUpper(d16, a, b), tt);
    }
    const auto rounded = [&](V32 v) {
      return hn::ShiftRightSame(hn::Add(Unbias(v), add), vertical.shift);
    };
    StoreBiased(rounded(l), rounded(u), conv + j);
  }
  DownsampleColumns<F>(conv, w, out);
}

void Downsample16(int filter, const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                  std::int16_t* conv, std::uint16_t* out) {
  switch (filter) {
    case 1:
      return Downsample16T<1>(rows, w, vertical, conv, out);
    case 2:
      return Downsample16T<2>(rows, w, vertical, conv, out);
    default:
      return Downsample16T<3>(rows, w, vertical, conv, out);
  }
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
#if VQX_VIF_AVX3_VNNI
}  // namespace avx3_vnni
#endif
}  // namespace vqx::vif::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE && !VQX_VIF_AVX3_VNNI
namespace vqx::vif::simd {

#if HWY_ARCH_X86 && (HWY_TARGETS & HWY_AVX3)
// simd_avx3_vnni.cpp's kernels, of the types of this file's AVX3 ones.
namespace avx3_vnni::N_AVX3 {
decltype(simd::N_AVX3::Vertical8) Vertical8;
decltype(simd::N_AVX3::Vertical16) Vertical16;
decltype(simd::N_AVX3::RowStats) RowStats;
decltype(simd::N_AVX3::Downsample8) Downsample8;
decltype(simd::N_AVX3::Downsample16) Downsample16;
}  // namespace avx3_vnni::N_AVX3

bool avx3_vnni_available() {
  static const bool kHas = __builtin_cpu_supports("avx512vnni") != 0;
  return kHas;
}

namespace {
std::atomic<bool> g_avx3_vnni_enabled{true};

// The function Highway's dispatch chose (`dispatched`), or its AVX3 form
// with vpdpwssd where that choice is AVX3 (`avx3`: Highway grants AVX3_DL
// only with its whole group) and the CPU has AVX512_VNNI. Follows the
// dispatch's own cached choice (an atomic load), which is made on its
// first call: SupportedTargets() asks the CPU again each time (a trap to
// the hypervisor in a virtual machine), too slow for a call per row.
template <typename F>
F* with_vnni(F* dispatched, F* avx3, F* avx3_vnni) {
  return dispatched == avx3 && avx3_vnni_available() &&
                 g_avx3_vnni_enabled.load(std::memory_order_relaxed)
             ? avx3_vnni
             : dispatched;
}

// The dispatch's choice made, as its first call would make it.
void choose_target() {
  hwy::ChosenTarget& chosen = hwy::GetChosenTarget();
  if (!chosen.IsInitialized()) chosen.Update(hwy::SupportedTargets());
}
}  // namespace

void set_avx3_vnni_enabled(bool on) { g_avx3_vnni_enabled.store(on, std::memory_order_relaxed); }
#define VQX_VIF_DISPATCH(name) \
  (choose_target(), with_vnni(&HWY_DYNAMIC_DISPATCH(name), &N_AVX3::name, &avx3_vnni::N_AVX3::name))
#else
bool avx3_vnni_available() { return false; }
void set_avx3_vnni_enabled(bool /*on*/) {}
#define VQX_VIF_DISPATCH(name) (&HWY_DYNAMIC_DISPATCH(name))
#endif

HWY_EXPORT(Vertical8);
HWY_EXPORT(Prepare16);
HWY_EXPORT(Vertical16);
HWY_EXPORT(RowStats);
HWY_EXPORT(Downsample8);
HWY_EXPORT(Downsample16);
HWY_EXPORT(Log2Q11Values);

void vertical_8bit(const Taps8& taps, std::size_t n, std::int16_t* const* out) {
  VQX_VIF_DISPATCH(Vertical8)(taps, n, out);
}
void prepare_16bit(const std::uint16_t* ref, const std::uint16_t* dis, std::size_t n,
                   std::int16_t* const* out) {
  HWY_DYNAMIC_DISPATCH(Prepare16)(ref, dis, n, out);
}
void vertical_16bit(int scale, const Taps16* taps, int rows, std::size_t n, Rounding means,
                    Rounding squares, std::int16_t* const* out) {
  VQX_VIF_DISPATCH(Vertical16)(scale, taps, rows, n, means, squares, out);
}
void row_stats(int scale, const std::int16_t* const* planes, unsigned w, double gain_limit,
               const std::uint16_t* lut, std::uint16_t* scratch, RowSums& sums) {
  VQX_VIF_DISPATCH(RowStats)(scale, planes, w, gain_limit, lut, scratch, sums);
}
void downsample_8bit(const std::uint8_t* const* rows, unsigned w, Rounding vertical,
                     std::int16_t* conv, std::uint16_t* out) {
  VQX_VIF_DISPATCH(Downsample8)(rows, w, vertical, conv, out);
}
void downsample_16bit(int filter, const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                      std::int16_t* conv, std::uint16_t* out) {
  VQX_VIF_DISPATCH(Downsample16)(filter, rows, w, vertical, conv, out);
}
void log2_q11(const std::uint16_t* lut, const double* v, std::size_t n, std::int32_t* out) {
  HWY_DYNAMIC_DISPATCH(Log2Q11Values)(lut, v, n, out);
}

#undef VQX_VIF_DISPATCH

}  // namespace vqx::vif::simd
#endif

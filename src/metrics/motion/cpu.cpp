// The blurred-difference SAD of integer motion on the CPU, written with
// Highway's portable vectors and compiled for each of its targets (SSSE3,
// SSE4, AVX2, AVX-512 and scalar on x86); HWY_DYNAMIC_DISPATCH picks the
// best the CPU runs, once per plane. Every target computes the same integer
// operations, so every one gives the same bits; the unit tests run each
// target the CPU has against the definition (tests/unit/motion_test.cpp).
//
// The results are those of libvmaf's integer_motion.c to the bit: per output
// row, a vertical 5-tap pass over the difference of the two pictures, rounded
// and shifted by the bit depth, then a horizontal 5-tap pass, rounded and
// shifted by 16, whose absolute values are summed. What differs is the order
// of the (exact) integer operations, to stay within 32-bit lanes, and that
// each row of differences prev - cur is computed once and kept in a ring of
// five rows for the five output rows that read it. Rows whose vertical
// result is all zero add nothing (the horizontal pass of zeros rounds to
// zero) and are skipped, as libvmaf does.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/motion/cpu.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (foreach_target.h includes this file once per target, then once more.)
#include <cassert>
#include <cstdint>

#include <hwy/highway.h>
#include "core/index_math.hpp"
#include "metrics/motion/cpu.hpp"
#include "metrics/motion/params.hpp"

#ifndef VQX_MOTION_ROUNDED_BLUR5
#define VQX_MOTION_ROUNDED_BLUR5
namespace vqx::motion::detail {

constexpr std::int32_t kOuter = kTaps[0];   // taps at distance 2
constexpr std::int32_t kInner = kTaps[1];   // taps at distance 1
constexpr std::int32_t kCentre = kTaps[2];  // the centre tap
static_assert(kTaps[3] == kInner && kTaps[4] == kOuter, "the code relies on symmetric taps");

// The 5-tap sum of values up to kMaxBlurredMagnitude in int32.
//
// The exact sum S = o*(a+e) + i*(b+d) + c*m (o, i, c the outer, inner and
// centre taps) reaches 65536 * 65535, beyond int32. But i and c are even, so
// S = o*(a+e) + 2*t with t = i/2*(b+d) + c/2*m, and with U = o*(a+e) + R:
//   floor((S + R) / 2^s) = floor((2t + U) / 2^s) = floor((t + floor(U/2)) / 2^(s-1)),
// the last step because floor(floor(x/2)/2^(s-1)) = floor(x/2^s). Both t and
// t + floor(U/2) fit int32 (checked below), so the rounded, shifted sum is
// computed exactly in 32-bit lanes. Both passes use it: the vertical one on
// sample differences (|d| <= 65535) with s = bpc, the horizontal one on the
// vertical results (at most kMaxBlurredMagnitude) with s = 16.
static_assert(kInner % 2 == 0 && kCentre % 2 == 0);
constexpr std::int32_t kInnerHalf = kInner / 2;
constexpr std::int32_t kCentreHalf = kCentre / 2;
constexpr std::int64_t kMaxRound = kHorizontalRound;         // R for shifts up to 16
constexpr std::int64_t kMaxPair = 2 * kMaxBlurredMagnitude;  // |a + e|, |b + d|
constexpr std::int64_t kMaxT =
    std::int64_t{kInnerHalf} * kMaxPair + std::int64_t{kCentreHalf} * kMaxBlurredMagnitude;
constexpr std::int64_t kMaxU = std::int64_t{kOuter} * kMaxPair + kMaxRound;
static_assert(kMaxU <= INT32_MAX, "U must fit int32");
static_assert(kMaxT + kMaxU / 2 + 1 <= INT32_MAX, "t + floor(U/2) must fit int32");
static_assert(kHorizontalShift == 16, "the vertical shift (bpc) and this are at most 16");

}  // namespace vqx::motion::detail
#endif

HWY_BEFORE_NAMESPACE();
namespace vqx::motion::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D32 = hn::ScalableTag<std::int32_t>;
using V32 = hn::Vec<D32>;

// The taps as vectors. They are read through `volatile` once per plane:
// with constants GCC turns the three vector multiplies into shift-and-add
// chains, which take 12% longer per 1920x1080 frame at AVX2 (measured on an
// AMD EPYC).
struct Taps {
  V32 outer, inner_half, centre_half;
};
HWY_INLINE Taps LoadTaps(D32 d) {
  static volatile const std::int32_t kValues[3] = {detail::kOuter, detail::kInnerHalf,
                                                   detail::kCentreHalf};
  return {hn::Set(d, kValues[0]), hn::Set(d, kValues[1]), hn::Set(d, kValues[2])};
}

// (o*(a+e) + i*(b+d) + c*m + 2^(shift-1)) >> shift for |a..e| <= 65535,
// 1 < shift <= 16, as an arithmetic (flooring) shift (detail's derivation).
HWY_INLINE V32 RoundedBlur5(D32 d, const Taps& k, V32 a, V32 b, V32 m, V32 dd, V32 e, int shift) {
  const V32 u =
      hn::Add(hn::Mul(k.outer, hn::Add(a, e)), hn::Set(d, std::int32_t{1} << (shift - 1)));
  const V32 t = hn::Add(hn::Mul(k.inner_half, hn::Add(b, dd)), hn::Mul(k.centre_half, m));
  return hn::ShiftRightSame(hn::Add(t, hn::ShiftRight<1>(u)), shift - 1);
}

// `n` values of type To (int16 or int32, n = the lanes of D32) from `p`,
// widened or reinterpreted: u8 -> i16/i32, u16 -> i16 (values below 2^15)
// or i32, i16 -> i32, i32 as is.
template <typename To, typename From>
HWY_INLINE auto LoadAs(const From* HWY_RESTRICT p) {
  const hn::Rebind<To, D32> dt;
  const hn::Rebind<From, D32> df;
  if constexpr (sizeof(From) == sizeof(To)) {
    return hn::BitCast(dt, hn::LoadU(df, p));
  } else {
    return hn::PromoteTo(dt, hn::LoadU(df, p));
  }
}

// out[x] = prev[x] - cur[x] for x < width, then zeros up to `padded`
// (a multiple of the vector length) so that the vertical pass may run over
// whole vectors. Diff is int16 up to 14 bits (|prev - cur| < 2^14; the
// smaller ring stays in the L1 cache), else int32.
template <typename Diff, typename Sample>
HWY_INLINE void DifferenceRow(const Sample* HWY_RESTRICT prev, const Sample* HWY_RESTRICT cur,
                              unsigned width, unsigned padded, Diff* HWY_RESTRICT out) {
  const hn::Rebind<Diff, D32> dd;
  const unsigned n = static_cast<unsigned>(hn::Lanes(dd));
  unsigned x = 0;
  for (; x + n <= width; x += n) {
    hn::StoreU(hn::Sub(LoadAs<Diff>(prev + x), LoadAs<Diff>(cur + x)), dd, out + x);
  }
  for (; x < width; ++x) {
    out[x] = static_cast<Diff>(prev[x] - cur[x]);
  }
  for (; x < padded; ++x) {
    out[x] = 0;
  }
}

// The vertical pass of one output row from the five rows of differences,
// top to bottom, over `padded` columns; returns false when every output is
// 0 (the zero padding gives 0: (0 + 2^(s-1)) >> s).
template <typename Diff>
HWY_INLINE bool VerticalRow(const Taps& k, const Diff* const rows[5], unsigned padded, int shift,
                            std::int32_t* HWY_RESTRICT out) {
  const D32 d;
  const unsigned n = static_cast<unsigned>(hn::Lanes(d));
  V32 any = hn::Zero(d);
  for (unsigned x = 0; x < padded; x += n) {
    const V32 v =
        RoundedBlur5(d, k, LoadAs<std::int32_t>(rows[0] + x), LoadAs<std::int32_t>(rows[1] + x),
                     LoadAs<std::int32_t>(rows[2] + x), LoadAs<std::int32_t>(rows[3] + x),
                     LoadAs<std::int32_t>(rows[4] + x), shift);
    hn::StoreU(v, d, out + x);
    any = hn::Or(any, v);
  }
  return !hn::AllTrue(d, hn::Eq(any, hn::Zero(d)));
}

// The horizontal pass of one row and the sum of its absolute values. `buf`
// holds the row at buf[2 .. width + 1] and room for a vector past it; the
// two border samples each side are filled here. The sum is a uint32 as in
// libvmaf (it cannot wrap: at most 65535 per sample and kMaxDimension
// samples).
HWY_INLINE std::uint32_t HorizontalAbsSum(const Taps& k, std::int32_t* HWY_RESTRICT buf,
                                          unsigned width) {
  const D32 d;
  const hn::RebindToUnsigned<D32> du;
  const unsigned n = static_cast<unsigned>(hn::Lanes(d));
  pad_reflect101(buf + kRadius, static_cast<int>(width), kRadius);
  auto total = hn::Zero(du);
  for (unsigned x = 0; x < width; x += n) {
    // buf[x + 2] is the centre sample of output x.
    V32 v = RoundedBlur5(d, k, hn::LoadU(d, buf + x), hn::LoadU(d, buf + x + 1),
                         hn::LoadU(d, buf + x + 2), hn::LoadU(d, buf + x + 3),
                         hn::LoadU(d, buf + x + 4), kHorizontalShift);
    if (x + n > width) {
      v = hn::IfThenElseZero(hn::FirstN(d, width - x), v);
    }
    total = hn::Add(total, hn::BitCast(du, hn::Abs(v)));
  }
  return hn::GetLane(hn::SumOfLanes(du, total));
}

// The whole picture. The scratch holds five rows of differences (a ring: the
// difference of source row r lives in slot r % 5, computed once, when output
// row r - 2 first needs it) and the vertical result row.
template <typename Diff, typename Sample>
std::uint64_t SadRows(PlaneView<Sample> prev, PlaneView<Sample> cur, unsigned width,
                      unsigned height, unsigned bpc, std::int32_t* scratch) {
  const unsigned padded = round_up(width, static_cast<unsigned>(hn::Lanes(D32())));
  const std::size_t row_len = scratch_row_length(width);
  assert(padded + 2 * kRadius <= row_len);
  // Rows of int16 take the first half of the ring's room, packed (which is
  // 9% faster than leaving gaps: the ring then fits the L1 cache).
  Diff* const ring = reinterpret_cast<Diff*>(scratch);
  auto slot = [&](unsigned r) { return ring + (r % 5) * row_len; };
  std::int32_t* const vertical = scratch + 5 * row_len;
  const int h = static_cast<int>(height);
  auto difference = [&](unsigned r) {
    DifferenceRow<Diff>(prev.row(r), cur.row(r), width, padded, slot(r));
  };
  const Taps taps = LoadTaps(D32());
  difference(0);
  difference(1);
  std::uint64_t sad = 0;
  for (unsigned y = 0; y < height; ++y) {
    if (y + 2 < height) {
      difference(y + 2);
    }
    const int c = static_cast<int>(y);
    const Diff* const rows[5] = {slot(static_cast<unsigned>(reflect101(c - 2, h))),
                                 slot(static_cast<unsigned>(reflect101(c - 1, h))), slot(y),
                                 slot(static_cast<unsigned>(reflect101(c + 1, h))),
                                 slot(static_cast<unsigned>(reflect101(c + 2, h)))};
    if (!VerticalRow(taps, rows, padded, static_cast<int>(bpc), vertical + kRadius)) {
      continue;
    }
    sad += HorizontalAbsSum(taps, vertical, width);
  }
  return sad;
}

std::uint64_t Sad8(PlaneView<std::uint8_t> prev, PlaneView<std::uint8_t> cur, unsigned width,
                   unsigned height, std::int32_t* scratch) {
  return SadRows<std::int16_t>(prev, cur, width, height, 8, scratch);
}

std::uint64_t Sad16(PlaneView<std::uint16_t> prev, PlaneView<std::uint16_t> cur, unsigned width,
                    unsigned height, unsigned bpc, std::int32_t* scratch) {
  return bpc <= kMaxBpcShortDifference
             ? SadRows<std::int16_t>(prev, cur, width, height, bpc, scratch)
             : SadRows<std::int32_t>(prev, cur, width, height, bpc, scratch);
}

}  // namespace vqx::motion::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::motion {

HWY_EXPORT(Sad8);
HWY_EXPORT(Sad16);

std::uint64_t blurred_difference_sad(PlaneView<std::uint8_t> prev, PlaneView<std::uint8_t> cur,
                                     unsigned width, unsigned height,
                                     std::span<std::int32_t> scratch) {
  assert(width >= kMinDimension && height >= kMinDimension);
  assert(scratch.size() >= scratch_size(width));
  return HWY_DYNAMIC_DISPATCH(Sad8)(prev, cur, width, height, scratch.data());
}

std::uint64_t blurred_difference_sad(PlaneView<std::uint16_t> prev, PlaneView<std::uint16_t> cur,
                                     unsigned width, unsigned height, unsigned bpc,
                                     std::span<std::int32_t> scratch) {
  assert(width >= kMinDimension && height >= kMinDimension);
  assert(bpc > 8 && bpc <= 16);
  assert(scratch.size() >= scratch_size(width));
  return HWY_DYNAMIC_DISPATCH(Sad16)(prev, cur, width, height, bpc, scratch.data());
}

}  // namespace vqx::motion
#endif

// The blurred-difference SAD of integer motion: the CPU reference, written
// as plain row loops that the compiler vectorises (at -O3; every loop works
// on 16- and 32-bit lanes, nothing needs 64-bit vector arithmetic).
//
// Per output row: the vertical 5-tap pass runs over the difference of the
// two pictures and leaves one row of int32 values in the scratch buffer (the
// difference is never stored as a picture); the horizontal pass then filters
// that row and sums the absolute values. Rows whose vertical result is all
// zero add nothing (the horizontal pass of zeros rounds to zero) and are
// skipped. The results are those of libvmaf's integer_motion.c to the bit:
// the same weighted sums, rounded and shifted the same way; only the order
// of the (exact) integer operations differs, to stay within 32 bits.
#include "metrics/motion/cpu.hpp"

#include <cassert>
#include <cstdint>

#include "core/index_math.hpp"
#include "metrics/motion/params.hpp"

namespace vqx::motion {

namespace {

constexpr std::int32_t kOuter = kTaps[0];   // taps at distance 2
constexpr std::int32_t kInner = kTaps[1];   // taps at distance 1
constexpr std::int32_t kCentre = kTaps[2];  // the centre tap
static_assert(kTaps[3] == kInner && kTaps[4] == kOuter, "the code relies on symmetric taps");

// ---------------------------------------------------------------------------
// The 5-tap sum of values up to kMaxBlurredMagnitude in int32.
//
// The exact sum S = o*(a+e) + i*(b+d) + c*m (o, i, c the outer, inner and
// centre taps) reaches 65536 * 65535, beyond int32. But i and c are even, so
// S = o*(a+e) + 2*t with t = i/2*(b+d) + c/2*m, and with U = o*(a+e) + R:
//   floor((S + R) / 2^s) = floor((2t + U) / 2^s) = floor((t + floor(U/2)) / 2^(s-1)),
// the last step because floor(floor(x/2)/2^(s-1)) = floor(x/2^s). Both t and
// t + floor(U/2) fit int32 (checked below), so the rounded, shifted sum is
// computed exactly without 64-bit lanes.
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

// (o*(a+e) + i*(b+d) + c*m + 2^(shift-1)) >> shift for |a..e| <= 65535,
// 1 <= shift <= 16, as an arithmetic (flooring) shift.
inline std::int32_t rounded_blur5(std::int32_t a, std::int32_t b, std::int32_t m, std::int32_t d,
                                  std::int32_t e, int shift) {
  const std::int32_t u = kOuter * (a + e) + (std::int32_t{1} << (shift - 1));
  const std::int32_t t = kInnerHalf * (b + d) + kCentreHalf * m;
  return (t + (u >> 1)) >> (shift - 1);
}

// The five source rows of output row `y`, top to bottom, the border rows
// reflected about the edge samples, which are not repeated (reflect101:
// -1 -> 1, -2 -> 2, n -> n - 2, n + 1 -> n - 3).
template <typename Sample>
struct Window {
  const Sample* r0;
  const Sample* r1;
  const Sample* r2;
  const Sample* r3;
  const Sample* r4;

  Window(PlaneView<Sample> v, unsigned y, unsigned height) {
    const int h = static_cast<int>(height);
    const int c = static_cast<int>(y);
    r0 = v.row(static_cast<unsigned>(reflect101(c - 2, h)));
    r1 = v.row(static_cast<unsigned>(reflect101(c - 1, h)));
    r2 = v.row(y);
    r3 = v.row(static_cast<unsigned>(reflect101(c + 1, h)));
    r4 = v.row(static_cast<unsigned>(reflect101(c + 2, h)));
  }
};

// Vertical pass over prev - cur for one row, for depths up to
// kMaxBpcNarrow: the differences and the sums of the symmetric pairs fit
// int16, the weighted sum (at most 65536 * (2^bpc - 1)) fits int32.
// out[x] = (sum + 2^(bpc-1)) >> bpc. Returns false when every output is 0.
constexpr std::int64_t kMaxNarrowSample = (std::int64_t{1} << kMaxBpcNarrow) - 1;
static_assert(2 * kMaxNarrowSample <= INT16_MAX, "a pair of differences must fit int16");
static_assert(65536 * kMaxNarrowSample + (kMaxNarrowSample + 1) / 2 <= INT32_MAX,
              "the rounded vertical sum must fit int32");

template <typename Sample>
bool vertical_pass_narrow(const Window<Sample>& p, const Window<Sample>& c, unsigned width,
                          unsigned bpc, std::int32_t* __restrict out) {
  const int shift = static_cast<int>(bpc);
  const std::int32_t round = vertical_round<std::int32_t>(bpc);
  const Sample* __restrict p0 = p.r0;
  const Sample* __restrict p1 = p.r1;
  const Sample* __restrict p2 = p.r2;
  const Sample* __restrict p3 = p.r3;
  const Sample* __restrict p4 = p.r4;
  const Sample* __restrict c0 = c.r0;
  const Sample* __restrict c1 = c.r1;
  const Sample* __restrict c2 = c.r2;
  const Sample* __restrict c3 = c.r3;
  const Sample* __restrict c4 = c.r4;
  std::int32_t any = 0;
  for (unsigned x = 0; x < width; ++x) {
    const auto outer_pair = static_cast<std::int16_t>((p0[x] - c0[x]) + (p4[x] - c4[x]));
    const auto inner_pair = static_cast<std::int16_t>((p1[x] - c1[x]) + (p3[x] - c3[x]));
    const auto centre = static_cast<std::int16_t>(p2[x] - c2[x]);
    const std::int32_t sum = kOuter * outer_pair + kInner * inner_pair + kCentre * centre;
    const std::int32_t v = (sum + round) >> shift;
    out[x] = v;
    any |= v;
  }
  return any != 0;
}

// Vertical pass for 15- and 16-bit samples, where the sum of a pair of
// differences no longer fits int16 and the weighted sum (16 bits) no longer
// fits int32: the differences (|d| <= 65535) go through rounded_blur5.
bool vertical_pass_wide(const Window<std::uint16_t>& p, const Window<std::uint16_t>& c,
                        unsigned width, unsigned bpc, std::int32_t* __restrict out) {
  const int shift = static_cast<int>(bpc);
  const std::uint16_t* __restrict p0 = p.r0;
  const std::uint16_t* __restrict p1 = p.r1;
  const std::uint16_t* __restrict p2 = p.r2;
  const std::uint16_t* __restrict p3 = p.r3;
  const std::uint16_t* __restrict p4 = p.r4;
  const std::uint16_t* __restrict c0 = c.r0;
  const std::uint16_t* __restrict c1 = c.r1;
  const std::uint16_t* __restrict c2 = c.r2;
  const std::uint16_t* __restrict c3 = c.r3;
  const std::uint16_t* __restrict c4 = c.r4;
  std::int32_t any = 0;
  for (unsigned x = 0; x < width; ++x) {
    const std::int32_t v = rounded_blur5(p0[x] - c0[x], p1[x] - c1[x], p2[x] - c2[x], p3[x] - c3[x],
                                         p4[x] - c4[x], shift);
    out[x] = v;
    any |= v;
  }
  return any != 0;
}

// Horizontal pass over one row and the sum of its absolute values:
// (weighted sum + 2^15) >> 16 per sample. `buf` holds the row at
// buf[2 .. width + 1]; the two border samples each side are filled here.
// The sum is a uint32 as in libvmaf (it cannot wrap: at most 65535 per
// sample and kMaxDimension samples).
std::uint32_t horizontal_abs_sum(std::int32_t* __restrict buf, unsigned width) {
  std::int32_t* row = buf + kRadius;
  pad_reflect101(row, static_cast<int>(width), kRadius);

  std::uint32_t total = 0;
  for (unsigned x = 0; x < width; ++x) {
    // buf[x + 2] is the centre sample of output x.
    const std::int32_t v =
        rounded_blur5(buf[x], buf[x + 1], buf[x + 2], buf[x + 3], buf[x + 4], kHorizontalShift);
    total += static_cast<std::uint32_t>(v < 0 ? -v : v);
  }
  return total;
}

// The whole picture: `Vertical` is one of the vertical passes above.
template <typename Sample, auto Vertical>
std::uint64_t sad_rows(PlaneView<Sample> prev, PlaneView<Sample> cur, unsigned width,
                       unsigned height, unsigned bpc, std::span<std::int32_t> scratch) {
  assert(width >= kMinDimension && height >= kMinDimension);
  assert(scratch.size() >= scratch_size(width));
  std::int32_t* buf = scratch.data();
  std::uint64_t sad = 0;
  for (unsigned y = 0; y < height; ++y) {
    const Window<Sample> p(prev, y, height);
    const Window<Sample> c(cur, y, height);
    if (!Vertical(p, c, width, bpc, buf + kRadius)) {
      continue;
    }
    sad += horizontal_abs_sum(buf, width);
  }
  return sad;
}

}  // namespace

std::uint64_t blurred_difference_sad(PlaneView<std::uint8_t> prev, PlaneView<std::uint8_t> cur,
                                     unsigned width, unsigned height,
                                     std::span<std::int32_t> scratch) {
  return sad_rows<std::uint8_t, vertical_pass_narrow<std::uint8_t>>(prev, cur, width, height, 8,
                                                                    scratch);
}

std::uint64_t blurred_difference_sad(PlaneView<std::uint16_t> prev, PlaneView<std::uint16_t> cur,
                                     unsigned width, unsigned height, unsigned bpc,
                                     std::span<std::int32_t> scratch) {
  assert(bpc > 8 && bpc <= 16);
  if (bpc <= kMaxBpcNarrow) {
    return sad_rows<std::uint16_t, vertical_pass_narrow<std::uint16_t>>(prev, cur, width, height,
                                                                        bpc, scratch);
  }
  return sad_rows<std::uint16_t, vertical_pass_wide>(prev, cur, width, height, bpc, scratch);
}

}  // namespace vqx::motion

// The blurred-difference SAD of integer motion: the readable CPU reference,
// written as plain row loops that the compiler vectorises.
//
// Per output row: the vertical 5-tap pass runs over the difference of the
// two pictures and leaves one row of int32 values in the scratch buffer (the
// difference is never stored as a picture); the horizontal pass then filters
// that row and sums the absolute values. Rows whose vertical result is all
// zero add nothing (the horizontal pass of zeros rounds to zero) and are
// skipped. The arithmetic is libvmaf's integer_motion.c (3.x pipeline) to
// the bit: see params.hpp for the constants and the range argument that
// keeps the intermediate values in their types.
#include "metrics/motion/cpu.hpp"

#include <cassert>

#include "metrics/motion/params.hpp"

namespace vqx::motion {

namespace {

constexpr std::int32_t kOuter = kTaps[0];   // taps at distance 2
constexpr std::int32_t kInner = kTaps[1];   // taps at distance 1
constexpr std::int32_t kCentre = kTaps[2];  // the centre tap
static_assert(kTaps[3] == kInner && kTaps[4] == kOuter, "the code relies on symmetric taps");

// Index of a neighbour `i` reflected into [0, n) about the edge samples,
// which are not repeated: -1 -> 1, -2 -> 2, n -> n - 2, n + 1 -> n - 3.
int reflect(int i, int n) {
  if (i < 0) return -i;
  if (i >= n) return 2 * n - 2 - i;
  return i;
}

// The five source rows of output row `y`, top to bottom.
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
    r0 = v.row(static_cast<unsigned>(reflect(c - 2, h)));
    r1 = v.row(static_cast<unsigned>(reflect(c - 1, h)));
    r2 = v.row(y);
    r3 = v.row(static_cast<unsigned>(reflect(c + 1, h)));
    r4 = v.row(static_cast<unsigned>(reflect(c + 2, h)));
  }
};

// Vertical pass over prev - cur for one row: out[x] = round(sum / 2^shift).
// `Acc` holds the weighted sum: int32 up to 15-bit samples, int64 for 16.
// Returns false when every output is zero.
template <typename Acc, typename Sample>
bool vertical_pass(const Window<Sample>& p, const Window<Sample>& c, unsigned width,
                   unsigned shift, std::int32_t* __restrict out) {
  const Acc round = Acc{1} << (shift - 1);
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
    const Acc d0 = static_cast<Acc>(p0[x]) - static_cast<Acc>(c0[x]);
    const Acc d1 = static_cast<Acc>(p1[x]) - static_cast<Acc>(c1[x]);
    const Acc d2 = static_cast<Acc>(p2[x]) - static_cast<Acc>(c2[x]);
    const Acc d3 = static_cast<Acc>(p3[x]) - static_cast<Acc>(c3[x]);
    const Acc d4 = static_cast<Acc>(p4[x]) - static_cast<Acc>(c4[x]);
    const Acc sum = kOuter * (d0 + d4) + kInner * (d1 + d3) + kCentre * d2;
    const auto v = static_cast<std::int32_t>((sum + round) >> shift);
    out[x] = v;
    any |= v;
  }
  return any != 0;
}

// Horizontal pass over one row and the sum of its absolute values. `buf`
// holds the row at buf[2 .. width + 1]; the two border samples each side are
// filled here. The sum is a uint32 as in libvmaf (it cannot wrap: at most
// 65535 per sample and kMaxDimension samples).
std::uint32_t horizontal_abs_sum(std::int32_t* __restrict buf, unsigned width) {
  std::int32_t* row = buf + kRadius;
  row[-1] = row[1];
  row[-2] = row[2];
  row[width] = row[width - 2];
  row[width + 1] = row[width - 3];

  std::uint32_t total = 0;
  for (unsigned x = 0; x < width; ++x) {
    // buf[x + 2] is the centre; each product fits int32 (params.hpp).
    const std::int32_t outer = kOuter * (buf[x] + buf[x + 4]);
    const std::int32_t inner = kInner * (buf[x + 1] + buf[x + 3]);
    const std::int32_t centre = kCentre * buf[x + 2];
    const std::int64_t sum = std::int64_t{outer} + std::int64_t{inner} + std::int64_t{centre};
    const auto v = static_cast<std::int32_t>((sum + (std::int64_t{1} << (kHorizontalShift - 1))) >>
                                             kHorizontalShift);
    total += static_cast<std::uint32_t>(v < 0 ? -v : v);
  }
  return total;
}

template <typename Acc, typename Sample>
std::uint64_t sad_impl(PlaneView<Sample> prev, PlaneView<Sample> cur, unsigned width,
                       unsigned height, unsigned shift, std::span<std::int32_t> scratch) {
  assert(width >= kMinDimension && height >= kMinDimension);
  assert(scratch.size() >= scratch_size(width));
  std::int32_t* buf = scratch.data();
  std::uint64_t sad = 0;
  for (unsigned y = 0; y < height; ++y) {
    const Window<Sample> p(prev, y, height);
    const Window<Sample> c(cur, y, height);
    if (!vertical_pass<Acc>(p, c, width, shift, buf + kRadius)) continue;
    sad += horizontal_abs_sum(buf, width);
  }
  return sad;
}

}  // namespace

std::uint64_t blurred_difference_sad(PlaneView<std::uint8_t> prev, PlaneView<std::uint8_t> cur,
                                     unsigned width, unsigned height,
                                     std::span<std::int32_t> scratch) {
  return sad_impl<std::int32_t>(prev, cur, width, height, 8, scratch);
}

std::uint64_t blurred_difference_sad(PlaneView<std::uint16_t> prev, PlaneView<std::uint16_t> cur,
                                     unsigned width, unsigned height, unsigned bpc,
                                     std::span<std::int32_t> scratch) {
  assert(bpc > 8 && bpc <= 16);
  if (bpc <= kMaxBpcInt32Vertical) {
    return sad_impl<std::int32_t>(prev, cur, width, height, bpc, scratch);
  }
  return sad_impl<std::int64_t>(prev, cur, width, height, bpc, scratch);
}

}  // namespace vqx::motion

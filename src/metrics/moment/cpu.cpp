// Integer sums where they equal the reference's float/double sums exactly,
// and the reference's own arithmetic where they would not.
//
// The first moment: a sample in 8-bit units is v / 2^(bpc-8) < 256, a
// multiple of 2^-8 at worst, and the sum over at most kMaxPixels samples
// stays below 2^53 such units, so every double partial sum is exact: the
// sum equals the integer sum of v divided by 2^(bpc-8), in any order.
//
// The second moment: up to float_psnr::kMaxExactBpc bits the float squares
// are exact too (see float_psnr/params.hpp), and so is their double sum: it
// is the integer sum of v^2 divided by 4^(bpc-8). Deeper samples round
// their squares to float, so there the reference's order is followed.
#include "metrics/moment/cpu.hpp"

#include <cstdint>

#include "metrics/float_psnr/params.hpp"

namespace vqx::moment {

namespace {

static_assert(double{UINT16_MAX} * double{kMaxPixels} < 9007199254740992.0,
              "the first moment's integer sum must be exact in double");

struct IntegerSums {
  std::uint64_t sum = 0;
  std::uint64_t sum_squares = 0;
};

// 8-bit: a row's sums fit uint32 (255^2 * kMaxDimension < 2^32).
static_assert(std::uint64_t{255} * 255 * kMaxDimension <= UINT32_MAX);

IntegerSums integer_sums_8(const Plane& plane) {
  IntegerSums s;
  const unsigned w = plane.width();
  for (unsigned y = 0; y < plane.height(); ++y) {
    const std::uint8_t* __restrict r = plane.row<std::uint8_t>(y);
    std::uint32_t sum = 0;
    std::uint32_t squares = 0;
    for (unsigned x = 0; x < w; ++x) {
      const std::uint32_t v = r[x];
      sum += v;
      squares += v * v;
    }
    s.sum += sum;
    s.sum_squares += squares;
  }
  return s;
}

// 9 to 12 bits: a sample fits int16, so the compiler can square it and add
// pairs of squares in 16-bit lanes (pmaddwd on x86). The 32-bit sums go
// into the 64-bit totals every `run` samples, before the sum of squares
// could overflow (at 12 bits, every 256 samples; the bound needs samples
// below 2^bpc).
IntegerSums integer_sums_16(const Plane& plane, unsigned bpc) {
  const std::uint32_t max = (1U << bpc) - 1;
  const unsigned run = UINT32_MAX / (max * max);
  IntegerSums s;
  const unsigned w = plane.width();
  for (unsigned y = 0; y < plane.height(); ++y) {
    const std::uint16_t* __restrict r = plane.row<std::uint16_t>(y);
    for (unsigned x0 = 0; x0 < w; x0 += run) {
      const unsigned end = w - x0 < run ? w : x0 + run;
      std::uint32_t sum = 0;
      std::uint32_t squares = 0;
      for (unsigned x = x0; x < end; ++x) {
        const auto v = static_cast<std::int16_t>(r[x]);
        sum += static_cast<std::uint32_t>(v);
        squares += static_cast<std::uint32_t>(v * v);
      }
      s.sum += sum;
      s.sum_squares += squares;
    }
  }
  return s;
}

// Deeper than kMaxExactBpc: the first moment from integers (exact at any
// depth), the second one sample after the other as the reference does
// (float sample, float square, double sum).
Sums deep_sums(const Plane& plane, unsigned bpc) {
  const float inv_scale = float_psnr::inv_sample_scale(bpc);
  std::uint64_t sum = 0;
  double squares = 0;
  for (unsigned y = 0; y < plane.height(); ++y) {
    const std::uint16_t* r = plane.row<std::uint16_t>(y);
    for (unsigned x = 0; x < plane.width(); ++x) {
      sum += r[x];
      const float v = static_cast<float>(r[x]) * inv_scale;
      const float square = v * v;
      squares += square;
    }
  }
  return {static_cast<double>(sum) * inv_scale, squares};
}

}  // namespace

Sums plane_sums(const Plane& plane, unsigned bpc) {
  if (bpc > float_psnr::kMaxExactBpc) {
    return deep_sums(plane, bpc);
  }
  const IntegerSums s = bpc == 8 ? integer_sums_8(plane) : integer_sums_16(plane, bpc);
  return {float_psnr::scaled_sum(s.sum, bpc), float_psnr::scaled_square_sum(s.sum_squares, bpc)};
}

}  // namespace vqx::moment

// Integer SSIM ("ssim", libvmaf feature/integer_ssim.c, after Xiph's
// fixed-point SSIM): the numbers, written once for both twins.
//
// The measure: a 9x9 separable integer Gaussian window (sigma 1.5, taps
// summing to 256) at every pixel of the luma, truncated at the picture's
// edges (no padding): each pixel's window keeps the taps that fall inside
// the picture, and its statistics are weighted by what remains. The window
// sums of x, y, x^2, y^2 and x*y are exact integers; each pixel's SSIM is
// formed from them in double, multiplied by its window's weight W, and the
// frame score is sum(W * ssim) / sum(W) over every pixel in row-major order
// (docs/metrics.md: the sources, and the overflow the reference has above
// 12 bits, which VQX does not copy).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "vqx/picture.hpp"

namespace vqx::integer_ssim {

// The window's half width and taps. integer_ssim.c, gaussian_filter_init(
// sigma 1.5, max_len 5): tap i = (unsigned)(256 * exp(-i^2 / (2 sigma^2)) /
// (sqrt(2 pi) sigma) + 0.5) for i = 1..4, the centre 256 minus the others.
// The unit test IntegerSsimParams.TapsAreTheReferenceDerivation recomputes
// them by that rule.
inline constexpr int kRadius = 4;
inline constexpr int kTaps = 2 * kRadius + 1;
inline constexpr std::array<std::int32_t, kTaps> kWindow = {2, 9, 28, 55, 68, 55, 28, 9, 2};
inline constexpr int kWindowShift = 8;  // KERNEL_SHIFT: the taps sum to 2^8

[[nodiscard]] constexpr std::int64_t tap_sum() {
  std::int64_t s = 0;
  for (const std::int32_t t : kWindow) s += t;
  return s;
}
static_assert(tap_sum() == std::int64_t{1} << kWindowShift);

// SSIM_K1 and SSIM_K2 of integer_ssim.c, evaluated as it writes them (a
// product of two doubles, not the literals 1e-4 and 9e-4).
inline constexpr double kK1 = 0.01 * 0.01;
inline constexpr double kK2 = 0.03 * 0.03;

// The luma's peak squared, (2^bpc - 1)^2. integer_ssim.c squares the peak
// in int, which overflows at 16 bits; this is the intended value at every
// depth (equal to the reference's up to 15 bits).
[[nodiscard]] constexpr std::int64_t peak_squared(unsigned bpc) {
  const std::int64_t peak = (std::int64_t{1} << bpc) - 1;
  return peak * peak;
}

// The taps of the window centred on position `pos` of an axis of `size`
// samples that fall inside it: taps [first, end), tap k reading position
// pos - kRadius + k (integer_ssim.c's k_min and k_max, both passes).
struct TapRange {
  int first;
  int end;
};
[[nodiscard]] constexpr TapRange tap_range(int pos, int size) {
  const int first = pos < kRadius ? kRadius - pos : 0;
  const int past = pos + kRadius + 1 - size;  // taps beyond the last sample
  return {first, past > 0 ? kTaps - past : kTaps};
}

// The taps as a plain struct, which the GPU kernels take as an argument
// (device code cannot index kWindow itself); the functions below read the
// taps from it on both twins.
struct WindowTaps {
  std::int32_t tap[kTaps];
};
[[nodiscard]] constexpr WindowTaps window_taps() {
  WindowTaps t{};
  for (int k = 0; k < kTaps; ++k) t.tap[k] = kWindow[static_cast<std::size_t>(k)];
  return t;
}

// The weight the window keeps along one axis at `pos`: the sum of its taps
// inside the picture (68 at least, 256 away from the edges).
[[nodiscard]] constexpr std::int64_t axis_weight(int pos, int size, const WindowTaps& taps) {
  const TapRange r = tap_range(pos, size);
  std::int64_t w = 0;
  for (int k = r.first; k < r.end; ++k) w += taps.tap[k];
  return w;
}
[[nodiscard]] constexpr std::int64_t axis_weight(int pos, int size) {
  return axis_weight(pos, size, window_taps());
}

// A pixel's window weight W: the product of its two axes' weights. The
// reference forms it as the vertical filter of the horizontal weights,
// sum_k tap_k * w_h(x) = w_v(y) * w_h(x): the same integer.
[[nodiscard]] constexpr std::int64_t pixel_weight(int x, int y, int width, int height,
                                                  const WindowTaps& taps) {
  return axis_weight(x, width, taps) * axis_weight(y, height, taps);
}

// sum(W) over the picture, which the reference accumulates in a double
// pixel by pixel. Every partial sum is an integer below 2^53 (W <= 2^16,
// at most kMaxPixels = 2^28 pixels), so each of its additions is exact and
// the double is this integer: the product of the axes' sums.
[[nodiscard]] constexpr std::int64_t weight_total(int width, int height) {
  std::int64_t wx = 0;
  for (int x = 0; x < width; ++x) wx += axis_weight(x, width);
  std::int64_t wy = 0;
  for (int y = 0; y < height; ++y) wy += axis_weight(y, height);
  return wx * wy;
}
static_assert((std::int64_t{1} << (2 * kWindowShift)) * static_cast<std::int64_t>(kMaxPixels) <
              (std::int64_t{1} << 53));

// Bit depths (every depth VQX reads; the reference's own arithmetic is exact
// up to kExactBpc, docs/metrics.md).
inline constexpr unsigned kMinBpc = 8;
inline constexpr unsigned kMaxBpc = 16;
inline constexpr unsigned kExactBpc = 12;

// The largest products of the reference's horizontal pass, tap * s * s in
// 32-bit int: within INT32_MAX up to kExactBpc bits, past it from the next.
[[nodiscard]] constexpr std::int64_t largest_product(unsigned bpc) {
  return std::int64_t{kWindow[kRadius]} * peak_squared(bpc);
}
static_assert(largest_product(kExactBpc) <= INT32_MAX);
static_assert(largest_product(kExactBpc + 1) > INT32_MAX);

}  // namespace vqx::integer_ssim

// The arithmetic of integer SSIM at one pixel, written once for both twins:
// the CPU's row loops (cpu.cpp) and the GPU's kernels (gpu_kernels.cuh)
// call these. Plain constexpr functions: host and device code alike
// (docs/gpu.md, "Every number once").
//
// The window sums are exact 64-bit integers, so their order is free. The
// pixel's term is integer_ssim.c's double expression, operation for
// operation and in its order (nothing fused: cmake/FloatingPoint.cmake,
// --fmad=false), so that both twins and the reference give the same bits.
#pragma once

#include <cstdint>

#include "metrics/integer_ssim/params.hpp"

namespace vqx::integer_ssim {

// A window's weighted sums of the reference (x) and distorted (y) samples:
// sum w x, sum w y, sum w x^2, sum w y^2, sum w x y. The largest, at 16
// bits, is 2^16 * (2^16 - 1)^2 < 2^48.
struct Moments {
  std::int64_t x = 0;
  std::int64_t y = 0;
  std::int64_t xx = 0;
  std::int64_t yy = 0;
  std::int64_t xy = 0;
};

// The horizontal pass: one sample pair under tap `tap`. The reference forms
// tap * s * s in 32-bit int, which overflows above 12 bits; in 64 bits it is
// the intended value at every depth and the reference's own up to 12.
constexpr void add_samples(Moments& m, std::int64_t tap, std::int64_t a, std::int64_t b) {
  m.x += tap * a;
  m.y += tap * b;
  m.xx += tap * a * a;
  m.yy += tap * b * b;
  m.xy += tap * a * b;
}

// The vertical pass: one row's horizontal sums under tap `tap`.
constexpr void add_row(Moments& m, std::int64_t tap, const Moments& row) {
  m.x += tap * row.x;
  m.y += tap * row.y;
  m.xx += tap * row.xx;
  m.yy += tap * row.yy;
  m.xy += tap * row.xy;
}

// W * ssim at one pixel, from its window's sums and weight W and the peak
// squared: integer_ssim.c's expression, in its operations and order, with
//   mu_x = x / W, sigma_x^2 = xx / W - mu_x^2, ... all scaled by W^2:
//   c1 = L^2 K1 W^2, c2 = L^2 K2 W^2,
//   W (2 x y + c1) (c2 + 2 (xy W - x y)) /
//     ((x^2 + y^2 + c1) (xx W - x^2 + yy W - y^2 + c2)).
// Every integer converts to double exactly (below 2^53); the products and
// sums round as the reference's do.
[[nodiscard]] constexpr double weighted_ssim(const Moments& m, std::int64_t weight,
                                             std::int64_t peak_sq) {
  const double w = static_cast<double>(weight);
  const double peak2 = static_cast<double>(peak_sq);
  const double c1 = peak2 * kK1 * w * w;
  const double c2 = peak2 * kK2 * w * w;
  const double mx = static_cast<double>(m.x);
  const double my = static_cast<double>(m.y);
  const double mx2 = mx * mx;
  const double mxy = mx * my;
  const double my2 = my * my;
  const double xx = static_cast<double>(m.xx);
  const double yy = static_cast<double>(m.yy);
  const double xy = static_cast<double>(m.xy);
  return w * (2 * mxy + c1) * (c2 + 2 * (xy * w - mxy)) /
         ((mx2 + my2 + c1) * (xx * w - mx2 + yy * w - my2 + c2));
}

}  // namespace vqx::integer_ssim

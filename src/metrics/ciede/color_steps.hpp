// libvmaf's Y'CbCr-to-Lab conversion (ciede.c, get_lab_color), step by
// step, each IEEE operation of libvmaf's in its order and type, with VQX's
// pow (elementary.hpp) where libvmaf calls libm's: the CPU's batches
// (lab_batch.cpp) and the GPU twin (gpu_kernels.cuh) call lab_of() for
// every colour. Plain constexpr functions, branch-free (pick(): the CPU's
// loops vectorise); host and device code alike.
#pragma once

#include <cstdint>

#include "core/kernel_build.hpp"
#include "metrics/ciede/blend.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/elementary.hpp"
#include "metrics/ciede/params.hpp"

namespace vqx::ciede::steps {

struct Rgb {
  double r;
  double g;
  double b;
};

// Normalised samples through the BT.709 matrix: non-linear R'G'B'.
VQX_FORCE_INLINE constexpr Rgb rgb_prime(double y, double u, double v, const YuvScale& s) {
  const double yn = (y - s.luma_offset) * s.luma_inv_range;
  const double un = (u - s.chroma_offset) * s.chroma_inv_range;
  const double vn = (v - s.chroma_offset) * s.chroma_inv_range;
  return {yn + kCrToR * vn, yn - kCbToG * un - kCrToG * vn, yn + kCbToB * un};
}

// The sRGB curve: pow(gamma_base(c), 2.4) above the threshold, else linear.
VQX_FORCE_INLINE constexpr bool on_gamma_segment(double c) { return c > kLinearThreshold; }
VQX_FORCE_INLINE constexpr double gamma_base(double c) {
  return (c + kGammaOffset) * (1.0 / kGammaScale);
}
VQX_FORCE_INLINE constexpr double linear_segment(double c) { return c * (1.0 / kLinearSlope); }

// One row of the RGB-to-XYZ matrix, then the white point (X and Z rows).
// The row is a template argument, so that its coefficients are constants
// (device code cannot read a host array).
template <int Row>
VQX_FORCE_INLINE constexpr double xyz_row(double r, double g, double b) {
  constexpr double kR = kRgbToXyz[Row][0];
  constexpr double kG = kRgbToXyz[Row][1];
  constexpr double kB = kRgbToXyz[Row][2];
  return r * kR + g * kG + b * kB;
}
VQX_FORCE_INLINE constexpr double x_over_white(double x) { return x * (1.0 / kWhiteX); }
VQX_FORCE_INLINE constexpr double z_over_white(double z) { return z * (1.0 / kWhiteZ); }

// CIELAB's f(t): pow(t, 1/3) above epsilon, else this line.
VQX_FORCE_INLINE constexpr bool on_cube_root_segment(double t) { return t > kLabEpsilon; }
VQX_FORCE_INLINE constexpr double lab_f_linear(double t) {
  return (kLabKappa * t + kLabLinearOffset) * (1.0 / kLabLinearDivisor);
}

// L, a, b from the three f values (floats, as libvmaf's helper returns them).
VQX_FORCE_INLINE constexpr Lab lab_from_f(float fx, float fy, float fz) {
  const double x = fx;
  const double y = fy;
  const double z = fz;
  return {static_cast<float>(kLabL * y - kLabLinearOffset), static_cast<float>(kLabA * (x - y)),
          static_cast<float>(kLabB * (y - z))};
}

// One linearised component: pow(gamma_base(c), 2.4) on the curve, else the
// line (the power is computed either way and not selected off the curve).
VQX_FORCE_INLINE constexpr double linearise(double c) {
  const double curve = elementary::pow(gamma_base(c), kGamma);
  return pick(on_gamma_segment(c), curve, linear_segment(c));
}

// f(t), rounded to float as libvmaf's xyz_to_lab_map returns it.
VQX_FORCE_INLINE constexpr float lab_f(double t) {
  const double root = elementary::pow(t, kLabCubeRootExponent);
  return static_cast<float>(pick(on_cube_root_segment(t), root, lab_f_linear(t)));
}

// The Lab colour of one pixel from its three samples.
VQX_FORCE_INLINE constexpr Lab lab_of(double y, double u, double v, const YuvScale& s) {
  const Rgb p = rgb_prime(y, u, v, s);
  const double r = linearise(p.r);
  const double g = linearise(p.g);
  const double b = linearise(p.b);
  return lab_from_f(lab_f(x_over_white(xyz_row<0>(r, g, b))), lab_f(xyz_row<1>(r, g, b)),
                    lab_f(z_over_white(xyz_row<2>(r, g, b))));
}

// The same from a packed (y, u, v) key (caches.hpp's pack_yuv).
VQX_FORCE_INLINE constexpr Lab lab_of_key(std::uint64_t key, const YuvScale& s) {
  return lab_of(static_cast<double>(static_cast<std::int32_t>(key >> 32)),
                static_cast<double>(static_cast<std::int32_t>((key >> 16) & 0xFFFF)),
                static_cast<double>(static_cast<std::int32_t>(key & 0xFFFF)), s);
}

}  // namespace vqx::ciede::steps

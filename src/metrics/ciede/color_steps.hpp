// The IEEE steps of libvmaf's Y'CbCr-to-Lab conversion (ciede.c,
// get_lab_color), shared by the libm version (color.cpp) and the batch
// version (lab_batch.cpp) so that both do exactly the same arithmetic
// around the pow() calls.
#pragma once

#include "core/kernel_build.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/params.hpp"

namespace vqx::ciede::steps {

struct Rgb {
  double r;
  double g;
  double b;
};

// Normalised samples through the BT.709 matrix: non-linear R'G'B'.
VQX_FORCE_INLINE Rgb rgb_prime(double y, double u, double v, const YuvScale& s) {
  const double yn = (y - s.luma_offset) * s.luma_inv_range;
  const double un = (u - s.chroma_offset) * s.chroma_inv_range;
  const double vn = (v - s.chroma_offset) * s.chroma_inv_range;
  return {yn + kCrToR * vn, yn - kCbToG * un - kCrToG * vn, yn + kCbToB * un};
}

// The sRGB curve: pow(gamma_base(c), 2.4) above the threshold, else linear.
VQX_FORCE_INLINE bool on_gamma_segment(double c) { return c > kLinearThreshold; }
VQX_FORCE_INLINE double gamma_base(double c) { return (c + kGammaOffset) * (1.0 / kGammaScale); }
VQX_FORCE_INLINE double linear_segment(double c) { return c * (1.0 / kLinearSlope); }

// One row of the RGB-to-XYZ matrix, then the white point (X and Z rows).
VQX_FORCE_INLINE double xyz_row(int row, double r, double g, double b) {
  return r * kRgbToXyz[row][0] + g * kRgbToXyz[row][1] + b * kRgbToXyz[row][2];
}
VQX_FORCE_INLINE double x_over_white(double x) { return x * (1.0 / kWhiteX); }
VQX_FORCE_INLINE double z_over_white(double z) { return z * (1.0 / kWhiteZ); }

// CIELAB's f(t): pow(t, 1/3) above epsilon, else this line.
VQX_FORCE_INLINE bool on_cube_root_segment(double t) { return t > kLabEpsilon; }
VQX_FORCE_INLINE double lab_f_linear(double t) {
  return (kLabKappa * t + kLabLinearOffset) * (1.0 / kLabLinearDivisor);
}

// L, a, b from the three f values (floats, as libvmaf's helper returns them).
VQX_FORCE_INLINE Lab lab_from_f(float fx, float fy, float fz) {
  const double x = fx;
  const double y = fy;
  const double z = fz;
  return {static_cast<float>(kLabL * y - kLabLinearOffset), static_cast<float>(kLabA * (x - y)),
          static_cast<float>(kLabB * (y - z))};
}

}  // namespace vqx::ciede::steps

// The arithmetic of SSIM at one sample or one window position, written once
// for both twins: the CPU kernels (window.cpp, decimate.cpp) call these in
// their row loops and the GPU kernels (gpu_*.cuh) per thread. Plain
// constexpr functions: host and device code alike (docs/gpu.md, "Every
// number once"), each float and double operation of libvmaf's
// (iqa/convolve.c, iqa/ssim_tools.c) in its order and type, nothing fused
// (cmake/FloatingPoint.cmake, --fmad=false, -ffp-contract=off).
//
// The square root is not here (no constexpr root): each twin takes the
// float root of Moments::product with its correctly rounded instruction
// (docs/gpu.md says why the two are equal).
#pragma once

#include "metrics/ssim/params.hpp"

namespace vqx::ssim {

// One term of a filter sum: the product of a sample and a tap, rounded to
// float, then widened for the double sum (iqa/convolve.c).
[[nodiscard]] constexpr double tap_term(float sample, float tap) {
  return static_cast<double>(sample * tap);
}

// What the window's second moments filter at one sample: x*x, y*y, x*y in
// float (iqa/ssim_tools.c squares the pictures before filtering them).
[[nodiscard]] constexpr float square(float a) { return a * a; }
[[nodiscard]] constexpr float product(float a, float b) { return a * b; }

// The variances and covariance at one position from the filtered means
// (mu1, mu2) and second moments (m11, m22, m12), all float as in libvmaf,
// and the product of the variances, whose root is the term's sd12.
struct Moments {
  float var1;
  float var2;
  float cov;
  float product;
};
[[nodiscard]] constexpr Moments moments(float mu1, float mu2, float m11, float m22, float m12) {
  float var1 = m11 - mu1 * mu1;
  float var2 = m22 - mu2 * mu2;
  var1 = var1 < 0.0f ? 0.0f : var1;  // rounding can make a flat patch's variance negative
  var2 = var2 < 0.0f ? 0.0f : var2;
  return {var1, var2, m12 - mu1 * mu2, var1 * var2};
}

// The SSIM terms at one position, from the means, Moments' variances and
// covariance, and sd12, the float root of Moments::product. Types follow libvmaf exactly: the
// luminance and contrast quotients divide a double by a float sum, the
// structure quotient is float.
struct Terms {
  double ssim;  // l * c * s
  double l;
  double c;
  double s;
};
[[nodiscard]] constexpr Terms terms(float mu1, float mu2, float var1, float var2, float cov12,
                                    float sd12) {
  const double l = (2.0 * mu1 * mu2 + kC1) / static_cast<double>(mu1 * mu1 + mu2 * mu2 + kC1);
  const double c = (2.0 * sd12 + kC2) / static_cast<double>(var1 + var2 + kC2);
  // In a flat patch the covariance may round below 0 where the root
  // product is 0; libvmaf then takes it as 0 so that equal pictures score 1.
  const float cov = (cov12 < 0.0f && sd12 <= 0.0f) ? 0.0f : cov12;
  const float s = (cov + kC3) / (sd12 + kC3);
  return {l * c * static_cast<double>(s), l, c, static_cast<double>(s)};
}

// The sum of one row of per-position values in the fixed order of
// params.hpp (kSumSegment, kSumGroup): the CPU twin's, and the definition
// the GPU twin's parallel reduction follows step for step.
[[nodiscard]] constexpr double row_sum(const double* v, int n) {
  double row = 0.0;
  for (int g = 0; g < n; g += kSumGroup) {
    const int group_end = n < g + kSumGroup ? n : g + kSumGroup;
    double group = 0.0;
    for (int s = g; s < group_end; s += kSumSegment) {
      const int segment_end = group_end < s + kSumSegment ? group_end : s + kSumSegment;
      double segment = 0.0;
      for (int x = s; x < segment_end; ++x) segment += v[x];
      group += segment;
    }
    row += group;
  }
  return row;
}

}  // namespace vqx::ssim

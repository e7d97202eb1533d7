// The arithmetic of float VIF at one position, written once for both
// twins: the CPU's row loop (statistic.cpp) and the GPU's statistics kernel
// (gpu_kernels.cuh) call pixel_terms() per position. Plain constexpr C++
// (float_common/float_ops.hpp): libvmaf's operations (vif_tools.c,
// vif_statistic_s, "matching_matlab" mode, with log2f_approx) in its order
// and types, nothing fused; its branches are selections, with the values
// libvmaf's branches give.
#pragma once

#include <cstdint>
#include <limits>

#include "metrics/float_common/float_ops.hpp"
#include "metrics/float_vif/params.hpp"

namespace vqx::float_vif {

// The constants of one configuration.
struct StatParams {
  double sigma_nsq = 2.0;      // vif_sigma_nsq, the neural noise variance
  float gain_limit = 100.0f;   // vif_enhn_gain_limit, as float
  float sigma_max_inv = 0.0f;  // sigma_nsq^2 / 255^2, as libvmaf rounds it
};

// log2f_approx's value for a positive normal x: the exponent plus the
// polynomial of the mantissa minus 1 (Horner from a zero start, in float).
VQX_POINTWISE float log2_bits(float x) {
  const std::uint32_t u = float_common::bits_of(x);
  const int exponent = static_cast<int>((u & kExponentMask) >> kMantissaBits);
  const float remain = float_common::float_of((u & kMantissaMask) | kOneBits);
  const float t = remain - 1.0f;
  // Spelled out, so that the CPU's row loop has no inner loop to stop it
  // vectorising.
  float poly = 0;
  poly = poly * t + kLog2Poly[0];
  poly = poly * t + kLog2Poly[1];
  poly = poly * t + kLog2Poly[2];
  poly = poly * t + kLog2Poly[3];
  poly = poly * t + kLog2Poly[4];
  poly = poly * t + kLog2Poly[5];
  poly = poly * t + kLog2Poly[6];
  poly = poly * t + kLog2Poly[7];
  poly = poly * t + kLog2Poly[8];
  static_assert(kLog2Poly.size() == 9);
  return static_cast<float>(exponent - kExponentBias) + poly;
}

// libvmaf's log2f_approx: NaN below 0, -infinity at 0.
VQX_POINTWISE float log2_approx(float x) {
  float r = log2_bits(x);
  r = float_common::quiet_less(x, 0.0f) ? std::numeric_limits<float>::quiet_NaN() : r;
  return x == 0 ? -std::numeric_limits<float>::infinity() : r;
}

struct Terms {
  float num;
  float den;
};

// One position's information terms from the filtered means (mu1, mu2),
// squares (xx, yy) and product (xy), in libvmaf's statement order: the
// float variances clamped at 0, the gain g and the residual variance sv^2
// with their special cases, then the two log2 terms, whose quotients are
// formed in double because sigma_nsq is a double.
VQX_POINTWISE Terms pixel_terms(float mu1, float mu2, float xx, float yy, float xy,
                                const StatParams& p) {
  using float_common::quiet_greater;
  using float_common::quiet_less;
  const float mu1_sq = mu1 * mu1;
  const float mu2_sq = mu2 * mu2;
  const float mu1_mu2 = mu1 * mu2;
  float sigma1_sq = xx - mu1_sq;
  float sigma2_sq = yy - mu2_sq;
  const float sigma12 = xy - mu1_mu2;
  sigma1_sq = quiet_greater(sigma1_sq, 0.0f) ? sigma1_sq : 0.0f;
  sigma2_sq = quiet_greater(sigma2_sq, 0.0f) ? sigma2_sq : 0.0f;

  float g = sigma12 / (sigma1_sq + kEps);
  float sv_sq = sigma2_sq - g * sigma12;
  const bool flat1 = quiet_less(sigma1_sq, kEps);
  g = flat1 ? 0.0f : g;
  sv_sq = flat1 ? sigma2_sq : sv_sq;
  sigma1_sq = flat1 ? 0.0f : sigma1_sq;
  const bool flat2 = quiet_less(sigma2_sq, kEps);
  g = flat2 ? 0.0f : g;
  sv_sq = flat2 ? 0.0f : sv_sq;
  const bool negative = quiet_less(g, 0.0f);
  sv_sq = negative ? sigma2_sq : sv_sq;
  g = negative ? 0.0f : g;
  sv_sq = quiet_greater(sv_sq, kEps) ? sv_sq : kEps;
  g = quiet_less(g, p.gain_limit) ? g : p.gain_limit;

  const double gain_term =
      static_cast<double>(g * g * sigma1_sq) / (static_cast<double>(sv_sq) + p.sigma_nsq);
  float num = log2_approx(static_cast<float>(1.0 + gain_term));
  float den = log2_approx(static_cast<float>(1.0 + static_cast<double>(sigma1_sq) / p.sigma_nsq));
  num = quiet_less(sigma12, 0.0f) ? 0.0f : num;
  const bool below_noise = quiet_less(static_cast<double>(sigma1_sq), p.sigma_nsq);
  num = below_noise ? 1.0f - sigma2_sq * p.sigma_max_inv : num;
  den = below_noise ? 1.0f : den;
  return {num, den};
}

}  // namespace vqx::float_vif

#include "metrics/float_vif/statistic.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "metrics/float_common/float_ops.hpp"
#include "metrics/float_vif/params.hpp"

namespace vqx::float_vif {

namespace {

using float_common::bits_of;
using float_common::float_of;
using float_common::quiet_greater;
using float_common::quiet_less;

constexpr std::uint32_t kExponentMask = 0x7F800000U;
constexpr std::uint32_t kMantissaMask = 0x007FFFFFU;
constexpr std::uint32_t kOneBits = 0x3F800000U;  // 1.0f
constexpr int kExponentBias = 127;
constexpr int kMantissaBits = 23;

VQX_FORCE_INLINE float log2_bits(float x) {
  const std::uint32_t u = bits_of(x);
  const int exponent = static_cast<int>((u & kExponentMask) >> kMantissaBits);
  const float remain = float_of((u & kMantissaMask) | kOneBits);
  const float t = remain - 1.0f;
  // Horner from a zero start, spelled out so that the row loop has no
  // inner loop to stop it vectorising.
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

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// Written with selections rather than branches, and with quiet comparisons
// (same results as <), so that the row loop vectorises; the selected
// values are those of libvmaf's branches.
VQX_FORCE_INLINE float log2_approx_inline(float x) {
  float r = log2_bits(x);
  r = quiet_less(x, 0.0f) ? kNaN : r;
  return x == 0 ? kMinusInf : r;
}

struct Terms {
  float num;
  float den;
};

// One pixel, libvmaf's statement order: the float variances clamped at 0,
// the gain g and the residual variance sv^2 with their special cases (each
// `if` of libvmaf is a selection here), then the two log2 terms, whose
// quotients are formed in double because sigma_nsq is a double.
VQX_FORCE_INLINE Terms pixel_terms(float mu1, float mu2, float xx, float yy, float xy,
                                   const StatParams& p) {
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
  float num = log2_approx_inline(static_cast<float>(1.0 + gain_term));
  float den =
      log2_approx_inline(static_cast<float>(1.0 + static_cast<double>(sigma1_sq) / p.sigma_nsq));
  num = quiet_less(sigma12, 0.0f) ? 0.0f : num;
  const bool below_noise = quiet_less(static_cast<double>(sigma1_sq), p.sigma_nsq);
  num = below_noise ? 1.0f - sigma2_sq * p.sigma_max_inv : num;
  den = below_noise ? 1.0f : den;
  return {num, den};
}

VQX_CLONES
void row_terms(const float* __restrict mu1, const float* __restrict mu2, const float* __restrict xx,
               const float* __restrict yy, const float* __restrict xy, unsigned width,
               const StatParams& p, float* __restrict num, float* __restrict den) {
  const StatParams q = p;
  for (unsigned j = 0; j < width; ++j) {
    const Terms t = pixel_terms(mu1[j], mu2[j], xx[j], yy[j], xy[j], q);
    num[j] = t.num;
    den[j] = t.den;
  }
}

}  // namespace

StatParams make_stat_params(double gain_limit, double sigma_nsq) {
  StatParams p;
  p.sigma_nsq = sigma_nsq;
  p.gain_limit = static_cast<float>(gain_limit);
  // libvmaf: powf(vif_sigma_nsq, 2.0f) / (255.0 * 255.0), kept as float.
  p.sigma_max_inv = static_cast<float>(
      static_cast<double>(std::pow(static_cast<float>(sigma_nsq), 2.0f)) / kMaxSampleSquared);
  return p;
}

float log2_approx(float x) { return log2_approx_inline(x); }

void add_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy,
             unsigned width, const StatParams& p, float* scratch, float& num, float& den) {
  float* nums = scratch;
  float* dens = scratch + width;
  row_terms(mu1, mu2, xx, yy, xy, width, p, nums, dens);
  // The row sums are chains of dependent float additions (their order is
  // part of the result); the two chains run side by side.
  float row_num = 0;
  float row_den = 0;
  for (unsigned j = 0; j < width; ++j) {
    row_num += nums[j];
    row_den += dens[j];
  }
  num += row_num;
  den += row_den;
}

}  // namespace vqx::float_vif

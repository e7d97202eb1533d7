#include "metrics/float_vif/statistic.hpp"

#include <cmath>

#include "metrics/float_vif/params.hpp"
#include "metrics/float_vif/pointwise.hpp"

namespace vqx::float_vif {

namespace reference {

void row_terms(const float* mu1, const float* mu2, const float* xx, const float* yy,
               const float* xy, unsigned width, const StatParams& p, float* num, float* den) {
  for (unsigned j = 0; j < width; ++j) {
    const Terms t = pixel_terms(mu1[j], mu2[j], xx[j], yy[j], xy[j], p);
    num[j] = t.num;
    den[j] = t.den;
  }
}

}  // namespace reference

StatParams make_stat_params(double gain_limit, double sigma_nsq) {
  StatParams p;
  p.sigma_nsq = sigma_nsq;
  p.gain_limit = static_cast<float>(gain_limit);
  // libvmaf: powf(vif_sigma_nsq, 2.0f) / (255.0 * 255.0), kept as float.
  p.sigma_max_inv = static_cast<float>(
      static_cast<double>(std::pow(static_cast<float>(sigma_nsq), 2.0f)) / kMaxSampleSquared);
  return p;
}

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

#include "metrics/float_vif/gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "metrics/float_vif/params.hpp"

namespace vqx::float_vif {

namespace {

// libvmaf round_up_to_odd(): ceil in double of a float, then odd.
int round_up_to_odd(float f) {
  const int c = static_cast<int>(std::ceil(static_cast<double>(f)));
  return c % 2 == 0 ? c + 1 : c;
}

// libvmaf get_gaussian_pdf(): the exponent and the normalisation in double,
// each kept as float, then a float quotient.
float gaussian_pdf(float x, float stdev) {
  const double d = static_cast<double>(x - 0.0f);
  const double s = stdev;
  const auto num = static_cast<float>(std::exp(-0.5 * d / s * d / s));
  const auto den = static_cast<float>(1 / (s * std::sqrt(2 * std::numbers::pi)));
  return num / den;
}

}  // namespace

bool valid_kernelscale(float kernelscale) {
  return std::any_of(kValidKernelScales.begin(), kValidKernelScales.end(),
                     [&](float v) { return std::fabs(kernelscale - v) < kKernelScaleTolerance; });
}

unsigned filter_taps(int scale, float kernelscale) {
  const int n = (1 << (kFilterBaseExponent - scale)) + 1;
  const int taps = round_up_to_odd(static_cast<float>(n) * kernelscale);
  return static_cast<unsigned>(std::max(taps, static_cast<int>(kMinFilterTaps)));
}

std::vector<float> gaussian_filter(int scale, float kernelscale) {
  const unsigned size = filter_taps(scale, kernelscale);
  const float stdev = static_cast<float>(size) / kTapsPerSigma;
  const int half = static_cast<int>(size - 1) / 2;
  std::vector<float> taps(size);
  float sum = 0;
  for (unsigned i = 0; i < size; ++i) {
    taps[i] = gaussian_pdf(static_cast<float>(static_cast<int>(i) - half), stdev);
    sum += taps[i];
  }
  for (float& t : taps) t /= sum;
  return taps;
}

}  // namespace vqx::float_vif

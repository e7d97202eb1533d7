#include "metrics/speed/taps.hpp"

#include <cmath>
#include <numbers>

#include "metrics/speed/params.hpp"

namespace vqx::speed {

namespace {

// vif_get_filter_size(): (2^(4 - scale) + 1) * kernelscale rounded up to an
// odd integer, at least 3. The kernel scale is a float there.
int filter_size(unsigned scale, double kernel_scale) {
  const int n = (1 << (kScales - scale)) + 1;
  const float scaled = static_cast<float>(n) * static_cast<float>(kernel_scale);
  int size = static_cast<int>(std::ceil(scaled));
  if (size % 2 == 0) {
    ++size;
  }
  return size > 3 ? size : 3;
}

// get_1d_gaussian_kernel(): the pdf at -k..k (get_gaussian_pdf(), where the
// exponent and the normaliser are evaluated in double and rounded to float),
// then divided by its float sum.
Taps gaussian(int size, float stdev) {
  Taps t;
  t.f.resize(static_cast<std::size_t>(size));
  const int k = (size - 1) / 2;
  const double s = stdev;
  float sum = 0;
  for (int i = 0; i < size; ++i) {
    const auto d = static_cast<double>(static_cast<float>(i - k));
    const auto num = static_cast<float>(std::exp(-0.5 * d / s * d / s));
    const auto den = static_cast<float>(1 / (s * std::sqrt(2 * std::numbers::pi)));
    t.f[static_cast<std::size_t>(i)] = num / den;
    sum += t.f[static_cast<std::size_t>(i)];
  }
  for (float& v : t.f) {
    v /= sum;
  }
  return t;
}

}  // namespace

Taps antialias_taps(double kernel_scale) {
  const int size = filter_size(1, kernel_scale);
  // sqrt(scale) * window_size / 5.0f, in double, passed on as a float.
  const double stdev = std::sqrt(static_cast<double>(kScales)) * size / 5.0F;
  return gaussian(size, static_cast<float>(stdev));
}

Taps band_taps(double kernel_scale) {
  const int size = filter_size(kScales, kernel_scale);
  return gaussian(size, static_cast<float>(size) / 5.0F);
}

}  // namespace vqx::speed

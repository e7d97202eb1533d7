// The two Gaussian filters of SpEED (libvmaf vif_tools.c: vif_get_filter_size(),
// vif_get_filter(), speed_get_antialias_filter(), get_1d_gaussian_kernel()),
// computed in the reference's float/double mix so that every tap is the same
// float.
#pragma once

#include <vector>

namespace vqx::speed {

struct Taps {
  std::vector<float> f;  // odd count, symmetric, sums to ~1
  [[nodiscard]] int radius() const { return static_cast<int>(f.size()) / 2; }
};

// The anti-aliasing filter applied before decimating by 16: the size of the
// VIF scale-1 filter, with its standard deviation times sqrt(4).
Taps antialias_taps(double kernel_scale);

// The blur whose residual is the band-pass picture: the VIF scale-4 filter.
Taps band_taps(double kernel_scale);

}  // namespace vqx::speed

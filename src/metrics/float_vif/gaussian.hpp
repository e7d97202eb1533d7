// The Gaussian filters of float VIF, computed as libvmaf computes them
// (libvmaf/src/feature/vif_tools.c: vif_get_filter_size, vif_get_filter,
// get_1d_gaussian_kernel, get_gaussian_pdf, vif_validate_kernelscale).
#pragma once

#include <vector>

namespace vqx::float_vif {

// Whether libvmaf accepts `kernelscale` (within 1e-3 of a listed value).
[[nodiscard]] bool valid_kernelscale(float kernelscale);

// Taps of scale s's filter: (2^(4 - s) + 1) * kernelscale, rounded up to an
// odd count, at least 3.
[[nodiscard]] unsigned filter_taps(int scale, float kernelscale);

// Scale s's normalised Gaussian (standard deviation taps / 5), in float.
[[nodiscard]] std::vector<float> gaussian_filter(int scale, float kernelscale);

}  // namespace vqx::float_vif

// The arithmetic of ANSNR at one sample, written once for both twins: the
// CPU kernel (cpu.cpp) calls these in its row loops and the GPU kernels
// (gpu_kernels.cuh) per thread. Plain constexpr functions: host and device
// code alike (docs/gpu.md, "Every number once"), each float operation of
// libvmaf's (ansnr_tools.c: ansnr_filter2d_s, ansnr_mse_s) in its order,
// nothing fused (cmake/FloatingPoint.cmake, --fmad=false, -ffp-contract=off).
#pragma once

#include <array>
#include <cstddef>

#include "metrics/ansnr/params.hpp"

namespace vqx::ansnr {

// A sample in 8-bit units plus the offset: (float)v / 2^(bpc-8) - 128, as
// libvmaf's picture_copy(); the division by a power of 2 is the exact
// multiplication by its inverse.
[[nodiscard]] constexpr float sample_value(float v, float inv_scale) {
  return v * inv_scale + kOffset;
}

// One filter row along one source row: the float sum, from the leftmost
// tap, of c[t] * s(t), where s(t) is the sample under tap t (the border
// already mirrored). The sum starts at the first product (libvmaf starts
// from 0, which gives the same float: cpu.cpp says why).
template <std::size_t Taps, typename Sample>
[[nodiscard]] constexpr float pass_sum(const std::array<float, Taps>& c, Sample s) {
  float acc = c[0] * s(0);
  for (std::size_t t = 1; t < Taps; ++t) acc += c[t] * s(t);
  return acc;
}

// A filtered sample: the row sums added from the top filter row down.
[[nodiscard]] constexpr float ref_filtered(float p0, float p1, float p2) { return (p0 + p1) + p2; }
[[nodiscard]] constexpr float dis_filtered(float p0, float p1, float p2, float p3, float p4) {
  return (((p0 + p1) + p2) + p3) + p4;
}

// The two energies' terms at one sample (ansnr_mse_s): ref_f^2 and
// (ref_f - dis_f)^2.
[[nodiscard]] constexpr float signal_term(float ref_f) { return ref_f * ref_f; }
[[nodiscard]] constexpr float noise_term(float ref_f, float dis_f) {
  const float e = ref_f - dis_f;
  return e * e;
}

}  // namespace vqx::ansnr

// The per-sample arithmetic of the float extractors' shared steps, written
// once for both twins: the CPU kernels (convert.cpp, resample.cpp) call
// these in their loops, the GPU kernels (gpu_kernels.cuh) per thread. Plain
// constexpr C++ (float_ops.hpp), each float operation of libvmaf's in its
// order and type, nothing fused (cmake/FloatingPoint.cmake, --fmad=false,
// -ffp-contract=off).
#pragma once

#include <cstdint>

#include "metrics/float_common/float_ops.hpp"
#include "metrics/float_common/params.hpp"

namespace vqx::float_common {

// libvmaf divides samples of depth bpc by 2^(bpc - 8) (picture_copy()):
// multiplying by this power of two is exact and the same.
VQX_POINTWISE float sample_unit(unsigned bpc) {
  return 1.0f / static_cast<float>(1U << (bpc - kUnitDepth));
}

// A sample as the float extractors see it: v * unit + kSampleOffset. Exact
// for every v < 2^16 (at most 16 significant bits), so the same as
// libvmaf's v / 2^(bpc - 8) - 128 at every depth.
VQX_POINTWISE float sample_value(std::uint32_t v, float unit) {
  return static_cast<float>(v) * unit + kSampleOffset;
}

// One output of a filter: a float sum from 0 that adds taps[k] * at(k) in
// order of k, each product and each sum rounded on its own (libvmaf's
// convolution loops). The CPU's row kernels (convolve.cpp, convolve_simd.cpp)
// compute exactly this for every column, lane by lane.
template <typename At>
VQX_POINTWISE float tap_sum(const float* taps, int n, const At& at) {
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += taps[k] * at(k);
  return acc;
}

// --- Resampling (libvmaf vif_tools.c, vif_scale_frame_s) ---------------------
// The weights, indices and fractions of each output column and row are
// computed once on the host (resample.cpp's axes, libm's sin for Lanczos);
// what follows is each output sample's arithmetic.

// Bilinear: (1-dy)(1-dx) a + (1-dy) dx b + dy (1-dx) c + dy dx d, every
// product and sum in float, left to right; a, b from the first source row
// (columns x1, x2), c, d from the second.
VQX_POINTWISE float bilinear_value(float dx, float dy, float a, float b, float c, float d) {
  return (1 - dy) * (1 - dx) * a + (1 - dy) * dx * b + dy * (1 - dx) * c + dy * dx * d;
}

// Bicubic: for each tap row j (outer) and tap column i (inner), sum +=
// at(i, j) * (wx[i] * wy[j]), from 0.
template <unsigned Taps, typename At>
VQX_POINTWISE float bicubic_value(const float* wx, const float* wy, const At& at) {
  float sum = 0.0f;
  for (unsigned j = 0; j < Taps; ++j) {
    for (unsigned i = 0; i < Taps; ++i) {
      const float weight = wx[i] * wy[j];
      sum += at(i, j) * weight;
    }
  }
  return sum;
}

// Lanczos: the weighted sum and the sum of the weights in the same order,
// both in float, then their quotient.
template <unsigned Taps, typename At>
VQX_POINTWISE float lanczos_value(const float* wx, const float* wy, const At& at) {
  float value = 0.0f;
  float weight_sum = 0.0f;
  for (unsigned j = 0; j < Taps; ++j) {
    for (unsigned i = 0; i < Taps; ++i) {
      const float weight = wx[i] * wy[j];
      weight_sum += weight;
      value += at(i, j) * weight;
    }
  }
  return value / weight_sum;
}

}  // namespace vqx::float_common

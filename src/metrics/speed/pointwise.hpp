// SpEED's per-sample arithmetic, written once as plain constexpr C++ that
// both twins call: the CPU's row loops (rows.cpp, rescale.cpp,
// covariance.cpp) and the GPU's kernels (gpu_kernels.cuh; nvcc and hipcc
// compile constexpr functions for the device as they are). Each function
// is a fixed sequence of IEEE operations (no fused multiply-add on either
// side: cmake/FloatingPoint.cmake, cmake/Gpu.cmake), so the two twins get
// the same floats and doubles from the same inputs (docs/gpu.md).
#pragma once

#include "metrics/speed/params.hpp"

namespace vqx::speed {

// picture_copy.c: a sample as a float centred on 0, v / 2^(bpc - 8) - 128,
// with the division by a power of two taken as a product by its inverse
// (`unit`; exact either way).
template <typename Sample>
constexpr float sample_value(Sample v, float unit) {
  return static_cast<float>(v) * unit + static_cast<float>(kSampleOffset);
}

// The inverse of 2^(bpc - 8).
constexpr float sample_unit(unsigned bpc) { return 1.0F / static_cast<float>(1U << (bpc - 8)); }

// One output sample of an interpolating resampler with T taps per axis
// (rescale.cpp: vif_scale_frame_bilinear_s, _bicubic_s, _lanczos4_s): over
// the row taps j, then the column taps i, src(j, ix[i]) * (wx[i] * wy[j])
// added to a float from 0; lanczos4 (Normalise) divides by the sum of the
// weights, added in the same order. `src(j, column)` reads the source row
// of row tap j.
template <int T, bool Normalise, typename Source>
constexpr float resample(const int* ix, const float* wx, const float* wy, const Source& src) {
  float value = 0.0F;
  float weight_sum = 0.0F;
  for (int j = 0; j < T; ++j) {
    for (int i = 0; i < T; ++i) {
      const float weight = wx[i] * wy[j];
      if constexpr (Normalise) {
        weight_sum += weight;
      }
      value += src(j, ix[i]) * weight;
    }
  }
  if constexpr (Normalise) {
    return value / weight_sum;
  } else {
    return value;
  }
}

// compute_covariance_matrix(): a window's mean is its float sum over the
// float sample count, in float, then widened.
constexpr double window_mean(float total, unsigned count) {
  return static_cast<double>(total / static_cast<float>(count));
}

// A centred sample, in double.
constexpr double centred(float v, double mean) { return static_cast<double>(v) - mean; }

// A covariance entry: the double sum of products over the count, rounded
// to float.
constexpr float covariance_entry(double sum, unsigned count) {
  return static_cast<float>(sum / static_cast<double>(count));
}

// A block's variance estimate s = y' K^-1 y / 25 (gsm.cpp), term by term:
// x = K^-1 y's entry p times y's, over 25, rounded to float (the terms added
// in order from p = 0).
constexpr float variance_term(float x, float y) {
  return (x * y) / static_cast<float>(kBlockElems);
}

// The 25x25 QR decomposition's arithmetic (linalg.cpp: householder_qr;
// the GPU twins' qr_kernel):
// the sign libvmaf's solvers take (speed.c): 0 counts as positive;
constexpr int sign_of(float x) { return x >= 0 ? 1 : -1; }
// the float sum of squares of the kN entries of a vector, in order from 0
// (its norm is the float of the double square root of this);
constexpr float squares_sum(const float* v) {
  float sum = 0;
  for (unsigned i = 0; i < kBlockElems; ++i) {
    sum += v[i] * v[i];
  }
  return sum;
}
// entry (i, j) of the reflector I - 2 v v': -2 v_i v_j, plus 1 on the
// diagonal.
constexpr float reflector_entry(float vi, float vj, bool diagonal) {
  float h = -2 * vi * vj;
  if (diagonal) {
    h += 1;
  }
  return h;
}

// The entries (p, q), q <= p, of the 25x25 covariance matrix, packed row
// by row: (p, q) at p (p + 1) / 2 + q.
inline constexpr int kLowerEntries = static_cast<int>(kBlockElems * (kBlockElems + 1) / 2);
constexpr int lower_index(int p, int q) { return p * (p + 1) / 2 + q; }

}  // namespace vqx::speed

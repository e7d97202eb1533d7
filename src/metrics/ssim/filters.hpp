// The three filters that take most of SSIM's and MS-SSIM's time, over one
// row of outputs: the 11-tap Gaussian across a row and down a column of
// rows (the window's separable passes, window.cpp) and MS-SSIM's 9x9
// low-pass before each subsampling by 2 (decimate.cpp).
//
// Every output is libvmaf's sum (iqa/convolve.c): starting from 0.0, the
// products tap * sample, each rounded to float (tap_term), added one by one
// in double in the order of the taps (row v, then column u, for the
// low-pass), and the sum rounded to float. The `reference` forms are those
// loops as written; the dispatched forms (filters_simd.cpp, Highway) give
// their bits on every target, which the unit tests check for each target the
// CPU executes.
#pragma once

#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"

namespace vqx::ssim {

// out[x] = the Gaussian over in[x .. x + kWindow), 0 <= x < count.
void gaussian_row(const float* in, float* out, int count);

// out[x] = the Gaussian over rows[0][x] .. rows[kWindow - 1][x].
void gaussian_column(const float* const* rows, float* out, int count);

// out[x] = the kLpfSize x kLpfSize filter `taps` (row by row) at output x of
// an input subsampled by kLpfFactor (2): rows[v] is the input row of filter
// row v split into its two phases (even samples, then odd ones phase_stride
// later, as Decimator keeps them), so tap (v, u) meets rows[v][(u % 2) *
// phase_stride + u / 2 + x].
void low_pass_row(const float* const* rows, const float* taps, int phase_stride, float* out,
                  int count);

namespace reference {

inline float gaussian_row_at(const float* in, int x) {
  double sum = 0.0;
  for (int t = 0; t < kWindow; ++t) sum += tap_term(in[x + t], kGaussian[t]);
  return static_cast<float>(sum);
}

inline float gaussian_column_at(const float* const* rows, int x) {
  double sum = 0.0;
  for (int v = 0; v < kWindow; ++v) sum += tap_term(rows[v][x], kGaussian[v]);
  return static_cast<float>(sum);
}

inline float low_pass_at(const float* const* rows, const float* taps, int phase_stride, int x) {
  double sum = 0.0;
  for (int v = 0; v < kLpfSize; ++v) {
    for (int u = 0; u < kLpfSize; ++u) {
      sum += tap_term(rows[v][(u % kLpfFactor) * phase_stride + u / kLpfFactor + x],
                      taps[v * kLpfSize + u]);
    }
  }
  return static_cast<float>(sum);
}

inline void gaussian_row(const float* in, float* out, int count) {
  for (int x = 0; x < count; ++x) out[x] = gaussian_row_at(in, x);
}

inline void gaussian_column(const float* const* rows, float* out, int count) {
  for (int x = 0; x < count; ++x) out[x] = gaussian_column_at(rows, x);
}

inline void low_pass_row(const float* const* rows, const float* taps, int phase_stride, float* out,
                         int count) {
  for (int x = 0; x < count; ++x) out[x] = low_pass_at(rows, taps, phase_stride, x);
}

}  // namespace reference

}  // namespace vqx::ssim

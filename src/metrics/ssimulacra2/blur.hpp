// The recursive Gaussian of SSIMULACRA2 (libjxl tools/gauss_blur.cc,
// "Recursive Implementation of the Gaussian Filter Using Truncated Cosine
// Functions", Charalampidis 2016): three second-order IIR filters (k = 1, 3,
// 5) run forward over a zero-padded line; output n is the sum of the three
//   y_k[n] = n2_k (in[n - N - 1] + in[n + N - 1]) - d1_k y_k[n - 1] - y_k[n - 2]
// started at n = -N + 1 from zero state (N = the radius, 5 for sigma 1.5).
// Rows first, then columns, as libjxl.
//
// SSIMULACRA2's variances are differences of nearly equal blurred values, so
// its score follows the rounding of the blur closely (float noise moves it by
// up to ~0.2). To give libjxl's numbers, both passes round as libjxl's AVX2
// build does: the same fused multiply-adds, and along rows libjxl's
// 4-outputs-at-a-time form of the recursion (kBlockOutputs), whose
// coefficients are the recursion expanded over four steps.
//
// The horizontal pass runs 8 rows at once, one per vector lane; the vertical
// pass runs a row at a time, vectorised along it.
#pragma once

#include "metrics/ssimulacra2/recursion.hpp"

namespace vqx::ssimulacra2 {

// 8 floats, one per row of a horizontal group.
using Lanes8 = float __attribute__((vector_size(32)));
inline constexpr unsigned kGroupRows = 8;
// Zero samples stored before and after a row in the interleaved buffers: the
// first output reads 2N samples left of the picture, the last N - 1 right.
inline constexpr unsigned kPadLeft = 10;
inline constexpr unsigned kPadRight = 4;

// Horizontal pass of the five quantities of 8 rows. a_rows and b_rows point
// at 8 rows of `width` samples (a row of zeros for lanes past the picture).
// a_lanes and b_lanes are scratch of width + kPadLeft + kPadRight groups,
// out_lanes of width groups, all 32-byte aligned. out[q][l] receives row l of
// quantity q (width samples).
void horizontal_group(const float* const* a_rows, const float* const* b_rows, unsigned width,
                      const BlurCoefficients& k, Lanes8* a_lanes, Lanes8* b_lanes,
                      Lanes8* out_lanes, float* const (*out)[kGroupRows]);

// One step of the vertical pass for `width` columns: the input rows n - N - 1
// (top) and n + N - 1 (bottom), either a row of zeros outside the picture;
// prev1[k] and prev2[k] hold filter k's outputs for rows n - 1 and n - 2.
// Row n's filter outputs overwrite prev2 (the caller then swaps the two)
// and their sum goes to out.
void vertical_step(const float* top, const float* bottom, unsigned width, const BlurCoefficients& k,
                   float* const* prev1, float* const* prev2, float* out);

}  // namespace vqx::ssimulacra2

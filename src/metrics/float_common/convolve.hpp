// Separable filtering with mirrored borders, as libvmaf's float extractors
// do it (libvmaf/src/feature/common/convolution.c and convolution_avx.c,
// vif_filter1d*_s in vif_tools.c): a vertical pass, then a horizontal pass
// over its result, each output a float sum that starts at 0 and adds
// taps[k] * sample in order of k. Outside the picture, samples are mirrored
// about the edge samples without repeating them (-1 -> 1, n -> n - 2).
//
// The kernels work on rows; every output is computed with the same
// operations in the same order as in libvmaf, so results are identical.
#pragma once

#include <cstddef>
#include <span>

#include "core/index_math.hpp"
#include "metrics/float_common/image.hpp"
#include "metrics/float_common/rows.hpp"

namespace vqx::float_common {

// The longest filter the kernels take (libvmaf's VIF keeps its filters in
// float[128]).
inline constexpr unsigned kMaxTaps = 128;

// Index i reflected into [0, n) about the first and last samples, without
// repeating them: reflect101 (core/index_math.hpp). Valid for -n < i <= 2n - 2.
[[nodiscard]] constexpr int reflect(int i, int n) { return reflect101(i, n); }

// The shortest side a filter of `taps` taps can run on: the mirror must
// stay inside the picture (radius <= side - 1).
[[nodiscard]] constexpr unsigned min_side_for_taps(unsigned taps) { return taps / 2 + 1; }

// out[j] = sum over k of taps[k] * rows[k][j], for j < width.
// (convolve_simd.cpp: explicit vectors for every Highway target.)
void weighted_rows(std::span<const float> taps, const float* const* rows, unsigned width,
                   float* out);
// The five moments VIF filters, in one pass over the rows of a and b:
// out[0] = sum taps[k] * a, out[1] = ... * b, out[2] = ... * (a * a),
// out[3] = ... * (b * b), out[4] = ... * (a * b), each summed as above.
void weighted_rows_moments(std::span<const float> taps, const float* const* a,
                           const float* const* b, unsigned width, float* const* out);

// The same two as plain loops, the reference forms the vector kernels are
// tested against (tests/unit/fp_rules_test.cpp, float_vif_test.cpp).
namespace reference {
void weighted_rows(std::span<const float> taps, const float* const* rows, unsigned width,
                   float* out);
void weighted_rows_moments(std::span<const float> taps, const float* const* a,
                           const float* const* b, unsigned width, float* const* out);
}  // namespace reference

// Fills the `radius` floats either side of row[0, width) by reflection;
// the row needs that much room before and after it. radius < width.
void mirror_pad(float* row, unsigned width, unsigned radius);

// Horizontal pass over a padded row (see mirror_pad), radius = taps / 2:
// out[j] = sum over k of taps[k] * row[j - radius + k], for j < width.
void filter_row(std::span<const float> taps, const float* padded, unsigned width, float* out);
// The same at every second column: out[j] is the output at column 2 * j,
// for j < out_width.
void filter_row_even(std::span<const float> taps, const float* padded, unsigned out_width,
                     float* out);

// Floats of scratch that filter_image() needs for pictures `width` wide.
[[nodiscard]] std::size_t filter_scratch_size(unsigned width, unsigned taps);

// dst = src filtered vertically then horizontally (libvmaf's
// convolution_f32_c_s). Both sides of src must be at least
// min_side_for_taps(taps.size()); dst has src's size.
void filter_image(std::span<const float> taps, FloatRows& src, FloatImage& dst,
                  std::span<float> scratch);
void filter_image(std::span<const float> taps, const FloatImage& src, FloatImage& dst,
                  std::span<float> scratch);

}  // namespace vqx::float_common

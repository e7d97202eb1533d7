// The per-pixel information terms of float VIF and their row sums, as
// libvmaf computes them (libvmaf/src/feature/vif_tools.c, vif_statistic_s,
// "matching_matlab" mode, with log2f_approx).
#pragma once

#include "metrics/float_vif/pointwise.hpp"

namespace vqx::float_vif {

// StatParams and log2_approx(): pointwise.hpp.
[[nodiscard]] StatParams make_stat_params(double gain_limit, double sigma_nsq);

// The terms of one row (pixel_terms() at every position) into num[0,
// width) and den[0, width): a Highway kernel (statistic_simd.cpp), and
// reference::row_terms, the plain loop it is tested against.
void row_terms(const float* mu1, const float* mu2, const float* xx, const float* yy,
               const float* xy, unsigned width, const StatParams& p, float* num, float* den);
namespace reference {
void row_terms(const float* mu1, const float* mu2, const float* xx, const float* yy,
               const float* xy, unsigned width, const StatParams& p, float* num, float* den);
}  // namespace reference

// One row: mu1, mu2 are the filtered means, xx, yy, xy the filtered
// squares and product, `width` values each. Adds to num and den the row's
// terms summed in float from left to right (libvmaf's accum_inner_num/den),
// as one float addition each. `scratch` holds 2 * width floats.
void add_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy,
             unsigned width, const StatParams& p, float* scratch, float& num, float& den);

}  // namespace vqx::float_vif

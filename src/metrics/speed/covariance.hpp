// The covariance matrix of the 5x5 neighbourhoods of a band-pass picture
// (libvmaf speed.c, compute_covariance_matrix()).
#pragma once

#include <cstddef>

#include "metrics/speed/linalg.hpp"
#include "metrics/speed/pointwise.hpp"

namespace vqx::speed {

// Entry (p, q), p and q being offsets (r, c) within the 5x5 block, is the
// covariance of the two sub_w x sub_h windows of `band` (row stride
// `stride`) at those offsets. Each window's mean is its float sum (row by
// row, one chain from 0) over the sample count; the covariance is
// sum((x - mean_x) * (y - mean_y)) in double, one chain from 0 in row-major
// order over the window, over the count, rounded to float (pointwise.hpp:
// window_mean, centred, covariance_entry). The GPU twin computes the same
// chains (gpu_kernels.cuh: stats_kernel).
void covariance_matrix(const float* band, std::size_t stride, unsigned sub_w, unsigned sub_h,
                       Square& cov);

// The matrix from its kLowerEntries sums of products (packed by
// lower_index(), pointwise.hpp) over `count` positions: covariance_entry()
// of each, mirrored above the diagonal (libvmaf too computes the lower
// triangle and mirrors it).
void covariance_from_sums(const double* lower, unsigned count, Square& cov);

}  // namespace vqx::speed

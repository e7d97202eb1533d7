// The covariance matrix of the 5x5 neighbourhoods of a band-pass picture
// (libvmaf speed.c, compute_covariance_matrix()).
#pragma once

#include <cstddef>

#include "metrics/speed/linalg.hpp"

namespace vqx::speed {

// Entry (p, q), p and q being offsets (r, c) within the 5x5 block, is the
// covariance of the two sub_w x sub_h windows of `band` (row stride
// `stride`) at those offsets. Each window's mean is its float sum (row by
// row) over the sample count; the covariance is sum((x - mean_x) *
// (y - mean_y)) in double, row by row, over the count, rounded to float.
void covariance_matrix(const float* band, std::size_t stride, unsigned sub_w, unsigned sub_h,
                       Square& cov);

}  // namespace vqx::speed

// CAMBI's spatial pooling (libvmaf cambi.c, spatial_pooling()): the mean of
// the k = clip((int) (topk * n), 1, n) largest of a scale's n contrast
// values, zeros included.
//
// libvmaf selects them in place with a Hoare-style selection and sums the
// first k of the rearranged array in double. Every contrast value is 0 or a
// float of at least 0.5, i.e. a multiple of 2^-24, so while the sum of all
// values stays below 2^29 every partial sum is exact in double and the
// order does not matter: then any selection (or none, when at most k values
// are non-zero) gives libvmaf's bits. Above that, rounding depends on the
// order, and libvmaf's selection is run to reproduce it. Both twins sum the
// values as integers (pointwise.hpp, value_units()) and choose the way by
// pool_path().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "metrics/cambi/params.hpp"

namespace vqx::cambi {

// k for n values.
std::size_t topk_count(std::size_t n, double topk);

// The sum of the k largest of `values`, for values whose sum is below
// kExactSumLimit (so that it is exact in any order). k <= values.size().
// low_counts: scratch of kLowCounts. The result is the exact sum, as the
// GPU twin's integer sum of units is (docs/gpu.md).
double largest_sum(std::span<const float> values, std::size_t k,
                   std::span<std::uint32_t> low_counts);

// libvmaf's selection (cambi.c, quick_select(); select.hpp): rearranges
// `values` so that its first k hold the k largest, exactly as libvmaf does
// (the order of the result matters).
void select_largest(std::span<float> values, std::size_t k);

// The sum of the first k values after select_largest(), in that order:
// libvmaf's bits whatever the sum.
double ordered_largest_sum(std::span<float> values, std::size_t k);

// The score of a picture from its scales' pooled values: the weighted sum
// (kScaleWeights, in scale order, from 0) over the window's pixel count.
double weighted_score(const std::array<double, kScaleCount>& pooled, unsigned window);

}  // namespace vqx::cambi

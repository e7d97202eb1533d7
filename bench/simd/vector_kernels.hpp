// float_common::weighted_rows_moments(taps, a, b, width, out) written with
// GCC vector types and compiled as target_clones, for the dispatch
// benchmark only (bench/simd.sh): it tells the dispatch from the loop's form.
#pragma once

#include <cstddef>

namespace vqx::bench {

void vector_moments(const float* taps, std::size_t ntaps, const float* const* a,
                    const float* const* b, std::size_t width, float* const* out);

}  // namespace vqx::bench

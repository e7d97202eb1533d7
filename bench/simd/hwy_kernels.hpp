// Other versions of two library kernels, for the dispatch benchmark only
// (bench/simd.sh): Highway's (hwy_kernels.cpp) and one with GCC vector
// types (vector_kernels.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace vqx::bench {

// float_common::weighted_rows_moments(taps, a, b, width, out).
void hwy_moments(const float* taps, std::size_t ntaps, const float* const* a, const float* const* b,
                 std::size_t width, float* const* out);

// The same with GCC vector types, as target_clones (vector_kernels.cpp).
void vector_moments(const float* taps, std::size_t ntaps, const float* const* a,
                    const float* const* b, std::size_t width, float* const* out);

// adm::dwt_scale0_row for 8-bit samples with every band: lo and hi are the
// scratch rows (index -1 .. w + 1 usable), a, v, h, d the outputs.
void hwy_dwt0(const std::uint8_t* const rows[4], int w, int bpc, std::int16_t* lo, std::int16_t* hi,
              std::int32_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* d);

}  // namespace vqx::bench

// Row kernels of ADM's contrast-masking stage and of its denominator, in the
// fixed-point arithmetic of libvmaf's integer ADM:
//
//  * csf weighting: every detail coefficient is multiplied by its band's CSF
//    weight; of the weighted value c, |c|/30 feeds the masking filter and
//    |c|/15 is the filter's centre tap (accumulated here over h, v and d);
//  * masking threshold: per pixel, the 3x3 sum of |c|/30 over the three
//    bands with the centre tap replaced by |c|/15;
//  * numerator: sum of max(|x| - threshold, 0)^3 per band, x being the
//    CSF-weighted coefficient of the other decoupled part;
//  * denominator: sum of |o|^3 of the reference detail bands.
//
// Each function handles columns [begin, end) of one band row; sums are
// returned per band (h, v, d) for the caller to round per row. They run
// with explicit SIMD (masking_simd.cpp), with the same bits as the reference
// forms at the end of this header.
#pragma once

#include <array>
#include <cstdint>

#include "metrics/adm/decouple.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

// Rounding of the cube x^3 in the numerator, per band (CubeRounding:
// params.hpp).
using CubeRoundings = std::array<CubeRounding, 3>;

using BandSums = std::array<std::int64_t, 3>;
using BandSumsU = std::array<std::uint64_t, 3>;

// CSF weighting of one decoupled row: stores, per column, the sum over the
// h, v and d bands of |c|/30 in flt_sum and of |c|/15 in ctr_sum.
void csf_row_scale0(DetailRow<std::int16_t> src, int begin, int end,
                    const std::array<std::uint16_t, 3>& q, std::int32_t* flt_sum,
                    std::int32_t* ctr_sum);
void csf_row_scale_n(DetailRow<std::int32_t> src, int begin, int end,
                     const std::array<std::uint32_t, 3>& q, std::int32_t* flt_sum,
                     std::int32_t* ctr_sum);

// Masking threshold for columns [begin, end) of a row from the filter rows
// above, at and below it (already resolved by the boundary rule; columns
// begin-1 and end must be readable, padded by the boundary rule at the band
// edges). `col_scratch` needs end - begin + 2 elements.
void threshold_row(const std::int32_t* up, const std::int32_t* mid, const std::int32_t* down,
                   const std::int32_t* ctr, int begin, int end, std::int32_t* col_scratch,
                   std::int32_t* thr);

// Numerator sums of one row.
BandSums masked_cubes_scale0(DetailRow<std::int16_t> x, const std::int32_t* thr, int begin, int end,
                             const std::array<std::uint16_t, 3>& q, const CubeRoundings& r);
BandSums masked_cubes_scale_n(DetailRow<std::int32_t> x, const std::int32_t* thr, int begin,
                              int end, const std::array<std::uint32_t, 3>& q,
                              const CubeRoundings& r);

// Denominator sums of one reference row. Scale 0 sums exact cubes; the
// deeper scales round x^2 and x^3 (RefCubeRounding, params.hpp).
BandSumsU ref_cubes_scale0(DetailRow<std::int16_t> o, int begin, int end);
BandSumsU ref_cubes_scale_n(DetailRow<std::int32_t> o, int begin, int end,
                            const RefCubeRounding& r);

// The plain loops (masking.cpp): the scalar reference every SIMD target is
// tested against, and what the SIMD kernels (masking_simd.cpp, Highway,
// chosen at run time per row) run for a row's last columns.
namespace reference {
void csf_row_scale0(DetailRow<std::int16_t> src, int begin, int end,
                    const std::array<std::uint16_t, 3>& q, std::int32_t* flt_sum,
                    std::int32_t* ctr_sum);
void csf_row_scale_n(DetailRow<std::int32_t> src, int begin, int end,
                     const std::array<std::uint32_t, 3>& q, std::int32_t* flt_sum,
                     std::int32_t* ctr_sum);

void threshold_row(const std::int32_t* up, const std::int32_t* mid, const std::int32_t* down,
                   const std::int32_t* ctr, int begin, int end, std::int32_t* col_scratch,
                   std::int32_t* thr);

BandSums masked_cubes_scale0(DetailRow<std::int16_t> x, const std::int32_t* thr, int begin, int end,
                             const std::array<std::uint16_t, 3>& q, const CubeRoundings& r);
BandSums masked_cubes_scale_n(DetailRow<std::int32_t> x, const std::int32_t* thr, int begin,
                              int end, const std::array<std::uint32_t, 3>& q,
                              const CubeRoundings& r);

BandSumsU ref_cubes_scale0(DetailRow<std::int16_t> o, int begin, int end);
BandSumsU ref_cubes_scale_n(DetailRow<std::int32_t> o, int begin, int end,
                            const RefCubeRounding& r);
}  // namespace reference

}  // namespace vqx::adm

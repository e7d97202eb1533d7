// Float ADM's contrast masking and its sums, one row at a time (libvmaf
// adm_tools.c, adm_cm_s with the ADM_CM_THRESH_S_* macros, and
// adm_csf_den_scale_s), with libvmaf's arithmetic and summation order.
#pragma once

#include <array>
#include <span>

#include "metrics/float_adm/decouple.hpp"

namespace vqx::float_adm {

// Float sums per band (h, v, d), libvmaf's accum_h/v/d.
using BandSums = std::array<float, kBands>;

// The masking threshold at (i, j) comes from the masker's flt rows i - 1,
// i, i + 1 at columns j - 1, j, j + 1, and from its csf row i at column j.
// Rows and columns outside the band are mirrored as libvmaf mirrors them:
// row -1 -> 1 and h -> h - 1; the flt rows given here must hold columns -1
// and w (mirror_columns()).
struct Masker {
  std::array<ConstBandRows, 3> flt;  // rows above, at, below
  ConstBandRows csf;                 // row at
};

// Fills column -1 with column 1 and column w with column w - 1.
void mirror_columns(float* row, unsigned w);

// The exponent of the sums and the function it selects (adm_p_norm: cubes
// when 3, powf otherwise).
struct Norm {
  double p = 3.0;
  [[nodiscard]] bool cubes() const { return p == 3.0; }
};

// Adds to `sums` the row's masked terms over columns [begin, end): for each
// band, max(|target| - threshold, 0) to the power p, summed in float from
// left to right, then added to the band's sum. bypass skips the masking
// (threshold 0). `scratch` holds 3 * (end - begin) floats.
void add_masked_row(const ConstBandRows& target, const Masker& masker, unsigned begin, unsigned end,
                    bool bypass, Norm norm, std::span<float> scratch, BandSums& sums);

// Adds to `sums` the row's |weight * ref|^p over columns [begin, end) (the
// denominator's terms).
void add_reference_row(const ConstBandRows& ref, const BandWeights& weights, unsigned begin,
                       unsigned end, Norm norm, std::span<float> scratch, BandSums& sums);

}  // namespace vqx::float_adm

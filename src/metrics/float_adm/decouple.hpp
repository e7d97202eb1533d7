// Float ADM's decoupling and contrast sensitivity weighting of one row of
// detail bands (libvmaf adm_tools.c, adm_decouple_s then adm_csf_s), with
// libvmaf's arithmetic.
//
// Per pixel and band (h, v, d), with o the reference and t the distorted
// coefficient: k = clamp(t * rcp(o + 1e-30), 0, 1) (rcp as recip.hpp), the
// restored coefficient r = k * o; where the (o_h, o_v) and (t_h, t_v)
// vectors are within 1 degree of each other, r is instead pushed towards t,
// by at most the enhancement gain limit (in double, as libvmaf). The
// additive coefficient is a = t - r. Both are weighted by the band's CSF
// weight: csf = weight * value, and the masking term flt = |csf| / 30
// (1/30 as the double 0.0333333351, the product rounded to float).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "metrics/float_adm/csf.hpp"

namespace vqx::float_adm {

// Bands in libvmaf's order h, v, d.
inline constexpr int kBands = 3;
using BandRows = std::array<float*, kBands>;
using ConstBandRows = std::array<const float*, kBands>;

// Outputs for one row: the weighted coefficients and their masking terms,
// for the restored and the additive parts.
struct WeightedRows {
  BandRows csf_r, flt_r, csf_a, flt_a;
};

// Computes columns [begin, end) of one row. ref and dist are the rows of
// the h, v, d bands; cos_1deg_sq is (float)(cos(1 deg)^2); scratch holds
// `end` ints.
void decouple_row(const ConstBandRows& ref, const ConstBandRows& dist, unsigned begin, unsigned end,
                  const BandWeights& weights, double gain_limit, float cos_1deg_sq,
                  const WeightedRows& out, std::span<std::int32_t> scratch);

// libvmaf's angle threshold, (float)(cos(1 deg) * cos(1 deg)) in double.
[[nodiscard]] float cos_1deg_squared();

}  // namespace vqx::float_adm

#include "metrics/float_adm/decouple.hpp"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "core/kernel_build.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/pointwise.hpp"
#include "metrics/float_adm/recip.hpp"

namespace vqx::float_adm {

namespace {

// The angle test of each column as 1 or 0 (pointwise.hpp's angle_ok()).
VQX_CLONES
void angle_row(const float* __restrict oh, const float* __restrict ov, const float* __restrict th,
               const float* __restrict tv, unsigned begin, unsigned end, float cos_1deg_sq,
               std::int32_t* __restrict ok) {
  for (unsigned j = begin; j < end; ++j) ok[j] = angle_ok(oh[j], ov[j], th[j], tv[j], cos_1deg_sq);
}

// One band of one row: the restored and additive coefficients, weighted
// (pointwise.hpp's weighted()).
VQX_CLONES
void band_row(const float* __restrict o, const float* __restrict t,
              const std::int32_t* __restrict ok, unsigned begin, unsigned end, float weight,
              double gain_limit, float* __restrict csf_r, float* __restrict flt_r,
              float* __restrict csf_a, float* __restrict flt_a) {
  for (unsigned j = begin; j < end; ++j) {
    const Weighted w = weighted(o[j], t[j], ok[j] != 0, weight, gain_limit, TableRcp{});
    csf_r[j] = w.csf_r;
    flt_r[j] = w.flt_r;
    csf_a[j] = w.csf_a;
    flt_a[j] = w.flt_a;
  }
}

}  // namespace

float cos_1deg_squared() {
  const double c = std::cos(kAngleDegrees * std::numbers::pi / 180.0);
  return static_cast<float>(c * c);
}

void decouple_row(const ConstBandRows& ref, const ConstBandRows& dist, unsigned begin, unsigned end,
                  const BandWeights& weights, double gain_limit, float cos_1deg_sq,
                  const WeightedRows& out, std::span<std::int32_t> scratch) {
  assert(scratch.size() >= end);
  angle_row(ref[0], ref[1], dist[0], dist[1], begin, end, cos_1deg_sq, scratch.data());
  const float w[kBands] = {weights.hv, weights.hv, weights.diag};
  for (int b = 0; b < kBands; ++b) {
    band_row(ref[b], dist[b], scratch.data(), begin, end, w[b], gain_limit, out.csf_r[b],
             out.flt_r[b], out.csf_a[b], out.flt_a[b]);
  }
}

}  // namespace vqx::float_adm

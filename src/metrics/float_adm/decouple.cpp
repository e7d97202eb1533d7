#include "metrics/float_adm/decouple.hpp"

#include <cassert>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/recip.hpp"
#include "metrics/float_common/float_ops.hpp"

namespace vqx::float_adm {

namespace {

using float_common::abs_of;

// One band's restored coefficient. The two gain-limit statements of
// libvmaf run in turn (the second sees the first's result); their MIN and
// MAX are formed in double because the gain limit is a double. Selections
// stand for libvmaf's branches, so that the row loop vectorises.
VQX_FORCE_INLINE float restored(float o, float t, bool angle_ok, double gain_limit) {
  float k = t * refined_rcp(o + kDecoupleEps);
  k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
  float r = k * o;
  const double td = t;
  const double up = static_cast<double>(r) * gain_limit;
  r = (angle_ok & (r > 0.0f)) ? static_cast<float>(up < td ? up : td) : r;
  const double down = static_cast<double>(r) * gain_limit;
  r = (angle_ok & (r < 0.0f)) ? static_cast<float>(down > td ? down : td) : r;
  return r;
}

// libvmaf's masking term: FLOAT_ONE_BY_30 * fabsf(x), a double product.
VQX_FORCE_INLINE float masking_term(float x) {
  return static_cast<float>(kOneBy30 * static_cast<double>(abs_of(x)));
}

// The angle test without trigonometry (ADM_OPT_AVOID_ATAN): whether
// (oh, ov) and (th, tv) are within 1 degree of each other, as 1 or 0.
VQX_CLONES
void angle_row(const float* __restrict oh, const float* __restrict ov, const float* __restrict th,
               const float* __restrict tv, unsigned begin, unsigned end, float cos_1deg_sq,
               std::int32_t* __restrict ok) {
  for (unsigned j = begin; j < end; ++j) {
    const float ot_dp = oh[j] * th[j] + ov[j] * tv[j];
    const float o_mag_sq = oh[j] * oh[j] + ov[j] * ov[j];
    const float t_mag_sq = th[j] * th[j] + tv[j] * tv[j];
    ok[j] = (ot_dp >= 0.0f) & (ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq);
  }
}

// One band of one row: the restored and additive coefficients, weighted.
VQX_CLONES
void band_row(const float* __restrict o, const float* __restrict t,
              const std::int32_t* __restrict ok, unsigned begin, unsigned end, float weight,
              double gain_limit, float* __restrict csf_r, float* __restrict flt_r,
              float* __restrict csf_a, float* __restrict flt_a) {
  for (unsigned j = begin; j < end; ++j) {
    const float r = restored(o[j], t[j], ok[j] != 0, gain_limit);
    const float a = t[j] - r;
    const float cr = weight * r;
    const float ca = weight * a;
    csf_r[j] = cr;
    flt_r[j] = masking_term(cr);
    csf_a[j] = ca;
    flt_a[j] = masking_term(ca);
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

// The arithmetic of float ADM at one position, written once for both
// twins: the CPU's row loops (decouple.cpp, masking.cpp) and the GPU's
// kernels (gpu_kernels.cuh) call these. Plain constexpr C++
// (float_common/float_ops.hpp): libvmaf's operations (adm_tools.c:
// adm_dwt2_s, adm_decouple_s, adm_csf_s, adm_cm_s, adm_csf_den_scale_s) in
// its order and types, nothing fused; its branches are selections, with
// the values libvmaf's branches give.
#pragma once

#include <array>

#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/recip.hpp"
#include "metrics/float_common/float_ops.hpp"

namespace vqx::float_adm {

// --- The wavelet (adm_dwt2_s) -------------------------------------------------

// One Daubechies-2 filter over four samples: a float sum from 0, the
// products added in tap order.
VQX_POINTWISE float taps4(const std::array<float, 4>& f, float s0, float s1, float s2, float s3) {
  float acc = 0;
  acc += f[0] * s0;
  acc += f[1] * s1;
  acc += f[2] * s2;
  acc += f[3] * s3;
  return acc;
}

// --- Decoupling and CSF weighting (adm_decouple_s, adm_csf_s) -------------------

// The angle test without trigonometry (ADM_OPT_AVOID_ATAN): whether
// (oh, ov) and (th, tv) are within 1 degree of each other.
VQX_POINTWISE bool angle_ok(float oh, float ov, float th, float tv, float cos_1deg_sq) {
  const float ot_dp = oh * th + ov * tv;
  const float o_mag_sq = oh * oh + ov * ov;
  const float t_mag_sq = th * th + tv * tv;
  return (ot_dp >= 0.0f) & (ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq);
}

// One band's restored coefficient from the reference o and the distorted
// t: k = clamp(t * rcp(o + 1e-30), 0, 1), r = k * o; the two gain-limit
// statements of libvmaf run in turn (the second sees the first's result),
// their MIN and MAX formed in double because the gain limit is a double.
// `rcp` is recip.hpp's TableRcp (CPU) or ComputedRcp (GPU): the same value.
template <typename Rcp>
VQX_POINTWISE float restored(float o, float t, bool angle, double gain_limit, const Rcp& rcp) {
  float k = t * rcp(o + kDecoupleEps);
  k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
  float r = k * o;
  const double td = t;
  const double up = static_cast<double>(r) * gain_limit;
  r = (angle & (r > 0.0f)) ? static_cast<float>(up < td ? up : td) : r;
  const double down = static_cast<double>(r) * gain_limit;
  r = (angle & (r < 0.0f)) ? static_cast<float>(down > td ? down : td) : r;
  return r;
}

// libvmaf's masking term: FLOAT_ONE_BY_30 * fabsf(x), a double product.
VQX_POINTWISE float masking_term(float x) {
  return static_cast<float>(kOneBy30 * static_cast<double>(float_common::abs_of(x)));
}

// The weighted coefficients of one band at one position: the restored (r)
// and additive (a = t - r) parts times the band's CSF weight, and their
// masking terms.
struct Weighted {
  float csf_r;
  float flt_r;
  float csf_a;
  float flt_a;
};
template <typename Rcp>
VQX_POINTWISE Weighted weighted(float o, float t, bool angle, float weight, double gain_limit,
                                const Rcp& rcp) {
  const float r = restored(o, t, angle, gain_limit, rcp);
  const float a = t - r;
  const float cr = weight * r;
  const float ca = weight * a;
  return {cr, masking_term(cr), ca, masking_term(ca)};
}

// --- Contrast masking (adm_cm_s, ADM_CM_THRESH_S_I_J) ---------------------------

// The masking threshold at one position: per band (h, v, d), a float sum
// from 0 of the masker's eight neighbouring masking terms and its centre's
// |csf| * 1/15 (the latter added in double, FLOAT_ONE_BY_15 being a
// double), row by row; the bands' sums added in float in band order.
// flt(b, r, c) is the masker's term of band b at row r and column c of the
// 3x3 neighbourhood (1, 1 the centre), csf(b) its centre's coefficient.
template <typename Flt, typename Csf>
VQX_POINTWISE float threshold(const Flt& flt, const Csf& csf) {
  float thr = 0;
  for (int b = 0; b < 3; ++b) {
    float sum = 0;
    sum += flt(b, 0, 0);
    sum += flt(b, 0, 1);
    sum += flt(b, 0, 2);
    sum += flt(b, 1, 0);
    sum = static_cast<float>(static_cast<double>(sum) +
                             kOneBy15 * static_cast<double>(float_common::abs_of(csf(b))));
    sum += flt(b, 1, 2);
    sum += flt(b, 2, 0);
    sum += flt(b, 2, 1);
    sum += flt(b, 2, 2);
    thr += sum;
  }
  return thr;
}

// The masked value: |target| less the threshold, at least 0.
VQX_POINTWISE float masked(float target, float thr) {
  const float v = float_common::abs_of(target) - thr;
  return v < 0.0f ? 0.0f : v;
}

// The terms' power at the default adm_p_norm of 3: x * x * x in float.
VQX_POINTWISE float cube(float x) { return x * x * x; }

// The masking's neighbours outside the band are mirrored by
// reflect101_repeat_end (core/index_math.hpp), rows and columns alike: -1 ->
// 1, n -> n - 1 (mask_row's rows and mirror_columns() on the CPU).

}  // namespace vqx::float_adm

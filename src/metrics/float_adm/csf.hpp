// Contrast sensitivity weights of the float ADM wavelet bands: per scale,
// one weight for the horizontal and vertical bands and one for the
// diagonal band, computed as libvmaf's adm_csf_s / adm_cm_s /
// adm_csf_den_scale_s compute their factor1 and factor2 (libvmaf
// adm_tools.c, adm_tools.h dwt_quant_step, barten_csf_tools.h barten_csf,
// adm_csf_tools.h adm_native_csf), in the same mix of float and double.
#pragma once

#include <array>

#include "metrics/float_adm/params.hpp"

namespace vqx::float_adm {

struct BandWeights {
  float hv = 0;    // factor1: horizontal and vertical detail bands
  float diag = 0;  // factor2: diagonal detail band
};

// The weights for every scale, including the adm_f1sN / adm_f2sN overrides.
[[nodiscard]] std::array<BandWeights, kScales> csf_weights(const Params& p);

}  // namespace vqx::float_adm

// Contrast sensitivity weights of the ADM wavelet bands: one weight for the
// horizontal and vertical bands and one for the diagonal band, per scale,
// in the float precision libvmaf computes them, plus the fixed-point forms
// the integer pipeline multiplies with.
#pragma once

#include <array>
#include <cstdint>

#include "metrics/adm/params.hpp"
#include "vqx/status.hpp"

namespace vqx::adm {

struct BandWeights {
  float hv = 0;    // horizontal and vertical detail bands
  float diag = 0;  // diagonal detail band
};

struct CsfWeights {
  std::array<BandWeights, kScales> scale{};
  // Scale 0: h and v weights in Q21, d in Q23 (16-bit pipeline).
  std::array<std::uint16_t, 3> q_scale0{};
  // Scales 1..3 (index 1..3; index 0 unused): h, v, d weights in Q32.
  std::array<std::array<std::uint32_t, 3>, kScales> q{};
};

// Computes the weights for `p`. Fails for a blended CSF mode whose viewing
// condition (norm_view_dist, ref_display_height) has no table in libvmaf.
Expected<CsfWeights> make_csf_weights(const AdmParams& p);

}  // namespace vqx::adm

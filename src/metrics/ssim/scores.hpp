// float_ssim's and float_ms_ssim's values from the window means: shared by
// the CPU extractors and the GPU twins, so that both write the same values
// (the same host code, in the same order).
#pragma once

#include <array>

#include "core/extractor.hpp"
#include "metrics/ssim/config.hpp"
#include "metrics/ssim/means.hpp"
#include "metrics/ssim/params.hpp"

namespace vqx::ssim {

// Writes float_ssim's values for frame `index` (slots as kSsimOutputs lists
// them): the score, in dB with enable_db (at most `max_db`: db.hpp), and
// with enable_lcs the l, c and s means.
void write_ssim(const SsimConfig& config, double max_db, const WindowMeans& means, unsigned index,
                FeatureWriter& out);

// MS-SSIM from the means of its five scales (ms_ssim.c): the product over
// scales of l^alpha * c^beta * s^gamma, each factor from the float means,
// in double. (It cannot overflow: the terms are bounded, so libvmaf's check
// for an infinite product never fires.)
double ms_ssim_score(const std::array<WindowMeans, kScales>& means);

// Writes float_ms_ssim's values for frame `index` (slots as kMsSsimOutputs
// lists them): `score`, in dB with enable_db, and with enable_lcs l of
// scales 0..4, c of scales 0..4, s of scales 0..4.
void write_ms_ssim(const MsSsimConfig& config, double max_db, double score,
                   const std::array<WindowMeans, kScales>& means, unsigned index,
                   FeatureWriter& out);

}  // namespace vqx::ssim

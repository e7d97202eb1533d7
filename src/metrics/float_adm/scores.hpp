// What float ADM writes for a frame, from its scales' float sums (libvmaf
// adm.c compute_adm(), float_adm.c extract()): shared by the CPU extractor
// (family.cpp) and the GPU twin (gpu.cu), so that both write the same
// values.
#pragma once

#include "core/extractor.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/masking.hpp"
#include "metrics/float_adm/params.hpp"

namespace vqx::float_adm {

// One scale's sums from the band sums of its masked terms (num, aim) and
// of the reference's terms (den) over the region g.sums: powf(sum, 1 / p)
// plus the noise floor, h + v + d in float (adm.c).
[[nodiscard]] ScaleSums finish_scale(const BandSums& num, const BandSums& den, const BandSums& aim,
                                     const ScaleGeometry& g, const Params& p);

// Writes frame `index`'s values in slot order (params.hpp's kOutputs).
void write_scores(const FrameSums& sums, const Params& p, unsigned width, unsigned height,
                  unsigned index, FeatureWriter& out);

}  // namespace vqx::float_adm

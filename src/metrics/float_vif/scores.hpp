// What float VIF writes for a frame, from its scales' float sums (libvmaf
// float_vif.c extract(), vif.c compute_vif()): shared by the CPU extractor
// (family.cpp) and the GPU twin (gpu.cu), so that both write the same
// values.
#pragma once

#include "core/extractor.hpp"
#include "metrics/float_vif/cpu.hpp"
#include "metrics/float_vif/params.hpp"

namespace vqx::float_vif {

// Scale scores are double quotients of the float sums, scales 1..3 raised
// to their minimum values; the debug sums add the floats in double.
void write_scores(const FrameSums& s, const Params& p, unsigned index, FeatureWriter& out);

}  // namespace vqx::float_vif

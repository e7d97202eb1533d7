// Integer VIF's outputs from the per-scale sums: shared by the CPU
// extractor and the GPU twin, so that both write the same values.
#pragma once

#include <cstdint>

#include "core/extractor.hpp"
#include "metrics/vif/cpu.hpp"

namespace vqx::vif {

// One scale's num and den from its integer sums, in libvmaf's order of
// operations (integer_vif.c, vif_statistic_*): the log2 sums (Q11), the
// sum of sigma2^2 over the flat pixels (Q16 of 8-bit units) and their count.
ScaleSums finish_scale(std::int64_t num_log, std::int64_t den_log, std::int64_t num_lin,
                       std::int64_t den_lin);

// The values libvmaf writes (write_scores() in integer_vif.c): each scale
// score is the float quotient num / den widened to double; the debug sums
// add the float parts in double. Slots as vif::kOutputs lists them.
void write_scores(const FrameSums& s, bool skip_scale0, bool debug, unsigned index,
                  FeatureWriter& out);

}  // namespace vqx::vif

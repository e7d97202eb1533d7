// Integer ADM's outputs: shared by the CPU extractor and the GPU twin.
#pragma once

#include "core/extractor.hpp"
#include "metrics/adm/cpu.hpp"

namespace vqx::adm {

// Slot order: adm::kOutputs (the scores, then the debug outputs).
void write_scores(const AdmScores& s, bool debug, unsigned index, FeatureWriter& out);

}  // namespace vqx::adm

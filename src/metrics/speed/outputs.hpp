// What speed_chroma and speed_temporal write, from their scores: shared by
// the CPU extractors (chroma_family.cpp, temporal_family.cpp) and the GPU
// twins, so that both write the same values at the same moments.
#pragma once

#include "core/extractor.hpp"
#include "metrics/speed/score.hpp"

namespace vqx::speed {

// speed_chroma's three outputs, in libvmaf's order (the slots of its
// OutputDef table).
enum ChromaSlot : std::size_t { kSlotU, kSlotV, kSlotUv };

// Writes speed_chroma_u, _v and _uv of frame `index` from the U and V
// scores: a singular channel (e.g. a flat one) takes the other's score for
// the combination, unless both are; each value is MIN(score, max_val), the
// float score compared in double.
void write_chroma(const ScoreResult& u, const ScoreResult& v, double max_val, unsigned index,
                  FeatureWriter& out);

// speed_temporal's one output: frame 0 scores 0, frame i > 0 the score of
// the frame differences, written as it is (libvmaf never applies
// speed_max_val there).
void write_temporal(unsigned index, const ScoreResult& r, FeatureWriter& out);

}  // namespace vqx::speed

#include "metrics/adm/scores.hpp"

namespace vqx::adm {

void write_scores(const AdmScores& s, bool debug, unsigned index, FeatureWriter& out) {
  std::size_t slot = 0;
  out.write(slot++, index, s.adm2);
  out.write(slot++, index, s.aim);
  out.write(slot++, index, s.adm3);
  for (double v : s.scale) out.write(slot++, index, v);
  if (!debug) return;
  out.write(slot++, index, s.adm2);
  out.write(slot++, index, s.num);
  out.write(slot++, index, s.den);
  for (int k = 0; k < kScales; ++k) {
    out.write(slot++, index, s.num_scale[k]);
    out.write(slot++, index, s.den_scale[k]);
  }
}

}  // namespace vqx::adm

#include "metrics/ssimulacra2/score.hpp"

#include <cmath>
#include <cstddef>

#include "metrics/ssimulacra2/params.hpp"

namespace vqx::ssimulacra2 {

double final_score(std::span<const ScaleNorms> scales) {
  double sum = 0.0;
  std::size_t i = 0;  // runs on across channels, whatever the scale count
  for (std::size_t c = 0; c < 3; ++c) {
    for (const ScaleNorms& s : scales) {
      for (std::size_t n = 0; n < 2; ++n) {
        sum += kWeights[i++] * std::abs(s.ssim[c * 2 + n]);
        sum += kWeights[i++] * std::abs(s.edge[c * 4 + n]);
        sum += kWeights[i++] * std::abs(s.edge[c * 4 + n + 2]);
      }
    }
  }
  sum = sum * kScoreScale;
  sum = kScoreCubicA * sum + kScoreCubicB * sum * sum + kScoreCubicC * sum * sum * sum;
  if (sum > 0.0) {
    return kPerfectScore - kScoreStep * std::pow(sum, kScorePower);
  }
  return kPerfectScore;
}

}  // namespace vqx::ssimulacra2

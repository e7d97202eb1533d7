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

ScaleNorms scale_norms(const double (&sums)[3][kMapSums], unsigned width, unsigned height) {
  ScaleNorms norms;
  const double one_per_pixel = 1.0 / (static_cast<double>(height) * static_cast<double>(width));
  for (unsigned c = 0; c < 3; ++c) {
    const double* s = sums[c];
    norms.ssim[c * 2] = one_per_pixel * s[kSsim];
    norms.ssim[c * 2 + 1] = std::sqrt(std::sqrt(one_per_pixel * s[kSsim4]));
    norms.edge[c * 4] = one_per_pixel * s[kRinging];
    norms.edge[c * 4 + 1] = std::sqrt(std::sqrt(one_per_pixel * s[kRinging4]));
    norms.edge[c * 4 + 2] = one_per_pixel * s[kBlurring];
    norms.edge[c * 4 + 3] = std::sqrt(std::sqrt(one_per_pixel * s[kBlurring4]));
  }
  return norms;
}

}  // namespace vqx::ssimulacra2

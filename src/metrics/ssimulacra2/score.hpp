// From the 108 norms to the SSIMULACRA2 score (ssimulacra2.cc,
// Msssim::Score): a weighted sum of their absolute values, scaled, through a
// cubic, then 100 - 10 s^0.6276 (100 when s <= 0).
#pragma once

#include <array>
#include <span>

#include "metrics/ssimulacra2/maps.hpp"

namespace vqx::ssimulacra2 {

// The norms of one scale, laid out as libjxl's MsssimScale:
// ssim[c * 2 + n] (n = 0: 1-norm, 1: 4-norm) and edge[c * 4 + i] with
// i = 0, 1: ringing 1-, 4-norm; i = 2, 3: blurring 1-, 4-norm; c = X, Y, B.
struct ScaleNorms {
  std::array<double, 6> ssim{};
  std::array<double, 12> edge{};
};

double final_score(std::span<const ScaleNorms> scales);

// A scale's norms from its error-map sums (sums[c][m]: channel c = X, Y, B,
// m in maps.hpp's MapSum order, each added in the order params.hpp
// gives) over width x height pixels: the means, and the fourth roots of the
// means of the fourth powers. Both twins call it.
ScaleNorms scale_norms(const double (&sums)[3][kMapSums], unsigned width, unsigned height);

}  // namespace vqx::ssimulacra2

// The means of the SSIM terms over the window positions of a picture, from
// their sums: what both twins finish with (host code, the same for both).
#pragma once

#include <array>

namespace vqx::ssim {

// The terms summed per position (pointwise.hpp: Terms), in this order.
enum Term { kTermSsim, kTermL, kTermC, kTermS, kTerms };
using TermSums = std::array<double, kTerms>;

// Means over the window positions, each the double sum divided by the
// count and rounded to float, as libvmaf returns them.
struct WindowMeans {
  float ssim;  // of l * c * s
  float l;     // luminance term
  float c;     // contrast term
  float s;     // structure term
};

// What equal pictures are given: exactly 1 for every mean.
inline constexpr WindowMeans kEqualPictures = {1.0f, 1.0f, 1.0f, 1.0f};

[[nodiscard]] constexpr WindowMeans window_means(const TermSums& sums, int positions) {
  const auto count = static_cast<double>(positions);
  return {static_cast<float>(sums[kTermSsim] / count), static_cast<float>(sums[kTermL] / count),
          static_cast<float>(sums[kTermC] / count), static_cast<float>(sums[kTermS] / count)};
}

}  // namespace vqx::ssim

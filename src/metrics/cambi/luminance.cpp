#include "metrics/cambi/luminance.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace vqx::cambi {

namespace {

// BT.1886 with the display's white and black luminance; the expression
// keeps libvmaf's order of operations.
double bt1886(double v) {
  const double white_root = std::pow(kBt1886White, 1.0 / kBt1886Gamma);
  const double black_root = std::pow(kBt1886Black, 1.0 / kBt1886Gamma);
  const double gain = std::pow(white_root - black_root, kBt1886Gamma);
  const double lift = black_root / (white_root - black_root);
  const double shifted = v + lift;
  return gain * std::pow(shifted > 0 ? shifted : 0, kBt1886Gamma);
}

double pq(double v) {
  const double root = std::pow(v, 1.0 / kPqM2);
  const double num = root - kPqC1;
  const double den = kPqC2 - kPqC3 * root;
  return kPqPeak * std::pow((num > 0 ? num : 0) / den, 1.0 / kPqM1);
}

bool step_visible(int level, int diff, double tvi_threshold, Eotf eotf) {
  const double base = luminance(level, eotf);
  const double raised = luminance(level + diff, eotf);
  return raised - base > tvi_threshold * base;
}

// Where `level` lies relative to the threshold level t (the last level at
// which the step is visible).
enum class Side { kBelow, kAt, kAbove };

Side side_of(int level, int diff, double tvi_threshold, Eotf eotf) {
  if (!step_visible(level, diff, tvi_threshold, eotf)) return Side::kAbove;
  if (step_visible(level + 1, diff, tvi_threshold, eotf)) return Side::kBelow;
  return Side::kAt;
}

}  // namespace

double luminance(int level, Eotf eotf) {
  const int clipped = std::clamp(level, kLumaFoot, kLumaHead);
  const double v = static_cast<double>(clipped - kLumaFoot) / (kLumaHead - kLumaFoot);
  return eotf == Eotf::kPq ? pq(v) : bt1886(v);
}

Expected<int> visibility_threshold(int diff, double tvi_threshold, Eotf eotf) {
  int low = kLumaFoot;
  int high = kLumaHead - diff - 1;
  switch (side_of(low, diff, tvi_threshold, eotf)) {
    case Side::kAbove:
      return 0;
    case Side::kAt:
      return low;
    case Side::kBelow:
      break;
  }
  switch (side_of(high, diff, tvi_threshold, eotf)) {
    case Side::kBelow:
      return kMaxWorkValue;
    case Side::kAt:
      return high;
    case Side::kAbove:
      break;
  }
  // low is below the threshold level and high above it.
  while (high - low > 1) {
    const int mid = low + (high - low) / 2;
    switch (side_of(mid, diff, tvi_threshold, eotf)) {
      case Side::kAbove:
        high = mid;
        break;
      case Side::kBelow:
        low = mid;
        break;
      case Side::kAt:
        return mid;
    }
  }
  // Only a luminance curve on which visibility comes back at a higher level
  // gets here; libvmaf would not terminate.
  return Error(Errc::kInternal,
               "cambi: no visibility threshold for a step of " + std::to_string(diff) + " levels");
}

Expected<int> visible_luma_floor(double threshold, Eotf eotf) {
  if (luminance(kLumaHead, eotf) < threshold) {
    return Error(Errc::kInvalidArgument, "cambi: cambi_vis_lum_threshold=" + format_g(threshold) +
                                             " is above the display's peak luminance (" +
                                             format_g(luminance(kLumaHead, eotf)) + " cd/m^2)");
  }
  int level = kLumaFoot;
  while (luminance(level, eotf) < threshold) ++level;
  return level == kLumaFoot ? 0 : level;
}

}  // namespace vqx::cambi

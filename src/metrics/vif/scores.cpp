// Integer VIF's outputs from the per-scale sums (see scores.hpp).
#include "metrics/vif/scores.hpp"

namespace vqx::vif {

namespace {

// Slots: vif::kOutputs (the four scale scores, then the debug outputs).
enum Slot : std::size_t {
  kSlotScore = 4,  // integer_vif
  kSlotNum,
  kSlotDen,
  kSlotScaleNumDen,  // num_scale0, den_scale0, num_scale1, ...
};

}  // namespace

// In double, stored as float, in libvmaf's order of operations (16384 *
// 65025 is 65536 * 255^2: sigma2^2 in Q16 relative to the 8-bit peak).
ScaleSums finish_scale(std::int64_t num_log, std::int64_t den_log, std::int64_t num_lin,
                       std::int64_t den_lin) {
  ScaleSums out;
  out.num = static_cast<float>(
      static_cast<double>(num_log) / 2048.0 +
      (static_cast<double>(den_lin) - (static_cast<double>(num_lin) / 16384.0) / 65025.0));
  out.den =
      static_cast<float>(static_cast<double>(den_log) / 2048.0 + static_cast<double>(den_lin));
  return out;
}

void write_scores(const FrameSums& s, bool skip_scale0, bool debug, unsigned index,
                  FeatureWriter& out) {
  const bool skip0 = skip_scale0;
  for (std::size_t k = 0; k < kScaleCount; ++k) {
    const float score = (k == 0 && skip0) ? 0.0f : s[k].num / s[k].den;
    out.write(k, index, static_cast<double>(score));
  }
  if (!debug) return;

  const std::size_t first = skip0 ? 1 : 0;
  double num = 0.0;
  double den = 0.0;
  for (std::size_t k = first; k < kScaleCount; ++k) {
    num += static_cast<double>(s[k].num);
    den += static_cast<double>(s[k].den);
  }
  out.write(kSlotScore, index, den == 0.0 ? 1.0 : num / den);
  out.write(kSlotNum, index, num);
  out.write(kSlotDen, index, den);
  for (std::size_t k = 0; k < kScaleCount; ++k) {
    // A skipped scale 0 reports 0 / -1, as libvmaf does.
    const double scale_num = (k == 0 && skip0) ? 0.0 : static_cast<double>(s[k].num);
    const double scale_den = (k == 0 && skip0) ? -1.0 : static_cast<double>(s[k].den);
    out.write(kSlotScaleNumDen + 2 * k, index, scale_num);
    out.write(kSlotScaleNumDen + 2 * k + 1, index, scale_den);
  }
}

}  // namespace vqx::vif

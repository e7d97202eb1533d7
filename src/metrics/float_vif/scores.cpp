#include "metrics/float_vif/scores.hpp"

namespace vqx::float_vif {

namespace {

// Slots: the four scale scores, then with debug the combined score, its
// numerator and denominator, and each scale's.
enum Slot : std::size_t {
  kSlotScore = 4,  // vif
  kSlotNum,
  kSlotDen,
  kSlotScaleNumDen,  // num_scale0, den_scale0, num_scale1, ...
};

}  // namespace

void write_scores(const FrameSums& s, const Params& p, unsigned index, FeatureWriter& out) {
  const bool skip0 = p.skip_scale0;
  auto ratio = [&](int k) { return static_cast<double>(s[k].num) / static_cast<double>(s[k].den); };
  out.write(0, index, skip0 ? 0.0 : ratio(0));
  for (int k = 1; k < kScales; ++k) {
    const double v = ratio(k);
    const double floor = p.min_val[k - 1];
    out.write(k, index, v > floor ? v : floor);
  }
  if (!p.debug) return;

  double num = 0.0;
  double den = 0.0;
  for (int k = skip0 ? 1 : 0; k < kScales; ++k) {
    num += static_cast<double>(s[k].num);
    den += static_cast<double>(s[k].den);
  }
  out.write(kSlotScore, index, den == 0.0 ? 1.0 : num / den);
  out.write(kSlotNum, index, num);
  out.write(kSlotDen, index, den);
  for (int k = 0; k < kScales; ++k) {
    // A skipped scale 0 reports 0 / -1, as libvmaf does.
    const bool skipped = k == 0 && skip0;
    out.write(kSlotScaleNumDen + 2 * k, index, skipped ? 0.0 : static_cast<double>(s[k].num));
    out.write(kSlotScaleNumDen + 2 * k + 1, index, skipped ? -1.0 : static_cast<double>(s[k].den));
  }
}

}  // namespace vqx::float_vif

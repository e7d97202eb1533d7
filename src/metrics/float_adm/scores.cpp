#include "metrics/float_adm/scores.hpp"

#include <cmath>

namespace vqx::float_adm {

namespace {

// The frame's values as libvmaf combines them (adm.c compute_adm(),
// float_adm.c extract()).
struct AdmScores {
  double adm2 = 0, aim = 0, adm3 = 0;
  double num = 0, den = 0;
};

AdmScores combine(const FrameSums& s, const Params& p, unsigned width, unsigned height) {
  double num = 0;
  double den = 0;
  double aim_num = 0;
  double aim_den = 0;
  for (int k = 0; k < kScales; ++k) {
    num += static_cast<double>(s[k].num);
    den += static_cast<double>(s[k].den);
    if (p.skip_aim_scale != k) {
      aim_den += static_cast<double>(s[k].den);
      aim_num += static_cast<double>(s[k].aim);
    }
  }
  // Sums below a size-relative floor count as 0 (w * h an int product).
  const double limit = kNumDenLimit * static_cast<int>(width * height) / kNumDenLimitPixels;
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;

  AdmScores out;
  if (den == 0.0) {
    // libvmaf leaves AIM unset here (an uninitialised variable); no
    // reference detail means nothing was added either: VQX reports 0.
    out.adm2 = 1.0;
    out.aim = 0.0;
  } else {
    const double aim = aim_num / aim_den;
    out.aim = aim < 1.0 ? aim : 1.0;
    out.adm2 = num / den;
  }
  out.num = num;
  out.den = den;
  const double adm3 = p.adm3_apply_hm
                          ? 2 * out.adm2 * out.aim / (out.adm2 + out.aim)
                          : out.adm2 * p.dlm_weight + (1 - out.aim) * (1 - p.dlm_weight);
  out.adm3 = adm3 > p.min_val ? adm3 : p.min_val;
  return out;
}

}  // namespace

ScaleSums finish_scale(const BandSums& num, const BandSums& den, const BandSums& aim,
                       const ScaleGeometry& g, const Params& p) {
  // libvmaf: powf(sum, 1.0f / p) + the noise floor, powf(w * h * weight,
  // 1.0f / p) over the summed region; h + v + d in float. AIM has no noise
  // floor (weight 0).
  const auto exponent = static_cast<float>(1.0 / p.p_norm);
  const Region& sr = g.sums;
  const int area = (sr.right - sr.left) * (sr.bottom - sr.top);
  const float noise = std::pow(static_cast<float>(area * p.noise_weight), exponent);
  const float no_noise = std::pow(static_cast<float>(area * 0.0), exponent);
  auto total = [&](const BandSums& s, float floor) {
    const float hh = std::pow(s[0], exponent) + floor;
    const float vv = std::pow(s[1], exponent) + floor;
    const float dd = std::pow(s[2], exponent) + floor;
    return hh + vv + dd;
  };
  return {total(num, noise), total(den, noise), total(aim, no_noise)};
}

void write_scores(const FrameSums& sums, const Params& p, unsigned width, unsigned height,
                  unsigned index, FeatureWriter& out) {
  const AdmScores s = combine(sums, p, width, height);
  // Slot order: kScoreNames, then kDebugScoreName and kDebugNames.
  std::size_t slot = 0;
  out.write(slot++, index, s.adm2);
  out.write(slot++, index, s.aim);
  out.write(slot++, index, s.adm3);
  for (const ScaleSums& k : sums) {
    out.write(slot++, index, static_cast<double>(k.num) / static_cast<double>(k.den));
  }
  if (!p.debug) return;
  out.write(slot++, index, s.adm2);
  out.write(slot++, index, s.num);
  out.write(slot++, index, s.den);
  for (const ScaleSums& k : sums) {
    out.write(slot++, index, static_cast<double>(k.num));
    out.write(slot++, index, static_cast<double>(k.den));
  }
}

}  // namespace vqx::float_adm

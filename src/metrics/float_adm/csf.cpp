#include "metrics/float_adm/csf.hpp"

#include <cmath>
#include <numbers>

namespace vqx::float_adm {

namespace {

constexpr double kPi = std::numbers::pi;

// Display visual resolution in pixels per degree, kept as float as
// libvmaf keeps it: nvd * height * pi / 180 in double.
float display_resolution(const Params& p) {
  return static_cast<float>(p.norm_view_dist * p.ref_display_height * kPi / 180.0);
}

// Watson's quantisation step for scale `lambda` and orientation `theta`
// (adm_tools.h, dwt_quant_step, formula (9) of Watson et al. 1997).
float watson_step(const Params& p, int lambda, int theta) {
  const WatsonParams& w = kWatsonY;
  const double r = display_resolution(p);
  const auto temp = static_cast<float>(std::log10(
      std::pow(2.0, lambda + 1) * static_cast<double>(w.f0) * static_cast<double>(w.g[theta]) / r));
  const float exponent = w.k * temp * temp;  // float operands: a float product
  return static_cast<float>(2.0 * static_cast<double>(w.a) *
                            std::pow(10.0, static_cast<double>(exponent)) /
                            static_cast<double>(kBasisAmplitudes[lambda][theta]));
}

// The nominal spatial frequency of a scale: half the resolution at scale 0.
float spatial_frequency(const Params& p, int lambda) {
  return static_cast<float>(static_cast<double>(display_resolution(p)) / std::pow(2, lambda + 1));
}

// adm_csf_tools.h, adm_native_csf (theta 0 for h/v, 45 for d).
float native_csf(const Params& p, int lambda, bool diagonal) {
  float f = spatial_frequency(p, lambda);
  if (diagonal) f = static_cast<float>(static_cast<double>(f) / kNativeCsfOblique);
  const double fd = f;
  return static_cast<float>((kNativeCsfA + kNativeCsfB * fd) * std::exp(kNativeCsfC * fd));
}

float lerp(float left_pos, float left_val, float right_pos, float right_val, float pos) {
  return left_val + ((right_val - left_val) / (right_pos - left_pos)) * (pos - left_pos);
}

// barten_csf_tools.h, barten_rod_cone_sens (a float parameter).
float rod_cone_sensitivity(float luminance) {
  const double drop = kBartenSa[1];
  const double slope = kBartenSa[2];
  const float neg_low = -kBartenSa[3];
  return static_cast<float>(
      static_cast<double>(kBartenSa[0]) *
      std::pow(std::pow(static_cast<double>(static_cast<float>(drop) / luminance), slope) + 1,
               static_cast<double>(neg_low)));
}

// barten_csf_tools.h, barten_mtf: a float sum of double terms.
float barten_mtf(float f) {
  float mtf = 0.0f;
  for (int i = 0; i < 4; ++i) {
    const float e = -kBartenMtfB[i] * f;
    mtf = static_cast<float>(static_cast<double>(mtf) + static_cast<double>(kBartenMtfA[i]) *
                                                            std::exp(static_cast<double>(e)));
  }
  return mtf;
}

// barten_csf_tools.h, barten_csf, at libvmaf's fixed luminance.
float barten_csf(const Params& p, int lambda, double scale) {
  const float f = spatial_frequency(p, lambda);
  const double lum = kLuminanceLevel;
  double clamped = lum;
  if (clamped > static_cast<double>(kBartenAnchors[5])) clamped = kBartenAnchors[5];
  if (clamped < static_cast<double>(kBartenAnchors[0])) clamped = kBartenAnchors[0];
  int left = 0;
  int right = 0;
  for (int i = 0; i < 5; ++i) {
    if (clamped >= static_cast<double>(kBartenAnchors[i]) &&
        clamped <= static_cast<double>(kBartenAnchors[i + 1])) {
      left = i;
      right = i + 1;
      break;
    }
  }
  const auto left_pos = static_cast<float>(std::log10(static_cast<double>(kBartenAnchors[left])));
  const auto right_pos = static_cast<float>(std::log10(static_cast<double>(kBartenAnchors[right])));
  const auto pos = static_cast<float>(std::log10(clamped));
  std::array<float, 4> q{};
  for (int k = 0; k < 4; ++k) {
    q[k] = lerp(left_pos, kBartenParams[left][k + 1], right_pos, kBartenParams[right][k + 1], pos);
  }
  const auto a = static_cast<float>(1.0f + std::pow(static_cast<double>(q[0] * f), q[1]));
  const auto b = static_cast<float>(
      1.0f / std::pow(1 - std::exp(-std::pow(static_cast<double>(f / 7), 2)), q[2]));
  const auto csf = static_cast<float>(q[3] / std::pow(static_cast<double>(a * b), 0.5));
  const float product = csf * barten_mtf(f) * rod_cone_sensitivity(static_cast<float>(lum));
  return static_cast<float>(static_cast<double>(product) * scale);
}

}  // namespace

std::array<BandWeights, kScales> csf_weights(const Params& p) {
  std::array<BandWeights, kScales> out{};
  for (int s = 0; s < kScales; ++s) {
    BandWeights& w = out[s];
    if (p.csf_mode == static_cast<int>(CsfMode::kBarten)) {
      w.hv = barten_csf(p, s, p.csf_scale);
      w.diag = barten_csf(p, s, p.csf_diag_scale);
    } else if (p.csf_mode == static_cast<int>(CsfMode::kAdmNative)) {
      w.hv = native_csf(p, s, false);
      w.diag = native_csf(p, s, true);
    } else {
      w.hv = 1.0f / watson_step(p, s, kWatsonThetaHv);
      w.diag = 1.0f / watson_step(p, s, kWatsonThetaDiag);
    }
    if (p.f1[s] >= 0) w.hv = static_cast<float>(p.f1[s]);
    if (p.f2[s] >= 0) w.diag = static_cast<float>(p.f2[s]);
  }
  return out;
}

}  // namespace vqx::float_adm

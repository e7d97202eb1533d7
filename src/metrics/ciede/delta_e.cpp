#include "metrics/ciede/delta_e.hpp"

#include <cmath>

#include "metrics/ciede/delta_e_steps.hpp"
#include "metrics/ciede/params.hpp"

namespace vqx::ciede {

namespace {

using steps::kPi;
using steps::kTwoPi;

// Hue angle h' = atan2(b, a') in [0, 2 pi); 0 for the achromatic colour.
float hue_angle(float b, float a_prime) {
  if (b == 0.0f && a_prime == 0.0f) {
    return 0.0f;
  }
  float h = static_cast<float>(std::atan2(static_cast<double>(b), static_cast<double>(a_prime)));
  if (h < 0.0f) {
    h = static_cast<float>(static_cast<double>(h) + kTwoPi);
  }
  return h;
}

// delta h': the hue difference folded into [-pi, pi]. libvmaf tests the
// chromas C1, C2 (not C'1, C'2) for zero.
float hue_difference(float c1, float c2, float h1, float h2) {
  if (c1 == 0.0f || c2 == 0.0f) {
    return 0.0f;
  }
  const float d = h2 - h1;
  if (static_cast<double>(std::fabs(d)) <= kPi) {
    return d;
  }
  if (h2 <= h1) {
    return static_cast<float>(static_cast<double>(d) + kTwoPi);
  }
  return static_cast<float>(static_cast<double>(d) - kTwoPi);
}

// Mean hue H-bar'. As in libvmaf, the sum is not reduced by 2 pi when the
// hues are more than pi apart, and achromatic colours are not special.
float mean_hue(float h1, float h2) {
  const float sum = h1 + h2;
  if (std::fabs(static_cast<double>(h1 - h2)) > kPi) {
    return static_cast<float>((static_cast<double>(sum) + kTwoPi) / 2.0);
  }
  return static_cast<float>(static_cast<double>(sum) / 2.0);
}

// R_T, the rotation term; its C'^7 ratio is evaluated in float (powf).
float rotation_term(float mean_cp, float mean_h) {
  const float c7 = std::pow(mean_cp, 7.0f);
  const float ratio = c7 / (c7 + std::pow(static_cast<float>(kChromaPivot), 7.0f));
  const float angle_deg =
      static_cast<float>(kRtMaxDeg * std::exp(steps::rotation_exponent(mean_h)));
  return static_cast<float>(-2.0 * std::sqrt(static_cast<double>(ratio)) *
                            std::sin(static_cast<double>(steps::rotation_angle(angle_deg))));
}

}  // namespace

float ciede2000(const Lab& c1, const Lab& c2) {
  const float chroma1 = steps::chroma(c1.a, c1.b);
  const float chroma2 = steps::chroma(c2.a, c2.b);
  const float mean_c = (chroma1 + chroma2) / 2.0f;

  // a' = a (1 + G / 2), G = 1 - sqrt(C^7 / (C^7 + 25^7)), in double.
  const double c7 = std::pow(static_cast<double>(mean_c), 7.0);
  const double g = 1.0 - std::sqrt(c7 / (c7 + std::pow(kChromaPivot, 7.0)));
  const float a1p = static_cast<float>(steps::a_prime(c1.a, g));
  const float a2p = static_cast<float>(steps::a_prime(c2.a, g));
  const float c1p = steps::chroma(a1p, c1.b);
  const float c2p = steps::chroma(a2p, c2.b);
  const float mean_cp = (c1p + c2p) / 2.0f;

  const float h1 = hue_angle(c1.b, a1p);
  const float h2 = hue_angle(c2.b, a2p);
  const float delta_h = hue_difference(chroma1, chroma2, h1, h2);
  const float delta_big_h = static_cast<float>(2.0 * std::sqrt(static_cast<double>(c1p * c2p)) *
                                               std::sin(static_cast<double>(delta_h) / 2.0));
  const float mean_h = mean_hue(h1, h2);
  const float t =
      static_cast<float>(steps::hue_weighting(mean_h, [](double x) { return std::cos(x); }));
  return steps::combine(c1.l, c2.l, mean_cp, c2p - c1p, delta_big_h, t,
                        rotation_term(mean_cp, mean_h));
}

}  // namespace vqx::ciede

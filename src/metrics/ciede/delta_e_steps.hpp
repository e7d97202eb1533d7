// Steps of libvmaf's CIEDE2000 (ciede.c, ciede2000() and its helpers) shared
// by the libm transcription (delta_e.cpp) and the batch (batch.cpp), so that
// both do exactly the same float and double arithmetic.
#pragma once

#include <cmath>
#include <numbers>

#include "core/kernel_build.hpp"

#include "metrics/ciede/params.hpp"

namespace vqx::ciede::steps {

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kTwoPi = 2.0 * kPi;

VQX_FORCE_INLINE double square(double x) { return x * x; }

// C = sqrt(a^2 + b^2), in double, kept as float.
VQX_FORCE_INLINE float chroma(float a, float b) {
  return static_cast<float>(std::sqrt(square(a) + square(b)));
}

// a' = a + (a / 2) G with G = 1 - sqrt(C^7 / (C^7 + 25^7)), before libvmaf
// rounds it to float.
VQX_FORCE_INLINE double a_prime(float a, double g) {
  return static_cast<double>(a) + static_cast<double>(a / 2.0f) * g;
}

// T before libvmaf rounds it to float, with `cos` libm's or an approximation.
template <typename Cos>
VQX_FORCE_INLINE double hue_weighting(float mean_h, Cos cos) {
  const double h = mean_h;
  return 1.0 - kT1 * cos(h - kPi / 6.0) + kT2 * cos(2.0 * h) + kT3 * cos(3.0 * h + kPi / 30.0) -
         kT4 * cos(4.0 * h - 7.0 * kPi / 20.0);
}

// R_T's hue offset from 275 degrees in units of 25 degrees, squared and
// negated: the argument of its exp().
VQX_FORCE_INLINE double rotation_exponent(float mean_h) {
  const float degrees = static_cast<float>(static_cast<double>(mean_h) * (180.0 / kPi));
  const float offset =
      static_cast<float>((static_cast<double>(degrees) - kRtHueCentreDeg) * (1.0 / kRtHueWidthDeg));
  return static_cast<double>(-(offset * offset));
}

// R_T's angle in radians from its angle in degrees (libvmaf's float).
VQX_FORCE_INLINE float rotation_angle(float degrees) {
  return static_cast<float>(static_cast<double>(degrees) * (kPi / 180.0));
}

// The weighted differences combined into the colour difference.
VQX_FORCE_INLINE float combine(float l1, float l2, float mean_cp, float delta_cp, float delta_big_h,
                               float t, float r_t) {
  const float delta_l = l2 - l1;
  const float mean_l = (l1 + l2) / 2.0f;
  const double l50 = static_cast<double>(mean_l - static_cast<float>(kLightnessMid));
  const float s_l =
      static_cast<float>(1.0 + (kSlWeight * square(l50)) / std::sqrt(kSlOffset + square(l50)));
  const float s_c = static_cast<float>(1.0 + kScWeight * static_cast<double>(mean_cp));
  const float s_h =
      static_cast<float>(1.0 + kShWeight * static_cast<double>(mean_cp) * static_cast<double>(t));
  const float lightness = delta_l / (kWeightL * s_l);
  const float chroma_term = delta_cp / (kWeightC * s_c);
  const float hue = delta_big_h / (kWeightH * s_h);
  return static_cast<float>(std::sqrt(square(lightness) + square(chroma_term) + square(hue) +
                                      static_cast<double>(r_t * chroma_term * hue)));
}

}  // namespace vqx::ciede::steps

// libvmaf's CIEDE2000 colour difference (ciede.c, ciede2000() and its
// helpers), step by step: every named intermediate a float, each expression
// in the precision C's promotions give it, with VQX's elementary functions
// (elementary.hpp) where libvmaf calls libm's. The CPU's batches (batch.cpp)
// run the stages below over many pairs at a time, the GPU twin
// (gpu_kernels.cuh) ciede2000() per pixel: the same functions. Plain
// constexpr functions, branch-free (pick(): the CPU's loops vectorise);
// host and device code alike. Equal colours give exactly 0.
#pragma once

#include <cmath>
#include <numbers>

#include "core/device_constant.cuh"
#include "core/kernel_build.hpp"
#include "metrics/ciede/blend.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/elementary.hpp"
#include "metrics/ciede/params.hpp"

namespace vqx::ciede::steps {

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kTwoPi = 2.0 * kPi;
inline constexpr double kDegreesPerRadian = 180.0 / kPi;
inline constexpr double kRadiansPerDegree = kPi / 180.0;
// Read on the device through VQX_DEVICE_CONSTANT (core/device_constant.cuh)
// where a literal would cost two instructions a use; each is still the one
// value params.hpp and the lines above write.

VQX_FORCE_INLINE constexpr double square(double x) { return x * x; }

// C = sqrt(a^2 + b^2), in double, kept as float.
VQX_FORCE_INLINE constexpr float chroma(float a, float b) {
  return static_cast<float>(std::sqrt(square(a) + square(b)));
}

// a' = a + (a / 2) G with G = 1 - sqrt(C^7 / (C^7 + 25^7)), before libvmaf
// rounds it to float.
VQX_FORCE_INLINE constexpr double a_prime(float a, double g) {
  return static_cast<double>(a) + static_cast<double>(a / 2.0f) * g;
}

// The first stage: chromas, a', C' and their means and difference.
struct ChromaTerms {
  float a1p;      // a' of colour 1
  float a2p;      // a' of colour 2
  float chroma1;  // C (not C') of colour 1
  float chroma2;
  float mean_cp;   // mean C'
  float delta_cp;  // delta C'
  double root_cp;  // sqrt(C'1 C'2)
};
// In two steps, as the CPU's batches run it (like the third stage below):
// G from the chromas C1 and C2, then the rest.
// 25^7, exact (libvmaf: pow(25, 7))
inline constexpr double kPivot7 = elementary::power7(kChromaPivot);
static_assert(kPivot7 == 6103515625.0);
VQX_FORCE_INLINE constexpr double a_weight(float c1, float c2) {
  const float mean_c = (c1 + c2) / 2.0f;
  const double c7 = elementary::power7(mean_c);
  return 1.0 - std::sqrt(c7 / (c7 + VQX_DEVICE_CONSTANT(kPivot7)));
}
VQX_FORCE_INLINE constexpr ChromaTerms chroma_terms_with(float a1, float b1, float a2, float b2,
                                                         float c1, float c2, double g) {
  const float a1p = static_cast<float>(a_prime(a1, g));
  const float a2p = static_cast<float>(a_prime(a2, g));
  const float c1p = chroma(a1p, b1);
  const float c2p = chroma(a2p, b2);
  return {
      a1p, a2p, c1, c2, (c1p + c2p) / 2.0f, c2p - c1p, std::sqrt(static_cast<double>(c1p * c2p))};
}
VQX_FORCE_INLINE constexpr ChromaTerms chroma_terms(float a1, float b1, float a2, float b2) {
  const float c1 = chroma(a1, b1);
  const float c2 = chroma(a2, b2);
  return chroma_terms_with(a1, b1, a2, b2, c1, c2, a_weight(c1, c2));
}

// The second stage: the square root of R_T's C'^7 ratio, which libvmaf
// takes in float (powf).
VQX_FORCE_INLINE constexpr double root_ratio(float mean_cp) {
  const float c7 = elementary::power7f(mean_cp);
  const float pivot7 = elementary::power7f(static_cast<float>(kChromaPivot));
  return std::sqrt(static_cast<double>(c7 / (c7 + pivot7)));
}

// Hue angle h' = atan2(b, a') moved into [0, 2 pi); 0 for the achromatic
// colour.
VQX_FORCE_INLINE constexpr float hue_angle(float b, float a_prime) {
  const float h = static_cast<float>(elementary::atan2(b, a_prime));
  const float wrapped = static_cast<float>(static_cast<double>(h) + VQX_DEVICE_CONSTANT(kTwoPi));
  const bool achromatic = (b == 0.0f) & (a_prime == 0.0f);
  return pick(achromatic, 0.0f, pick(h < 0.0f, wrapped, h));
}

// T before libvmaf rounds it to float. Its four cosines come from one
// sine and cosine of H: cos 2H, 3H and 4H (and their sines) by the
// double-angle and addition formulas, the phases by their own cosines and
// sines (constants): about a third of the arithmetic of four cosines.
// Within a few units of 2^-52 of the four cosines' T, and the same float T
// on every hue tried (CiedeDefinition.HueWeightingIsTheFourCosines,
// docs/metrics.md).
inline constexpr elementary::SinCos kPhase1 = elementary::sincos(kT1Phase);
inline constexpr elementary::SinCos kPhase3 = elementary::sincos(kT3Phase);
inline constexpr elementary::SinCos kPhase4 = elementary::sincos(kT4Phase);
VQX_FORCE_INLINE constexpr double hue_weighting(float mean_h) {
  const elementary::SinCos phase1 = VQX_DEVICE_CONSTANT(kPhase1);
  const elementary::SinCos phase3 = VQX_DEVICE_CONSTANT(kPhase3);
  const elementary::SinCos phase4 = VQX_DEVICE_CONSTANT(kPhase4);
  const elementary::SinCos h = elementary::sincos(static_cast<double>(mean_h));
  const double cos2 = h.cos * h.cos - h.sin * h.sin;
  const double sin2 = 2.0 * h.sin * h.cos;
  const double cos3 = cos2 * h.cos - sin2 * h.sin;
  const double sin3 = sin2 * h.cos + cos2 * h.sin;
  const double cos4 = cos2 * cos2 - sin2 * sin2;
  const double sin4 = 2.0 * sin2 * cos2;
  const double term1 = h.cos * phase1.cos + h.sin * phase1.sin;  // cos(H - 30 degrees)
  const double term3 = cos3 * phase3.cos - sin3 * phase3.sin;    // cos(3H + 6 degrees)
  const double term4 = cos4 * phase4.cos + sin4 * phase4.sin;    // cos(4H - 63 degrees)
  return 1.0 - VQX_DEVICE_CONSTANT(kT1) * term1 + VQX_DEVICE_CONSTANT(kT2) * cos2 +
         VQX_DEVICE_CONSTANT(kT3) * term3 - VQX_DEVICE_CONSTANT(kT4) * term4;
}

inline constexpr double kRtHueWidthInverse = 1.0 / kRtHueWidthDeg;
// R_T's hue offset from 275 degrees in units of 25 degrees, squared and
// negated: the argument of its exp().
VQX_FORCE_INLINE constexpr double rotation_exponent(float mean_h) {
  const float degrees =
      static_cast<float>(static_cast<double>(mean_h) * VQX_DEVICE_CONSTANT(kDegreesPerRadian));
  const float offset = static_cast<float>((static_cast<double>(degrees) - kRtHueCentreDeg) *
                                          VQX_DEVICE_CONSTANT(kRtHueWidthInverse));
  return static_cast<double>(-(offset * offset));
}

// R_T's angle in radians from its angle in degrees (libvmaf's float).
VQX_FORCE_INLINE constexpr float rotation_angle(float degrees) {
  return static_cast<float>(static_cast<double>(degrees) * VQX_DEVICE_CONSTANT(kRadiansPerDegree));
}

// The third stage, delta H', T and R_T, in four steps: the CPU's batches
// run each step over all their pairs in a loop of its own, which took 7 %
// (AVX2) and 12 % (AVX-512) less of ciede's CPU time than one loop of the
// whole stage (docs/performance.md); the GPU twin calls hue_terms().
struct HueTerms {
  float delta_big_h;  // delta H'
  float t;            // the hue weighting T
  float r_t;          // the rotation term R_T
};

// delta H' = 2 sqrt(C'1 C'2) sin(delta h' / 2), from the hue angles h1, h2
// (hue_angle()) and the chroma terms.
VQX_FORCE_INLINE constexpr float delta_big_hue(float h1, float h2, float chroma1, float chroma2,
                                               double root_cp) {
  // delta h', folded into [-pi, pi] (libvmaf tests C1, C2, not C'1, C'2,
  // for zero).
  const float d = h2 - h1;
  const double two_pi = VQX_DEVICE_CONSTANT(kTwoPi);
  const float d_plus = static_cast<float>(static_cast<double>(d) + two_pi);
  const float d_minus = static_cast<float>(static_cast<double>(d) - two_pi);
  const float folded = pick(static_cast<double>(std::fabs(d)) <= VQX_DEVICE_CONSTANT(kPi), d,
                            pick(h2 <= h1, d_plus, d_minus));
  const float dh = pick((chroma1 == 0.0f) | (chroma2 == 0.0f), 0.0f, folded);
  return static_cast<float>((2.0 * root_cp) *
                            elementary::sin_within_half_pi(static_cast<double>(dh) / 2.0));
}

// The mean hue H-bar' (as in libvmaf, the sum is not reduced by 2 pi when
// the hues are more than pi apart, and achromatic colours are not special).
VQX_FORCE_INLINE constexpr float mean_hue(float h1, float h2) {
  const float hsum = h1 + h2;
  const float far =
      static_cast<float>((static_cast<double>(hsum) + VQX_DEVICE_CONSTANT(kTwoPi)) / 2.0);
  const float near = static_cast<float>(static_cast<double>(hsum) / 2.0);
  return pick(std::fabs(static_cast<double>(h1 - h2)) > VQX_DEVICE_CONSTANT(kPi), far, near);
}

// R_T from the mean hue and root_ratio().
VQX_FORCE_INLINE constexpr float rotation_term(float mean_h, double root_ratio) {
  const double angle_deg = kRtMaxDeg * elementary::exp(rotation_exponent(mean_h));
  const float angle = rotation_angle(static_cast<float>(angle_deg));
  return static_cast<float>((-2.0 * root_ratio) *
                            elementary::sin_within_half_pi(static_cast<double>(angle)));
}

VQX_FORCE_INLINE constexpr HueTerms hue_terms(float b1, float b2, const ChromaTerms& c,
                                              double root_ratio) {
  const float h1 = hue_angle(b1, c.a1p);
  const float h2 = hue_angle(b2, c.a2p);
  const float mean_h = mean_hue(h1, h2);
  return {delta_big_hue(h1, h2, c.chroma1, c.chroma2, c.root_cp),
          static_cast<float>(hue_weighting(mean_h)), rotation_term(mean_h, root_ratio)};
}

// The last stage: the weighted differences combined into the colour
// difference.
VQX_FORCE_INLINE constexpr float combine(float l1, float l2, float mean_cp, float delta_cp,
                                         float delta_big_h, float t, float r_t) {
  const float delta_l = l2 - l1;
  const float mean_l = (l1 + l2) / 2.0f;
  const double l50 = static_cast<double>(mean_l - static_cast<float>(kLightnessMid));
  const float s_l = static_cast<float>(1.0 + (VQX_DEVICE_CONSTANT(kSlWeight) * square(l50)) /
                                                 std::sqrt(kSlOffset + square(l50)));
  const float s_c =
      static_cast<float>(1.0 + VQX_DEVICE_CONSTANT(kScWeight) * static_cast<double>(mean_cp));
  const float s_h = static_cast<float>(
      1.0 + VQX_DEVICE_CONSTANT(kShWeight) * static_cast<double>(mean_cp) * static_cast<double>(t));
  const float lightness = delta_l / (kWeightL * s_l);
  const float chroma_term = delta_cp / (kWeightC * s_c);
  const float hue = delta_big_h / (kWeightH * s_h);
  return static_cast<float>(std::sqrt(square(lightness) + square(chroma_term) + square(hue) +
                                      static_cast<double>(r_t * chroma_term * hue)));
}

// The colour difference of two colours: the stages in order.
VQX_FORCE_INLINE constexpr float ciede2000(const Lab& c1, const Lab& c2) {
  const ChromaTerms c = chroma_terms(c1.a, c1.b, c2.a, c2.b);
  const HueTerms h = hue_terms(c1.b, c2.b, c, root_ratio(c.mean_cp));
  return combine(c1.l, c2.l, c.mean_cp, c.delta_cp, h.delta_big_h, h.t, h.r_t);
}

}  // namespace vqx::ciede::steps

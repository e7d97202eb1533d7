// VQX's own sin, cos, atan2, exp, log, pow and seventh powers in double:
// the elementary functions of ciede's arithmetic, for both twins.
//
// libvmaf calls libm (glibc) for these. A GPU has no glibc, and its own
// functions round differently, so the twins could not agree to the bit if
// each called its own library. Since issue 14 both call these instead:
// sequences of IEEE additions, multiplications, divisions and conversions
// (nothing fused: cmake/FloatingPoint.cmake, --fmad=false,
// -ffp-contract=off), which every compiler and device evaluates alike.
// Plain constexpr functions: host and device code alike (docs/gpu.md,
// "Every number once").
//
// They are NOT bit-identical to libm: each has a relative error of a few
// units in the last place of a double (measured by the unit test against
// libm), and nearly every result is rounded to float next, where that error
// almost never shows; docs/metrics.md ("CIEDE2000") gives what it changes
// against libvmaf. Branch-free (pick(): blend.hpp), so that the CPU's
// loops over many pixels vectorise.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/device_constant.cuh"
#include "core/kernel_build.hpp"
#include "metrics/ciede/blend.hpp"

namespace vqx::ciede::elementary {

// Rounds |x| < 2^51 to the nearest integer (ties to even): adding 1.5 * 2^52
// leaves no fraction bits.
inline constexpr double kRoundShift = 0x1.8p52;
VQX_FORCE_INLINE constexpr double round_to_integer(double x) {
  return (x + kRoundShift) - kRoundShift;
}

// p(z) = c[0] + z (c[1] + z (c[2] + ...)), innermost first.
template <std::size_t N>
VQX_FORCE_INLINE constexpr double horner(double z, const std::array<double, N>& c) {
  double p = c[N - 1];
  for (std::size_t i = N - 1; i-- > 0;) {
    p = c[i] + z * p;
  }
  return p;
}

// 1 / n!, for the Taylor polynomials below.
inline constexpr double kInvFactorial[] = {
    1.0,
    1.0,
    1.0 / 2,
    1.0 / 6,
    1.0 / 24,
    1.0 / 120,
    1.0 / 720,
    1.0 / 5040,
    1.0 / 40320,
    1.0 / 362880,
    1.0 / 3628800,
    1.0 / 39916800,
    1.0 / 479001600,
    1.0 / 6227020800,
    1.0 / 87178291200,
    1.0 / 1307674368000,
    1.0 / 20922789888000,
    1.0 / 355687428096000,
    1.0 / 6402373705728000,
    1.0 / 121645100408832000,
    1.0 / 2432902008176640000,
    // 21! is past int64; as a double literal it is exact (2^18 times an
    // odd 48-bit number).
    1.0 / 51090942171709440000.0,
};

// sin's Taylor series to r^(2 Terms + 1), as r + r z (c1 + z (c2 + ...)),
// z = r^2, c_k = (-1)^k / (2k + 1)!.
template <std::size_t Terms>
constexpr std::array<double, Terms> sin_series_coefficients() {
  std::array<double, Terms> c{};
  for (std::size_t k = 0; k < Terms; ++k) {
    c[k] = k % 2 == 0 ? -kInvFactorial[2 * k + 3] : kInvFactorial[2 * k + 3];
  }
  return c;
}
template <std::size_t Terms>
inline constexpr std::array<double, Terms> kSinSeries = sin_series_coefficients<Terms>();
template <std::size_t Terms>
VQX_FORCE_INLINE constexpr double sin_series(double r) {
  const double z = r * r;
  return r + r * z * horner(z, VQX_DEVICE_CONSTANT(kSinSeries<Terms>));
}

// Taylor polynomials of sin and cos on |r| <= pi/4: the first omitted terms,
// r^19 / 19! and r^20 / 20!, are below 1e-19 there.
VQX_FORCE_INLINE constexpr double sin_near_zero(double r) { return sin_series<8>(r); }

// cos's as 1 + z (c1 + z (c2 + ...)), c_k = (-1)^(k+1) / (2k + 2)!.
constexpr std::array<double, 9> cos_series_coefficients() {
  return {-kInvFactorial[2],  kInvFactorial[4],   -kInvFactorial[6],
          kInvFactorial[8],   -kInvFactorial[10], kInvFactorial[12],
          -kInvFactorial[14], kInvFactorial[16],  -kInvFactorial[18]};
}
inline constexpr std::array<double, 9> kCosSeries = cos_series_coefficients();
VQX_FORCE_INLINE constexpr double cos_near_zero(double r) {
  const double z = r * r;
  return 1.0 + z * horner(z, VQX_DEVICE_CONSTANT(kCosSeries));
}

// x = n pi/2 + r with |r| <= pi/4, for |x| < 2^20: pi/2 is split into two
// 33-bit parts and a remainder, so n times each part is exact (Cody-Waite).
struct Reduced {
  double r;
  int quadrant;  // n mod 4
};
inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
inline constexpr double kHalfPi1 = 0x1.921fb544p+0;        // pi/2, first 33 bits
inline constexpr double kHalfPi2 = 0x1.0b4611a6p-34;       // next 33 bits
inline constexpr double kHalfPi3 = 0x1.3198a2e037073p-69;  // the rest, rounded

VQX_FORCE_INLINE constexpr Reduced reduce_half_pi(double x) {
  const double n = round_to_integer(x * VQX_DEVICE_CONSTANT(kTwoOverPi));
  const double r = ((x - n * VQX_DEVICE_CONSTANT(kHalfPi1)) - n * VQX_DEVICE_CONSTANT(kHalfPi2)) -
                   n * VQX_DEVICE_CONSTANT(kHalfPi3);
  return {r, static_cast<int>(n) & 3};
}

// sin x and cos x from one reduction: both polynomials are evaluated (the
// quadrant picks, branch-free), so one call gives both values.
struct SinCos {
  double sin;
  double cos;
};
VQX_FORCE_INLINE constexpr SinCos sincos(double x) {
  const Reduced red = reduce_half_pi(x);
  const double s = sin_near_zero(red.r);
  const double c = cos_near_zero(red.r);
  const auto q = static_cast<std::uint64_t>(red.quadrant);
  // Quadrants 0..3: sin is sin r, cos r, -sin r, -cos r; cos is cos r,
  // -sin r, -cos r, sin r.
  const double vs = pick_bit(q & 1, c, s);
  const double vc = pick_bit(q & 1, s, c);
  return {pick_bit((q >> 1) & 1, -vs, vs), pick_bit(((q + 1) >> 1) & 1, -vc, vc)};
}

VQX_FORCE_INLINE constexpr double sin(double x) { return sincos(x).sin; }
VQX_FORCE_INLINE constexpr double cos(double x) { return sincos(x).cos; }

// sin x for |x| <= pi/2 by one polynomial, no reduction: the Taylor series
// to x^21 (the first omitted term, (pi/2)^23 / 23!, is below 1.3e-18).
// Within 2 units of 2^-52 of libm's sin there, as sincos's sine is; about
// half its arithmetic (one polynomial of ten terms against two of eight and
// nine, and the reduction). ciede's two lone sines have such arguments:
// delta h' / 2 and R_T's angle (at most 60 degrees).
VQX_FORCE_INLINE constexpr double sin_within_half_pi(double x) { return sin_series<10>(x); }

// atan(num / den) for 0 <= num <= den, den > 0: atan(t) = atan(c) +
// atan((t - c) / (1 + t c)) with c = 0, 7/16 or 7/8 (exact in binary) keeps
// the second argument within +-0.21, where the Taylor series to u^23 is
// exact to 1e-18. The argument is formed as (num - c den) / (den + c num):
// one division, not two (t, then u); c den is exact for ciede's arguments
// (floats widened: 24 + 3 bits).
// The intervals of t = num / den and their c and atan(c). Their ends need
// no exact test: either neighbour's c keeps u small there.
inline constexpr double kAtanLowEnd = 0.21;  // t below: c = 0
inline constexpr double kAtanMidEnd = 0.70;  // t below: c = 7/16; above: 7/8
inline constexpr double kAtanMidC = 7.0 / 16;
inline constexpr double kAtanHighC = 7.0 / 8;
inline constexpr double kAtan7_16 = 0x1.a64eec3cc23fdp-2;  // atan(7/16), correctly rounded
inline constexpr double kAtan7_8 = 0x1.700a7c5784634p-1;   // atan(7/8), correctly rounded
// atan's Taylor series as u + u z (c1 + z (c2 + ...)), z = u^2, c_k =
// (-1)^k / (2k + 1).
constexpr std::array<double, 11> atan_series_coefficients() {
  return {-1.0 / 3,  1.0 / 5,  -1.0 / 7,  1.0 / 9,  -1.0 / 11, 1.0 / 13,
          -1.0 / 15, 1.0 / 17, -1.0 / 19, 1.0 / 21, -1.0 / 23};
}
inline constexpr std::array<double, 11> kAtanSeries = atan_series_coefficients();
VQX_FORCE_INLINE constexpr double atan_ratio(double num, double den) {
  const bool low = num < VQX_DEVICE_CONSTANT(kAtanLowEnd) * den;
  const bool mid = num < VQX_DEVICE_CONSTANT(kAtanMidEnd) * den;
  const double c = pick(low, 0.0, pick(mid, kAtanMidC, kAtanHighC));
  const double base =
      pick(low, 0.0, pick(mid, VQX_DEVICE_CONSTANT(kAtan7_16), VQX_DEVICE_CONSTANT(kAtan7_8)));
  const double u = (num - c * den) / (den + c * num);
  const double z = u * u;
  const double p = horner(z, VQX_DEVICE_CONSTANT(kAtanSeries));
  return base + (u + u * z * p);
}

// atan2(y, x) in [-pi, pi]; 0 for (0, 0). A -0.0 y gives -0.0 or -pi, as
// libm does.
inline constexpr double kPi = 0x1.921fb54442d18p+1;
inline constexpr double kHalfPi = 0x1.921fb54442d18p+0;
VQX_FORCE_INLINE constexpr double atan2(double y, double x) {
  const double ax = pick(x < 0.0, -x, x);
  const double ay = pick(y < 0.0, -y, y);
  const bool steep = ay > ax;
  const double num = pick(steep, ax, ay);
  const double den = pick(steep, ay, ax);
  double a = atan_ratio(num, pick(den == 0.0, 1.0, den));
  a = pick(steep, VQX_DEVICE_CONSTANT(kHalfPi) - a, a);
  a = pick(x < 0.0, VQX_DEVICE_CONSTANT(kPi) - a, a);
  const bool negative = (bits_as<std::uint64_t>(y) >> 63) != 0;  // sign bit, -0.0 too
  return pick(negative, -a, a);
}

// ln2 in two parts (exp and log): a 33-bit part, so that k times it is
// exact, and the rest.
inline constexpr double kInvLn2 = 0x1.71547652b82fep+0;
inline constexpr double kLn2Hi = 0x1.62e42ffp-1;
inline constexpr double kLn2Lo = -0x1.718432a1b0e26p-35;
// exp's Taylor series to r^13: c_k = 1 / k!.
constexpr std::array<double, 14> exp_series_coefficients() {
  return {kInvFactorial[0],  kInvFactorial[1], kInvFactorial[2],  kInvFactorial[3],
          kInvFactorial[4],  kInvFactorial[5], kInvFactorial[6],  kInvFactorial[7],
          kInvFactorial[8],  kInvFactorial[9], kInvFactorial[10], kInvFactorial[11],
          kInvFactorial[12], kInvFactorial[13]};
}
inline constexpr std::array<double, 14> kExpSeries = exp_series_coefficients();
// The biased exponent of 1.0: 2^k has bits (k + kExponentBias) << 52.
inline constexpr int kExponentBias = 1023;

// exp(x) for -700 < x < 700: x = k ln2 + r with |r| <= ln2/2 (ln2 split
// into a 33-bit part and the rest), exp(r) by its Taylor series to r^13,
// times 2^k built in the exponent bits.
VQX_FORCE_INLINE constexpr double exp(double x) {
  const double k = round_to_integer(x * VQX_DEVICE_CONSTANT(kInvLn2));
  const double r = (x - k * VQX_DEVICE_CONSTANT(kLn2Hi)) - k * VQX_DEVICE_CONSTANT(kLn2Lo);
  const double p = horner(r, VQX_DEVICE_CONSTANT(kExpSeries));
  const auto biased = static_cast<std::int64_t>(static_cast<int>(k)) + kExponentBias;
  return p * bits_as<double>(static_cast<std::uint64_t>(biased) << 52);
}

// log(x) for positive normal x: x = 2^e m with sqrt(1/2) <= m < sqrt(2),
// log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172, by its series to
// s^23 (exact to 1e-18); e ln2 added in two parts.
inline constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;
inline constexpr std::array<double, 11> kLogSeries = {1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,
                                                      1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17,
                                                      1.0 / 19, 1.0 / 21, 1.0 / 23};
VQX_FORCE_INLINE constexpr double log(double x) {
  constexpr std::uint64_t kMantissa = (std::uint64_t{1} << 52) - 1;
  constexpr std::uint64_t kOneExponent = std::uint64_t{kExponentBias} << 52;
  const auto bits = bits_as<std::uint64_t>(x);
  const double m1 = bits_as<double>((bits & kMantissa) | kOneExponent);  // [1, 2)
  const double e1 = static_cast<double>(static_cast<int>(bits >> 52) - kExponentBias);
  const bool high = m1 >= VQX_DEVICE_CONSTANT(kSqrt2);
  const double m = pick(high, m1 * 0.5, m1);
  const double e = pick(high, e1 + 1.0, e1);
  const double s = (m - 1.0) / (m + 1.0);
  const double z = s * s;
  const double p = horner(z, VQX_DEVICE_CONSTANT(kLogSeries));
  const double log_m = 2.0 * (s + s * z * p);
  return (e * VQX_DEVICE_CONSTANT(kLn2Hi) + log_m) + e * VQX_DEVICE_CONSTANT(kLn2Lo);
}

// x^y for positive normal x and moderate y log(x), as exp(y log(x)); for
// other x a meaningless finite value, which callers do not select.
VQX_FORCE_INLINE constexpr double pow(double x, double y) {
  return elementary::exp(y * elementary::log(x));
}

// x^7 as (x^2 x^2)(x^2 x): for x a float, x^2 is exact, so at most three
// roundings (libvmaf: pow(x, 7.0)).
VQX_FORCE_INLINE constexpr double power7(double x) {
  const double x2 = x * x;
  return (x2 * x2) * (x2 * x);
}

// x^7 for a float, rounded to float (libvmaf: powf(x, 7.0f)): power7 in
// double, then one rounding to float, which gives the correctly rounded
// float but where the double lies within a few units of its last place of
// a half-way point between two floats.
VQX_FORCE_INLINE constexpr float power7f(float x) {
  return static_cast<float>(power7(static_cast<double>(x)));
}

}  // namespace vqx::ciede::elementary

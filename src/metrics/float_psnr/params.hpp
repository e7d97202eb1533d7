// Float PSNR ("float_psnr", libvmaf feature/float_psnr.c and psnr.c): the
// numbers, written once. float_ansnr uses the same peaks and caps.
//
// libvmaf's float extractors first convert the luma to float in 8-bit units:
// a sample v of a bpc-bit picture becomes (float)v / 2^(bpc - 8)
// (picture_copy.c: scalers 4, 16 and 256 for 10, 12 and 16 bits). The
// score is 10 log10(peak^2 / max(noise, 1e-10)), capped, where noise is the
// mean of the squared float differences, each square a float, summed in
// double.
#pragma once

#include <cstdint>

#include "vqx/picture.hpp"

namespace vqx::float_psnr {

// The divisor that brings a bpc-bit sample to 8-bit units (a power of 2, so
// the division is exact).
[[nodiscard]] constexpr float sample_scale(unsigned bpc) {
  return static_cast<float>(1U << (bpc - 8));
}
// What a sample is multiplied by in the reference's float conversion
// (exact: a power of 2).
[[nodiscard]] constexpr float inv_sample_scale(unsigned bpc) { return 1.0F / sample_scale(bpc); }

// The peak in 8-bit units, (2^bpc - 1) / 2^(bpc - 8), and the cap,
// 6 * bpc + 12 dB. float_psnr.c and float_ansnr.c init() list them for the
// depths libvmaf accepts: 8: 255.0 / 60, 10: 255.75 / 72, 12: 255.9375 / 84,
// 16: 255.99609375 / 108; the formulas give the same numbers and extend them
// to the other depths (which libvmaf refuses).
[[nodiscard]] constexpr double peak(unsigned bpc) {
  return static_cast<double>((1U << bpc) - 1) / static_cast<double>(1U << (bpc - 8));
}
[[nodiscard]] constexpr double psnr_max(unsigned bpc) { return 6.0 * bpc + 12.0; }
static_assert(peak(8) == 255.0 && peak(10) == 255.75 && peak(12) == 255.9375 &&
              peak(16) == 255.99609375);
static_assert(psnr_max(8) == 60.0 && psnr_max(10) == 72.0 && psnr_max(12) == 84.0 &&
              psnr_max(16) == 108.0);

// The mean squared difference used in the log is at least this (psnr.c).
inline constexpr double kNoiseFloor = 1e-10;

// Up to 12 bits a scaled sample difference is d / 2^(bpc-8) with |d| < 2^12,
// so its float square d^2 / 4^(bpc-8) is exact (d^2 < 2^24), and the double
// sum of such squares over a picture stays an exact multiple of 4^-(bpc-8)
// below 2^53 units: the reference's float/double sum equals the integer SSE
// divided by 4^(bpc-8), in any order. Deeper samples round their squares to
// float, and the reference's order of summation must be followed.
inline constexpr unsigned kMaxExactBpc = 12;
static_assert(double{(1U << kMaxExactBpc) - 1} * ((1U << kMaxExactBpc) - 1) * double{kMaxPixels} <
              9007199254740992.0);

// Where the sums are exact (float_psnr up to kMaxExactBpc, float_moment's
// first moment at any depth, its second up to kMaxExactBpc), the reference's
// float/double sum is the integer sum in 8-bit units: a sum of samples over
// the scale, a sum of squares (of samples or of their differences) over its
// square. Both twins finish their integer sums so.
[[nodiscard]] constexpr double scaled_sum(std::uint64_t sum, unsigned bpc) {
  return static_cast<double>(sum) / static_cast<double>(sample_scale(bpc));
}
[[nodiscard]] constexpr double scaled_square_sum(std::uint64_t sum, unsigned bpc) {
  const double scale = sample_scale(bpc);
  return static_cast<double>(sum) / (scale * scale);
}

}  // namespace vqx::float_psnr

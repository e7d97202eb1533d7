// The enable_db / clip_db options shared by float_ssim and float_ms_ssim
// (libvmaf float_ssim.c and float_ms_ssim.c: init() and convert_to_db()).
#pragma once

#include <cmath>
#include <limits>

namespace vqx::ssim {

// The largest dB value written: with clip_db, that of a picture whose every
// sample but one is exact and one is off by half a step, i.e.
// ceil(10 log10(peak^2 / mse)) with mse = 0.5 / (w h); else infinity.
inline double max_db(bool clip, unsigned bpc, unsigned width, unsigned height) {
  if (!clip) return std::numeric_limits<double>::infinity();
  const unsigned peak = (1U << bpc) - 1;  // peak * peak fits 32 bits up to 16 bits
  const double mse = 0.5 / (width * height);
  return std::ceil(10. * std::log10((peak * peak) / mse));
}

// A score in [0, 1] as dB, -10 log10(1 - score), at most max_db (equal
// pictures give +infinity unless clipped).
inline double to_db(double score, double max) {
  const double db = -10. * std::log10(1 - score);
  return db < max ? db : max;
}

}  // namespace vqx::ssim

// Integer PSNR: from SSEs to scores, in libvmaf's double arithmetic
// (integer_psnr.c), step for step, so that the values are identical.
#pragma once

#include <cstdint>

#include "vqx/picture.hpp"

namespace vqx::psnr {

// The cap of plane p's psnr (integer_psnr.c, init()). By default 6 * bpc + 12
// dB. With min_sse > 0: ceil(10 log10(peak^2 / (min_sse / n))), n the plane's
// pixel count, which libvmaf counts as w / 2 and h / 2 (rounding down, though
// odd sizes have chroma planes that round up) on the subsampled axes.
double psnr_max(const PictureFormat& fmt, unsigned plane, std::uint32_t peak, double min_sse);

struct PlaneScore {
  double psnr;
  double mse;
};

// One plane of one frame: mse = sse / (width * height),
// psnr = min(10 log10(peak^2 / max(mse, kMseFloor)), cap).
PlaneScore plane_score(std::uint64_t sse, unsigned width, unsigned height, std::uint32_t peak,
                       double cap);

// The aggregate PSNR of one plane over a whole video (integer_psnr.c,
// flush()): 10 (log10 peak^2 + log10 pixels - log10 sse), capped at
// ceil(10 log10(2 peak^2 pixels)) with that product in uint64 arithmetic.
// Lossless (sse = 0) gives the cap; a plane never measured (pixels = 0) gives
// -infinity, as in libvmaf.
double aggregate_psnr(std::uint64_t sse, std::uint64_t pixels, std::uint32_t peak);

}  // namespace vqx::psnr

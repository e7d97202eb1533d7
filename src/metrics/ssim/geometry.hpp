// The sizes SSIM and MS-SSIM work at, and the refusal of pictures too small
// for them: shared by the CPU extractors and the GPU twins, which refuse a
// picture with the same message.
#pragma once

#include <array>

#include "metrics/ssim/params.hpp"
#include "vqx/status.hpp"

namespace vqx::ssim {

struct Size {
  int width = 0;
  int height = 0;
};

// float_ssim: the subsampling factor and the size the window sees (the
// picture's, or the subsampled one's).
struct SsimGeometry {
  int factor = 1;
  Size window;
};

// The geometry of float_ssim for `width` x `height` pictures with the
// "scale" option `scale_option`, or kUnsupported where the window does not
// fit (below 11x11 libvmaf divides by zero or a negative count).
Expected<SsimGeometry> ssim_geometry(int scale_option, unsigned width, unsigned height);

// float_ms_ssim: kUnsupported for a picture whose coarsest scale cannot
// hold the window (params.hpp: kMsSsimMinSide), else Ok.
Status check_ms_ssim_size(unsigned width, unsigned height);

// The sizes of MS-SSIM's scales: scale 0 is the picture; each next one
// halves the sides, rounding up (decimate.hpp: decimated_size).
std::array<Size, kScales> ms_ssim_scales(unsigned width, unsigned height);

// The window's positions on a side of n samples: n - (kWindow - 1).
[[nodiscard]] constexpr int window_positions(int n) { return n - (kWindow - 1); }

}  // namespace vqx::ssim

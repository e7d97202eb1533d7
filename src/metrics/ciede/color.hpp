// CIELAB colours and the sample scales of Y'CbCr-to-Lab (color_steps.hpp
// converts: double arithmetic, except that each XYZ-to-Lab companding
// result and each Lab component is rounded to float, where libvmaf's
// helpers return float).
#pragma once

namespace vqx::ciede {

struct Lab {
  float l;
  float a;
  float b;
};

// The 8-bit colours: every (y, u, v) triple of 8-bit samples, the entries
// of the GPU twin's Lab table (gpu_kernels.cuh).
inline constexpr unsigned kValues8 = 256;  // values of an 8-bit sample
inline constexpr unsigned kLabTableEntries = kValues8 * kValues8 * kValues8;

// The sample offsets and scales of one bit depth.
struct YuvScale {
  double luma_offset;
  double chroma_offset;
  double luma_inv_range;
  double chroma_inv_range;
};

// For bpc in 8..16 (samples are scaled by 2^(bpc - 8)).
YuvScale yuv_scale(unsigned bpc);

}  // namespace vqx::ciede

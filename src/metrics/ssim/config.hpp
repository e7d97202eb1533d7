// float_ssim's and float_ms_ssim's parameters, as both twins take them
// (read from the options in ssim_family.cpp and ms_ssim_family.cpp).
#pragma once

namespace vqx::ssim {

struct SsimConfig {
  bool enable_lcs = false;
  bool enable_db = false;
  bool clip_db = false;
  int scale = 0;  // 0: automatic (params.hpp: scale_factor)
};

struct MsSsimConfig {
  bool enable_lcs = false;
  bool enable_db = false;
  bool clip_db = false;
};

}  // namespace vqx::ssim

// The numbers of the float extractors' shared steps (float_adm, float_vif,
// float_motion): written once, for the CPU kernels and the GPU twins.
#pragma once

namespace vqx::float_common {

// The offset libvmaf passes to picture_copy() (float_adm.c, float_vif.c,
// float_motion.c): samples are centred on zero.
inline constexpr float kSampleOffset = -128.0f;

// The lowest depth, whose samples are read as they are (8-bit units).
inline constexpr unsigned kUnitDepth = 8;

// Reach of the interpolation kernels, in source samples (libvmaf
// vif_tools.c: bicubic taps -1..2, Lanczos a = 4).
inline constexpr int kBicubicFirst = -1;
inline constexpr unsigned kBicubicTaps = 4;
inline constexpr int kLanczosA = 4;
inline constexpr unsigned kLanczosTaps = 2 * kLanczosA + 1;
// The bicubic kernel's free parameter (bicubic_kernel(): a = -0.75).
inline constexpr float kBicubicA = -0.75f;

}  // namespace vqx::float_common

// Bit casts, absolute values and quiet comparisons for the float kernels
// (float_adm, float_vif, float_motion) and the per-position arithmetic both
// of their twins call (the pointwise.hpp headers): compiler built-ins
// behind forced-inline constexpr helpers. Forced inline, so that every
// clone of a CPU kernel compiles its own copy (none goes through an
// ordinary library function template: GCC 12 has mishandled std::bit_cast
// in vectorised loops, ciede/blend.hpp); constexpr, so that nvcc and hipcc
// compile them for the device as they are (docs/gpu.md, "Every number
// once").
#pragma once

#include <cstdint>
#include <type_traits>

// Shared per-position arithmetic: plain constexpr C++, forced inline on the
// host (the CPU kernels' row loops must see it whole to vectorise).
#define VQX_POINTWISE [[gnu::always_inline]] constexpr

// Whether this pass compiles device code (nvcc's and hipcc's device passes).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define VQX_DEVICE_PASS 1
#else
#define VQX_DEVICE_PASS 0
#endif

namespace vqx::float_common {

VQX_POINTWISE std::uint32_t bits_of(float x) { return __builtin_bit_cast(std::uint32_t, x); }
VQX_POINTWISE float float_of(std::uint32_t u) { return __builtin_bit_cast(float, u); }
VQX_POINTWISE float abs_of(float x) { return __builtin_fabsf(x); }

// a < b and a > b without raising the invalid flag on NaN on the host (the
// same results as the plain comparisons, which the device and constant
// evaluation use: no flags are read anywhere).
VQX_POINTWISE bool quiet_less(float a, float b) {
#if VQX_DEVICE_PASS
  return a < b;
#else
  if (std::is_constant_evaluated()) return a < b;
  return __builtin_isless(a, b);
#endif
}
VQX_POINTWISE bool quiet_less(double a, double b) {
#if VQX_DEVICE_PASS
  return a < b;
#else
  if (std::is_constant_evaluated()) return a < b;
  return __builtin_isless(a, b);
#endif
}
VQX_POINTWISE bool quiet_greater(float a, float b) {
#if VQX_DEVICE_PASS
  return a > b;
#else
  if (std::is_constant_evaluated()) return a > b;
  return __builtin_isgreater(a, b);
#endif
}

}  // namespace vqx::float_common

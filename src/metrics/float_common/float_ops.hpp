// Bit casts, absolute values and quiet comparisons for the float kernels
// (float_adm, float_vif, float_motion), as compiler built-ins behind
// forced-inline helpers: every clone of a kernel compiles its own copy, and
// none goes through an ordinary library function template (GCC 12 has
// mishandled std::bit_cast in vectorised loops: ciede/blend.hpp).
#pragma once

#include <cstdint>

#include "core/kernel_build.hpp"

namespace vqx::float_common {

VQX_FORCE_INLINE std::uint32_t bits_of(float x) { return __builtin_bit_cast(std::uint32_t, x); }
VQX_FORCE_INLINE float float_of(std::uint32_t u) { return __builtin_bit_cast(float, u); }
VQX_FORCE_INLINE float abs_of(float x) { return __builtin_fabsf(x); }
// a < b and a > b without raising the invalid flag on NaN (same results).
VQX_FORCE_INLINE bool quiet_less(float a, float b) { return __builtin_isless(a, b); }
VQX_FORCE_INLINE bool quiet_less(double a, double b) { return __builtin_isless(a, b); }
VQX_FORCE_INLINE bool quiet_greater(float a, float b) { return __builtin_isgreater(a, b); }

}  // namespace vqx::float_common

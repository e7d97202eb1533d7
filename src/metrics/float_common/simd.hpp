// Compilation settings of the float kernels (float_adm, float_vif,
// float_motion): no fused multiply-add anywhere, and the shared kernel build
// settings (core/kernel_build.hpp).
//
// Include this only from .cpp files, after the other headers: it switches
// off floating-point contraction for the rest of the file.
#pragma once

// Bit-exactness: libvmaf's float extractors round every float and double
// product and sum on its own (the golden scores match these kernels with
// no fused operation anywhere), so no multiply-add may be fused here,
// where the x86-64-v3/v4 clones could.
//
// Floating-point exceptions are not observed (VQX never enables traps), so
// the compiler may compute an operation whose result a selection then
// drops: without that, loops whose libvmaf form has branches (written here
// as selections) do not vectorise. No value changes.
#if defined(__clang__)
#pragma clang fp contract(off)
#pragma clang fp exceptions(ignore)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-trapping-math")
#endif

#include "core/kernel_build.hpp"

#include <cstdint>

namespace vqx::float_common {

// Library functions declared before the pragma above carry other
// optimisation options, and GCC does not inline those into the kernels
// (std::bit_cast, std::isless, std::fabs become calls, and the loops stop
// vectorising). The kernels use these instead: compiler built-ins behind
// helpers defined after the pragma.
VQX_FORCE_INLINE std::uint32_t bits_of(float x) { return __builtin_bit_cast(std::uint32_t, x); }
VQX_FORCE_INLINE float float_of(std::uint32_t u) { return __builtin_bit_cast(float, u); }
VQX_FORCE_INLINE float abs_of(float x) { return __builtin_fabsf(x); }
// a < b and a > b without raising the invalid flag on NaN (same results).
VQX_FORCE_INLINE bool quiet_less(float a, float b) { return __builtin_isless(a, b); }
VQX_FORCE_INLINE bool quiet_less(double a, double b) { return __builtin_isless(a, b); }
VQX_FORCE_INLINE bool quiet_greater(float a, float b) { return __builtin_isgreater(a, b); }

}  // namespace vqx::float_common

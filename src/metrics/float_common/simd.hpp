// Compilation settings of the float kernels (float_adm, float_vif,
// float_motion): run-time dispatch to AVX2/AVX-512 builds of the hot loops,
// and no fused multiply-add anywhere.
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

// Where the toolchain can dispatch at run time (GCC, x86-64, ELF ifuncs),
// the kernels are also compiled for x86-64-v3 (AVX2) and x86-64-v4
// (AVX-512); the loader picks the best the CPU has. IEEE arithmetic gives
// the same bits on every path. Define VQX_FLOAT_NO_CLONES for the baseline
// path only.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(VQX_FLOAT_NO_CLONES)
#define VQX_FLOAT_CLONES \
  __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define VQX_FLOAT_CLONES
#endif

// Helpers are forced inline so that each clone compiles its own copy, and
// so are lambdas given to the block loops (VQX_FLOAT_INLINE_LAMBDA after the
// parameter list), which the vectoriser must see whole.
#if defined(__GNUC__)
#define VQX_FLOAT_INLINE [[gnu::always_inline]] inline
#define VQX_FLOAT_INLINE_LAMBDA __attribute__((always_inline))
#else
#define VQX_FLOAT_INLINE inline
#define VQX_FLOAT_INLINE_LAMBDA
#endif

#include <cstdint>

namespace vqx::float_common {

// Library functions declared before the pragma above carry other
// optimisation options, and GCC does not inline those into the kernels
// (std::bit_cast, std::isless, std::fabs become calls, and the loops stop
// vectorising). The kernels use these instead: compiler built-ins behind
// helpers defined after the pragma.
VQX_FLOAT_INLINE std::uint32_t bits_of(float x) { return __builtin_bit_cast(std::uint32_t, x); }
VQX_FLOAT_INLINE float float_of(std::uint32_t u) { return __builtin_bit_cast(float, u); }
VQX_FLOAT_INLINE float abs_of(float x) { return __builtin_fabsf(x); }
// a < b and a > b without raising the invalid flag on NaN (same results).
VQX_FLOAT_INLINE bool quiet_less(float a, float b) { return __builtin_isless(a, b); }
VQX_FLOAT_INLINE bool quiet_less(double a, double b) { return __builtin_isless(a, b); }
VQX_FLOAT_INLINE bool quiet_greater(float a, float b) { return __builtin_isgreater(a, b); }

}  // namespace vqx::float_common

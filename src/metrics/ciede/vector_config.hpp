// Compilation setup shared by the ciede sources that must match libvmaf bit
// for bit. Include only from .cpp files, before the other ciede headers: it
// switches off floating-point contraction for the rest of the file.
#pragma once

// libvmaf rounds every float/double product and sum on its own, so no
// multiply-add may be fused (GCC fuses across statements in C++ whenever the
// target has FMA, as the x86-64-v3/v4 clones and -march=native do).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// The batch loops are written for the vectoriser. Where the toolchain can
// dispatch at run time (GCC, x86-64, ELF ifuncs) they are also compiled for
// x86-64-v3 (AVX2) and x86-64-v4 (AVX-512); the loader picks the best the
// CPU has. IEEE arithmetic gives the same bits on every path. Define
// VQX_CIEDE_NO_CLONES to build the baseline path only.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(VQX_CIEDE_NO_CLONES)
#define VQX_CIEDE_CLONES \
  __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#define VQX_CIEDE_HAS_CLONES 1
#else
#define VQX_CIEDE_CLONES
#define VQX_CIEDE_HAS_CLONES 0
#endif

// Helpers are forced inline so that each clone compiles its own copy and
// the vectoriser sees whole loop bodies.
#if defined(__GNUC__)
#define VQX_CIEDE_INLINE [[gnu::always_inline]] inline
#define VQX_CIEDE_LAMBDA_INLINE __attribute__((always_inline))
#else
#define VQX_CIEDE_INLINE inline
#define VQX_CIEDE_LAMBDA_INLINE
#endif

namespace vqx::ciede {

// Whether the batches' approximate path runs vectorised here: on x86-64 the
// vectoriser needs AVX2 (plain SSE2 code keeps these loops scalar, and then
// libm's own functions are faster). Elsewhere it is assumed. Both paths give
// the same results; this only picks the faster.
inline bool approximate_path_pays() {
#if VQX_CIEDE_HAS_CLONES
  return __builtin_cpu_supports("avx2") != 0;
#elif defined(__x86_64__) || defined(__i386__)
#if defined(__AVX2__)
  return true;
#else
  return false;
#endif
#else
  return true;
#endif
}

}  // namespace vqx::ciede

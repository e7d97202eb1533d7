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

// The batch loops are written for the vectoriser (core/kernel_build.hpp).
#include "core/kernel_build.hpp"

namespace vqx::ciede {

// Whether the batches' approximate path runs vectorised here: on x86-64 the
// vectoriser needs AVX2 (plain SSE2 code keeps these loops scalar, and then
// libm's own functions are faster). Elsewhere it is assumed. Both paths give
// the same results; this only picks the faster.
inline bool approximate_path_pays() {
#if VQX_HAS_CLONES
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

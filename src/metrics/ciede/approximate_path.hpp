// Whether the ciede batches take their approximate path (approx_math.hpp,
// checked against libm's results) or call libm for every value.
#pragma once

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

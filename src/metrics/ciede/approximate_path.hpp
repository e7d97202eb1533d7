// Whether the ciede batches take their approximate path (approx_math.hpp,
// checked against libm's results) or call libm for every value.
#pragma once

#include "core/kernel_build.hpp"

namespace vqx::ciede {

// Whether the batches' approximate path runs vectorised here: on x86-64 the
// vectoriser needs AVX2 (plain SSE2 code keeps these loops scalar, and then
// libm's own functions are faster), so it is taken where the kernels that run
// are the AVX2 or AVX-512 ones. Elsewhere it is assumed. Both paths give the
// same results; this only picks the faster.
inline bool approximate_path_pays() {
#if defined(__x86_64__) || defined(__i386__)
  return kernels_use_avx2();
#else
  return true;
#endif
}

}  // namespace vqx::ciede

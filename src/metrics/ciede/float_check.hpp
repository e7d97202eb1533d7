// The test that lets an approximate double stand for libm's: when every
// double within a bound of ours rounds to the same float, and libm's value
// lies within that bound, libm's rounds to that float too.
#pragma once

#include <cmath>

#include "core/kernel_build.hpp"

namespace vqx::ciede {

// Relative error allowed for an approximate value: 2^-44, many times the
// error of approx_math.hpp (measured by the unit tests) plus libm's (at
// most a few units in the last place of a double, 2^-52).
inline constexpr double kRelativeBound = 0x1p-44;
// Added to every bound so that values near 0 are covered too (the floats
// libvmaf makes underflow to 0 far above this).
inline constexpr double kAbsoluteFloor = 0x1p-1060;

// Whether every double within `bound` of v rounds to the same float.
VQX_FORCE_INLINE bool same_float(double v, double bound) {
  return static_cast<float>(v - bound) == static_cast<float>(v + bound);
}

// same_float() with the relative bound.
VQX_FORCE_INLINE bool safe(double v) {
  return same_float(v, std::fabs(v) * kRelativeBound + kAbsoluteFloor);
}

}  // namespace vqx::ciede

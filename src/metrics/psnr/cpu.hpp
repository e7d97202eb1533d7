// Integer PSNR on the CPU: the sum of squared differences of two planes.
#pragma once

#include <cstdint>

#include "vqx/picture.hpp"

namespace vqx::psnr {

// Sum over every sample of (a - b)^2, exact. `a` and `b` are planes of one
// size of `bpc`-bit samples, every sample below 2^bpc (as VQX's readers
// guarantee). Allocates nothing.
std::uint64_t plane_sse(const Plane& a, const Plane& b, unsigned bpc);

}  // namespace vqx::psnr

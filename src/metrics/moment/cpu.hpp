// Float moments on the CPU: the sums of a luma's samples and of their
// squares, as libvmaf's float_moment computes them.
#pragma once

#include "vqx/picture.hpp"

namespace vqx::moment {

struct Sums {
  double sum;          // of the samples in 8-bit units
  double sum_squares;  // of their float squares
};

// Both sums over a `bpc`-bit plane, each sample first converted to float in
// 8-bit units (v / 2^(bpc-8)), accumulated in double in row order exactly as
// moment.c compute_1st_moment() and compute_2nd_moment() do. Every sample
// must be below 2^bpc (as VQX's readers guarantee). Allocates nothing.
Sums plane_sums(const Plane& plane, unsigned bpc);

}  // namespace vqx::moment

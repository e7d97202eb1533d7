// Float PSNR on the CPU: the sum of squared differences of two lumas as
// libvmaf's float_psnr computes it.
#pragma once

#include "vqx/picture.hpp"

namespace vqx::float_psnr {

// The sum over every sample of the float square of the difference of the
// two samples in 8-bit units (see params.hpp), accumulated in double in row
// order, exactly as psnr.c compute_psnr() does. `ref` and `dist` have the
// same size and are `bpc`-bit, every sample below 2^bpc (as VQX's readers
// guarantee). Allocates nothing.
double squared_difference_sum(const Plane& ref, const Plane& dist, unsigned bpc);

}  // namespace vqx::float_psnr

// The motion score of two blurred planes: their mean absolute difference as
// libvmaf computes it (libvmaf/src/feature/motion.c, vmaf_image_sad_c).
#pragma once

#include "metrics/float_common/image.hpp"

namespace vqx::float_motion {

// The mean of |a - b| over every sample: a float sum per row (left to
// right), the rows summed in float (top to bottom), divided in float by the
// sample count. a and b have the same size.
[[nodiscard]] float mean_abs_difference(const float_common::FloatImage& a,
                                        const float_common::FloatImage& b);

// The same mean from the rows' sums (each a float sum of |a - b| from the
// left, as the GPU twin's kernel forms it): the rows added in float from
// the top, divided in float by the sample count, as above.
[[nodiscard]] float mean_of_rows(const float* row_sums, unsigned width, unsigned height);

}  // namespace vqx::float_motion

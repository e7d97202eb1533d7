// Samples to floats as libvmaf's float extractors see them
// (libvmaf/src/feature/picture_copy.c, picture_copy()): the sample scaled
// to 8-bit units, minus 128.
#pragma once

#include "metrics/float_common/image.hpp"
#include "metrics/float_common/params.hpp"
#include "vqx/picture.hpp"

namespace vqx::float_common {

// out(x, y) = sample / 2^(bpc - 8) + kSampleOffset for the top-left
// out.width() x out.height() samples of `plane` (all of them, or a crop),
// which holds 8-bit samples when bpc == 8 and 16-bit ones for 9..16.
//
// libvmaf divides by 4, 16 and 256 for 10, 12 and 16 bits; at 9, 11 and
// 13..15 bits it reads the 16-bit samples as bytes (a bug), so VQX applies
// the same rule, 2^(bpc - 8), at every depth: pointwise.hpp's
// sample_value(), which the GPU twins call too.
void plane_to_float(const Plane& plane, unsigned bpc, FloatImage& out);
// The same for the first `width` samples of row y of `plane`, into out.
void plane_row_to_float(const Plane& plane, unsigned bpc, unsigned y, unsigned width, float* out);

}  // namespace vqx::float_common

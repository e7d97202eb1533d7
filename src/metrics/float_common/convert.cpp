#include "metrics/float_common/convert.hpp"

#include <cassert>
#include <cstdint>

#include "core/kernel_build.hpp"
#include "metrics/float_common/pointwise.hpp"

namespace vqx::float_common {

namespace {

VQX_CLONES
void convert_rows8(const Plane& plane, FloatImage& out) {
  for (unsigned y = 0; y < out.height(); ++y) {
    const std::uint8_t* __restrict src = plane.row<std::uint8_t>(y);
    float* __restrict dst = out.row(y);
    for (unsigned x = 0; x < out.width(); ++x) {
      dst[x] = sample_value(src[x], 1.0f);
    }
  }
}

VQX_CLONES
void convert_rows16(const Plane& plane, float scale, FloatImage& out) {
  for (unsigned y = 0; y < out.height(); ++y) {
    const std::uint16_t* __restrict src = plane.row<std::uint16_t>(y);
    float* __restrict dst = out.row(y);
    for (unsigned x = 0; x < out.width(); ++x) {
      dst[x] = sample_value(src[x], scale);
    }
  }
}

}  // namespace

void plane_to_float(const Plane& plane, unsigned bpc, FloatImage& out) {
  assert(plane.width() >= out.width() && plane.height() >= out.height());
  assert(bpc >= 8 && bpc <= 16);
  if (bpc == 8) {
    convert_rows8(plane, out);
  } else {
    convert_rows16(plane, sample_unit(bpc), out);
  }
}

}  // namespace vqx::float_common

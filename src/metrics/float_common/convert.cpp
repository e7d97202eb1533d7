#include "metrics/float_common/convert.hpp"

#include <cassert>
#include <cstdint>

#include "core/kernel_build.hpp"
#include "metrics/float_common/pointwise.hpp"

namespace vqx::float_common {

namespace {

VQX_CLONES
void convert_row8(const std::uint8_t* __restrict src, unsigned width, float* __restrict dst) {
  for (unsigned x = 0; x < width; ++x) dst[x] = sample_value(src[x], 1.0f);
}

VQX_CLONES
void convert_row16(const std::uint16_t* __restrict src, unsigned width, float scale,
                   float* __restrict dst) {
  for (unsigned x = 0; x < width; ++x) dst[x] = sample_value(src[x], scale);
}

}  // namespace

void plane_row_to_float(const Plane& plane, unsigned bpc, unsigned y, unsigned width, float* out) {
  assert(width <= plane.width() && y < plane.height());
  assert(bpc >= 8 && bpc <= 16);
  if (bpc == 8) {
    convert_row8(plane.row<std::uint8_t>(y), width, out);
  } else {
    convert_row16(plane.row<std::uint16_t>(y), width, sample_unit(bpc), out);
  }
}

void plane_to_float(const Plane& plane, unsigned bpc, FloatImage& out) {
  assert(plane.height() >= out.height());
  for (unsigned y = 0; y < out.height(); ++y) {
    plane_row_to_float(plane, bpc, y, out.width(), out.row(y));
  }
}

}  // namespace vqx::float_common

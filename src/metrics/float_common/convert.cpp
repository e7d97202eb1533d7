#include "metrics/float_common/convert.hpp"

#include <cassert>
#include <cstdint>

#include "core/kernel_build.hpp"

namespace vqx::float_common {

namespace {

VQX_CLONES
void convert_rows8(const Plane& plane, FloatImage& out) {
  for (unsigned y = 0; y < out.height(); ++y) {
    const std::uint8_t* __restrict src = plane.row<std::uint8_t>(y);
    float* __restrict dst = out.row(y);
    for (unsigned x = 0; x < out.width(); ++x) {
      dst[x] = static_cast<float>(src[x]) + kSampleOffset;
    }
  }
}

// Multiplying by 2^-(bpc-8) is exact and equals libvmaf's division.
VQX_CLONES
void convert_rows16(const Plane& plane, float scale, FloatImage& out) {
  for (unsigned y = 0; y < out.height(); ++y) {
    const std::uint16_t* __restrict src = plane.row<std::uint16_t>(y);
    float* __restrict dst = out.row(y);
    for (unsigned x = 0; x < out.width(); ++x) {
      dst[x] = static_cast<float>(src[x]) * scale + kSampleOffset;
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
    convert_rows16(plane, 1.0f / static_cast<float>(1U << (bpc - 8)), out);
  }
}

}  // namespace vqx::float_common

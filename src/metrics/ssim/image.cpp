#include "metrics/ssim/image.hpp"

#include <cstdint>
#include <cstring>

#include "core/kernel_build.hpp"
#include "metrics/ssim/params.hpp"

namespace vqx::ssim {

namespace {

template <typename Sample>
VQX_FORCE_INLINE void scale_row(const Sample* __restrict in, float* __restrict out, int width,
                                float unit) {
  for (int x = 0; x < width; ++x) out[x] = static_cast<float>(in[x]) * unit;
}

VQX_CLONES void convert_8bit(const std::uint8_t* in, float* out, int width) {
  scale_row(in, out, width, 1.0f);
}

VQX_CLONES void convert_16bit(const std::uint16_t* in, float* out, int width, float unit) {
  scale_row(in, out, width, unit);
}

}  // namespace

const float* RowSource::row(int y, float* scratch) const {
  if (image_ != nullptr) return image_->row(y);
  const auto py = static_cast<unsigned>(y);
  if (bpc_ == 8) {
    convert_8bit(plane_->row<std::uint8_t>(py), scratch, width_);
  } else {
    // 2^-(bpc - 8): multiplying by it is exactly libvmaf's division.
    convert_16bit(plane_->row<std::uint16_t>(py), scratch, width_, sample_unit(bpc_));
  }
  return scratch;
}

bool same_luma(const Picture& a, const Picture& b, unsigned width, unsigned height) {
  const Plane& pa = a.plane(0);
  const Plane& pb = b.plane(0);
  const std::size_t row_bytes = std::size_t{width} * pa.bytes_per_sample();
  for (unsigned y = 0; y < height; ++y) {
    if (std::memcmp(pa.row<std::uint8_t>(y), pb.row<std::uint8_t>(y), row_bytes) != 0) return false;
  }
  return true;
}

}  // namespace vqx::ssim

#include "metrics/speed/rows.hpp"

#include "core/kernel_build.hpp"
#include "metrics/speed/pointwise.hpp"

namespace vqx::speed {

namespace {

// (float)v / 2^(bpc-8) + offset (pointwise.hpp: sample_value, which the GPU
// twin calls too).
template <typename Sample>
[[gnu::always_inline]] inline void convert(const Sample* __restrict in, unsigned width,
                                           float inv_scale, float* __restrict out) {
  for (unsigned x = 0; x < width; ++x) {
    out[x] = sample_value(in[x], inv_scale);
  }
}

template <typename Sample>
[[gnu::always_inline]] inline void convert_difference(const Sample* __restrict a,
                                                      const Sample* __restrict b, unsigned width,
                                                      float inv_scale, float* __restrict out) {
  for (unsigned x = 0; x < width; ++x) {
    out[x] = sample_value(a[x], inv_scale) - sample_value(b[x], inv_scale);
  }
}

// The four instances, each compiled for every vector extension.
VQX_CLONES void convert_u8(const std::uint8_t* in, unsigned width, float inv_scale, float* out) {
  convert(in, width, inv_scale, out);
}
VQX_CLONES void convert_u16(const std::uint16_t* in, unsigned width, float inv_scale, float* out) {
  convert(in, width, inv_scale, out);
}
VQX_CLONES void difference_u8(const std::uint8_t* a, const std::uint8_t* b, unsigned width,
                              float inv_scale, float* out) {
  convert_difference(a, b, width, inv_scale, out);
}
VQX_CLONES void difference_u16(const std::uint16_t* a, const std::uint16_t* b, unsigned width,
                               float inv_scale, float* out) {
  convert_difference(a, b, width, inv_scale, out);
}

template <typename Sample>
const Sample* row_of(PlaneRef p, unsigned y) {
  return reinterpret_cast<const Sample*>(p.data + (y * p.stride));
}

}  // namespace

void PlaneRows::init(unsigned width, unsigned bpc) {
  width_ = width;
  wide_ = bpc > 8;
  inv_scale_ = sample_unit(bpc);
}

void PlaneRows::row(unsigned y, float* out) {
  if (minus_.data == nullptr) {
    if (wide_) {
      convert_u16(row_of<std::uint16_t>(plane_, y), width_, inv_scale_, out);
    } else {
      convert_u8(row_of<std::uint8_t>(plane_, y), width_, inv_scale_, out);
    }
    return;
  }
  if (wide_) {
    difference_u16(row_of<std::uint16_t>(plane_, y), row_of<std::uint16_t>(minus_, y), width_,
                   inv_scale_, out);
  } else {
    difference_u8(row_of<std::uint8_t>(plane_, y), row_of<std::uint8_t>(minus_, y), width_,
                  inv_scale_, out);
  }
}

}  // namespace vqx::speed

// A picture of float samples with padded rows: the working format of the
// float extractors (libvmaf converts every picture to float before
// computing float_adm, float_vif and float_motion).
#pragma once

#include <cstddef>

#include "core/zeroed_memory.hpp"

namespace vqx::float_common {

class FloatImage {
 public:
  // Sizes the image (contents unspecified: zero as it is). Allocates;
  // call from init().
  void resize(unsigned width, unsigned height);

  [[nodiscard]] unsigned width() const { return width_; }
  [[nodiscard]] unsigned height() const { return height_; }
  // Distance between rows, in floats: a multiple of 16 (64 bytes).
  [[nodiscard]] std::size_t stride() const { return stride_; }

  [[nodiscard]] float* row(unsigned y) { return data_.get() + y * stride_; }
  [[nodiscard]] const float* row(unsigned y) const { return data_.get() + y * stride_; }

 private:
  // Zeroed at each resize; large images without writing the zeros
  // (core/zeroed_memory.hpp: a 4K image is 33 MB, zeroed by every new
  // context of the float features).
  ZeroedArray<float> data_;
  unsigned width_ = 0;
  unsigned height_ = 0;
  std::size_t stride_ = 0;
};

}  // namespace vqx::float_common

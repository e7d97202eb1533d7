// The pictures the SSIM kernels read and write: float samples in 8-bit
// units. A FloatImage holds one (a subsampled scale); a RowSource reads one
// row at a time either from a FloatImage or from a luma plane, converting
// its samples as it goes, so that no full-size float copy of a picture is
// ever made.
#pragma once

#include <cstddef>
#include <vector>

#include "core/zeroed_memory.hpp"
#include "vqx/picture.hpp"

namespace vqx::ssim {

class FloatImage {
 public:
  FloatImage() = default;
  // Allocates a width x height image of zeros (may throw std::bad_alloc),
  // from allocate_zeroed(): a large one is mapped, its pages untouched
  // until written (docs/performance.md, "Start-up without small page
  // faults").
  FloatImage(int width, int height)
      : data_(make_zeroed_array<float>(static_cast<std::size_t>(width) *
                                       static_cast<std::size_t>(height))),
        width_(width),
        height_(height) {}

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  [[nodiscard]] float* row(int y) { return data_.get() + offset(y); }
  [[nodiscard]] const float* row(int y) const { return data_.get() + offset(y); }

 private:
  [[nodiscard]] std::size_t offset(int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width_);
  }
  ZeroedArray<float> data_;
  int width_ = 0;
  int height_ = 0;
};

// Read access to the rows of a FloatImage or of a luma plane.
//
// A plane's samples are scaled to 8-bit units: sample / 2^(bpc - 8), exact
// in float. libvmaf (feature/picture_copy.c) divides by 4, 16 and 256 for
// 10, 12 and 16 bits; for 9, 11, 13, 14 and 15 bits it reads the 16-bit
// samples as bytes, which is a bug, so VQX applies the same rule at every
// depth.
class RowSource {
 public:
  explicit RowSource(const FloatImage& image)
      : image_(&image), width_(image.width()), height_(image.height()) {}
  // The first width x height samples of `plane`: 8-bit samples when
  // bpc == 8, else 16-bit ones of depth bpc.
  RowSource(const Plane& plane, unsigned bpc, int width, int height)
      : plane_(&plane), bpc_(bpc), width_(width), height_(height) {}

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }

  // Row y as floats: the image's own row, or the plane's row converted into
  // `scratch` (width() floats).
  [[nodiscard]] const float* row(int y, float* scratch) const;

 private:
  const FloatImage* image_ = nullptr;
  const Plane* plane_ = nullptr;
  unsigned bpc_ = 8;
  int width_ = 0;
  int height_ = 0;
};

// Whether the first width x height luma samples of a and b are equal.
// Returns at the first row that differs, which for distorted pictures is
// almost always one of the first.
[[nodiscard]] bool same_luma(const Picture& a, const Picture& b, unsigned width, unsigned height);

}  // namespace vqx::ssim

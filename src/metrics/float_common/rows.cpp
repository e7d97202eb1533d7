#include "metrics/float_common/rows.hpp"

#include <cassert>
#include <limits>

#include "metrics/float_common/convert.hpp"

namespace vqx::float_common {

namespace {
constexpr unsigned kNoRow = std::numeric_limits<unsigned>::max();
}  // namespace

void FloatRows::reserve(unsigned width, unsigned window) {
  assert(window >= 1);
  window_ = window;
  ring_.resize(width, window);
  tags_.assign(window, kNoRow);
}

void FloatRows::read_plane(const Plane& plane, unsigned bpc, unsigned width, unsigned height) {
  assert(width <= ring_.width() && width <= plane.width() && height <= plane.height());
  image_ = nullptr;
  plane_ = &plane;
  bpc_ = bpc;
  width_ = width;
  height_ = height;
  tags_.assign(window_, kNoRow);
}

void FloatRows::read_image(const FloatImage& image) {
  image_ = &image;
  plane_ = nullptr;
  width_ = image.width();
  height_ = image.height();
}

void FloatRows::convert(unsigned y, unsigned slot) {
  assert(plane_ != nullptr && y < height_);
  plane_row_to_float(*plane_, bpc_, y, width_, ring_.row(slot));
  tags_[slot] = y;
}

}  // namespace vqx::float_common

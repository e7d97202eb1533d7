#include "metrics/float_common/image.hpp"

namespace vqx::float_common {

void FloatImage::resize(unsigned width, unsigned height) {
  width_ = width;
  height_ = height;
  stride_ = round_up(width == 0 ? 1 : width, 16);
  data_.assign(stride_ * (height == 0 ? 1 : height), 0.0f);
}

}  // namespace vqx::float_common

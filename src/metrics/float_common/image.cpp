#include "metrics/float_common/image.hpp"

#include "core/index_math.hpp"

namespace vqx::float_common {

void FloatImage::resize(unsigned width, unsigned height) {
  width_ = width;
  height_ = height;
  stride_ = round_up(std::size_t{width == 0 ? 1U : width}, 16);
  data_ = make_zeroed_array<float>(stride_ * (height == 0 ? 1 : height));
}

}  // namespace vqx::float_common

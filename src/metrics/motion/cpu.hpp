// Integer motion on the CPU: the blurred-difference SAD kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "metrics/motion/params.hpp"

namespace vqx::motion {

// Samples of one plane: `stride` counts samples, not bytes.
template <typename Sample>
struct PlaneView {
  const Sample* data;
  std::ptrdiff_t stride;
  [[nodiscard]] const Sample* row(unsigned y) const { return data + std::ptrdiff_t{y} * stride; }
};

// Scratch the kernel needs for a picture `width` samples wide.
[[nodiscard]] constexpr std::size_t scratch_size(unsigned width) {
  return std::size_t{width} + 2 * kRadius;  // one blurred row plus its mirror border each side
}

// Sum over every pixel of |blur(prev - cur)|, the blur being the separable
// 5-tap fixed-point filter of params.hpp with mirrored borders, in units of
// 2^-8 of an 8-bit sample. Requires width, height >= kMinDimension,
// bpc == 8 for the 8-bit overload and 9..16 for the 16-bit one, and
// scratch.size() >= scratch_size(width). Allocates nothing.
std::uint64_t blurred_difference_sad(PlaneView<std::uint8_t> prev, PlaneView<std::uint8_t> cur,
                                     unsigned width, unsigned height,
                                     std::span<std::int32_t> scratch);
std::uint64_t blurred_difference_sad(PlaneView<std::uint16_t> prev, PlaneView<std::uint16_t> cur,
                                     unsigned width, unsigned height, unsigned bpc,
                                     std::span<std::int32_t> scratch);

}  // namespace vqx::motion

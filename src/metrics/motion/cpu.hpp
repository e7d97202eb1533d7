// Integer motion on the CPU: the blurred-difference SAD kernel (cpu.cpp).
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

// The kernel's rows of int32 scratch: whole vectors of up to kMaxLanes
// lanes (64 covers every Highway target) plus the mirrored border.
inline constexpr unsigned kMaxLanes = 64;
[[nodiscard]] constexpr std::size_t scratch_row_length(unsigned width) {
  return (std::size_t{width} + kMaxLanes - 1) / kMaxLanes * kMaxLanes + 2 * kRadius;
}

// Scratch the kernel needs for a picture `width` samples wide: five rows of
// sample differences and one row of vertically filtered values.
[[nodiscard]] constexpr std::size_t scratch_size(unsigned width) {
  return 6 * scratch_row_length(width);
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

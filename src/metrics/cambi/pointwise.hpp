// The arithmetic of CAMBI at one sample, one pixel or one contrast value,
// written once for both twins: the CPU code (preprocess.cpp, spatial.cpp,
// runs.cpp, contrast.cpp, pooling.cpp) calls these in its loops and the GPU
// kernels (gpu_kernels.cuh, gpu_pool_kernels.cuh) per thread. Plain
// constexpr functions: host and device code alike (docs/gpu.md, "Every
// number once"). Everything here is integer arithmetic except the sample
// positions (libvmaf's float stepping) and the contrast value (one float
// conversion and one float product), which both twins evaluate with the
// same IEEE operations in the same order, nothing fused.
#pragma once

#include <bit>
#include <cstdint>

#include "metrics/cambi/params.hpp"

namespace vqx::cambi {

// The code of a pixel that is not flat or not in the band (contrast.hpp).
inline constexpr std::uint16_t kNoCode = 0xFFFF;

// ---------------------------------------------------------------------------
// Preprocessing (libvmaf cambi.c, cambi_preprocessing())

// 10-bit level of one sample of depth bpc: shifted up below 10 bits, rounded
// to nearest from deeper ones ((v + 2^(s-1)) >> s; 16-bit 65535 gives 1024).
struct TenBit {
  unsigned up = 0;
  unsigned down = 0;
  std::uint32_t round = 0;
  constexpr explicit TenBit(unsigned bpc)
      : up(bpc < kWorkBitDepth ? kWorkBitDepth - bpc : 0),
        down(bpc > kWorkBitDepth ? bpc - kWorkBitDepth : 0),
        round(down == 0 ? 0 : 1U << (down - 1)) {}
  [[nodiscard]] constexpr std::uint16_t operator()(std::uint32_t v) const {
    return static_cast<std::uint16_t>(((v << up) + round) >> down);
  }
};

// Which input sample each output sample takes when a side of in_size
// samples becomes out_size (libvmaf's decimate_generic_*): a float step
// in_size / out_size, a float start computed through double, float
// stepping (x_{j+1} = x_j + ratio, one float addition per step, so the
// positions are found in order), and the position rounded through double.
[[nodiscard]] constexpr float position_ratio(unsigned in_size, unsigned out_size) {
  return static_cast<float>(in_size) / static_cast<float>(out_size);
}
[[nodiscard]] constexpr float position_start(float ratio) {
  return static_cast<float>(static_cast<double>(ratio / 2) - 0.5);
}
// The sample at float position x; a position that float error would put
// past the input is clamped to its last sample (libvmaf would read past
// the row there).
[[nodiscard]] constexpr unsigned position_index(float x, unsigned in_size) {
  const auto p = static_cast<unsigned>(static_cast<int>(static_cast<double>(x) + 0.5));
  return p < in_size - 1 ? p : in_size - 1;
}

// The anti-dithering average (libvmaf anti_dithering_filter()): a pixel
// with its right, lower and lower-right neighbours, floored; pairs on the
// last row and column; the last pixel unchanged.
[[nodiscard]] constexpr std::uint16_t mean4(unsigned a, unsigned b, unsigned c, unsigned d) {
  return static_cast<std::uint16_t>((a + b + c + d) >> 2);
}
[[nodiscard]] constexpr std::uint16_t mean2(unsigned a, unsigned b) {
  return static_cast<std::uint16_t>((a + b) >> 1);
}

// ---------------------------------------------------------------------------
// Spatial operations (libvmaf get_spatial_mask(), filter_mode())

// 1 where a pixel equals its right and lower neighbours; a missing
// neighbour (last column, last row) counts as equal.
[[nodiscard]] constexpr std::uint8_t zero_derivative(std::uint16_t c, std::uint16_t right,
                                                     std::uint16_t below, bool has_right,
                                                     bool has_below) {
  const bool flat_right = !has_right || c == right;
  const bool flat_below = !has_below || c == below;
  return static_cast<std::uint8_t>(flat_right && flat_below);
}

// The mode of three samples: the repeated one, else the smallest. Symmetric
// in its arguments.
[[nodiscard]] constexpr std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  const std::uint16_t ab = a < b ? a : b;
  const std::uint16_t smallest = ab < c ? ab : c;
  const std::uint16_t rest = b == c ? b : smallest;
  return ((a == b) | (a == c)) ? a : rest;
}

// The code of a pixel: its level - band_base when it is flat and in the
// band, else kNoCode (contrast.hpp).
[[nodiscard]] constexpr std::uint16_t code_of(std::uint16_t level, std::uint8_t flat,
                                              std::uint16_t band_base, std::uint16_t band_size) {
  const auto code = static_cast<std::uint16_t>(level - band_base);
  return ((flat != 0) & (code < band_size)) ? code : kNoCode;
}

// ---------------------------------------------------------------------------
// Contrast values (libvmaf c_value_pixel())

// c_d = w_d * n(v) * m / (n(v) + m), as libvmaf computes it: the integer
// product rounded to float, times the table's float reciprocal of the sum.
// weight * own * other fits 32 bits (9 * 4225 * 4225).
[[nodiscard]] constexpr float contrast_term(int weight, int own, int other, float reciprocal) {
  return static_cast<float>(weight * own * other) * reciprocal;
}

// ---------------------------------------------------------------------------
// Pooling (libvmaf spatial_pooling(); pooling.hpp)

// Every contrast value is 0 or a float of at least 0.5, so a multiple of
// 2^-kValueUnitBits, and below 2^14: value * 2^24 is an integer below 2^38,
// exact in float and in uint64. Sums of such integers are exact in any
// order; the twins sum contrast values as these integers.
[[nodiscard]] constexpr std::uint64_t value_units(float v) {
  return static_cast<std::uint64_t>(v * kValueUnitScale);
}
// A sum of units as a double: exact below 2^53 units.
[[nodiscard]] constexpr double units_value(std::uint64_t units) {
  return static_cast<double>(units) / static_cast<double>(kValueUnitScale);
}

// The bucket of a contrast value: the top 16 bits of its float
// representation (sign, exponent, 7 bits of mantissa), which orders
// non-negative floats, from kBucketOrigin on; bucket 0 holds the zeros.
[[nodiscard]] constexpr std::uint32_t bucket_of(float v) {
  const auto top = static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(v) >> kLowBits);
  const std::int32_t b = top - static_cast<std::int32_t>(kBucketOrigin);
  const auto last = static_cast<std::int32_t>(kBucketCount) - 1;
  return static_cast<std::uint32_t>(b < 0 ? 0 : (b > last ? last : b));
}
// The low 16 bits of a contrast value's representation, and the value of
// bucket b's entry `low`.
[[nodiscard]] constexpr std::uint32_t low_bits_of(float v) {
  return std::bit_cast<std::uint32_t>(v) & (kLowCounts - 1);
}
[[nodiscard]] constexpr float bucket_value(std::uint32_t bucket, std::uint32_t low) {
  return std::bit_cast<float>(((bucket + kBucketOrigin) << kLowBits) | low);
}

// How a scale's k largest contrast values are summed: in libvmaf's order
// when their exact sum reaches 2^29 (2^53 units: beyond it, double sums
// round and the order matters); all of them when at most k are non-zero;
// else the k largest, in any order (exact).
enum class PoolPath : std::uint32_t { kOrdered, kAll, kLargest };
[[nodiscard]] constexpr PoolPath pool_path(std::uint64_t units, std::uint64_t nonzero,
                                           std::uint64_t k) {
  if (units >= kExactUnitsLimit) return PoolPath::kOrdered;
  if (nonzero <= k) return PoolPath::kAll;
  return PoolPath::kLargest;
}

}  // namespace vqx::cambi

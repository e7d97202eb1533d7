// The sums of integer VIF's log2 table entries over a row's indices
// (simd.hpp): plain code, compiled once for the baseline, called by every
// Highway target of row_stats. Four 16-bit indices (two pairs) are read as
// one 64-bit word; two sums run side by side.
#include <cstring>

#include "metrics/vif/simd.hpp"

namespace vqx::vif::simd {

namespace {

std::uint64_t load64(const void* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// An index is kLog2TableBits (16) bits: four to a 64-bit word.
constexpr int kIndex = kLog2TableBits;
constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << kIndex) - 1;

}  // namespace

std::int32_t den_table_sum(const std::uint16_t* lut, const std::uint16_t* index, std::size_t n) {
  std::int32_t a = 0;
  std::int32_t b = 0;
  for (std::size_t i = 0; i < n; i += 4) {
    const std::uint64_t v = load64(index + i);
    a += lut[v & kIndexMask] + lut[(v >> (2 * kIndex)) & kIndexMask];
    b += lut[(v >> kIndex) & kIndexMask] + lut[v >> (3 * kIndex)];
  }
  return a + b;
}

std::int32_t num_table_sum(const std::uint16_t* lut, const std::uint32_t* pairs, std::size_t n) {
  std::int32_t a = 0;
  std::int32_t b = 0;
  for (std::size_t i = 0; i < n; i += 2) {
    const std::uint64_t v = load64(pairs + i);
    a += lut[v & kIndexMask] - lut[(v >> kIndex) & kIndexMask];
    b += lut[(v >> (2 * kIndex)) & kIndexMask] - lut[v >> (3 * kIndex)];
  }
  return a + b;
}

}  // namespace vqx::vif::simd

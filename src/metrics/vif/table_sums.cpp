// The sums of integer VIF's log2 table entries over a row's indices
// (simd.hpp): plain code, compiled once for the baseline, called by every
// Highway target of row_stats. Two sums run side by side.
#include "metrics/vif/simd.hpp"

namespace vqx::vif::simd {

std::int32_t den_table_sum(const std::uint16_t* lut, const std::uint32_t* index, std::size_t n) {
  std::int32_t a = 0;
  std::int32_t b = 0;
  for (std::size_t i = 0; i < n; i += 2) {
    a += lut[index[i]];
    b += lut[index[i + 1]];
  }
  return a + b;
}

std::int32_t num_table_sum(const std::uint16_t* lut, const std::uint32_t* signal,
                           const std::uint32_t* noise, std::size_t n) {
  std::int32_t a = 0;
  std::int32_t b = 0;
  for (std::size_t i = 0; i < n; i += 2) {
    a += lut[signal[i]] - lut[noise[i]];
    b += lut[signal[i + 1]] - lut[noise[i + 1]];
  }
  return a + b;
}

}  // namespace vqx::vif::simd

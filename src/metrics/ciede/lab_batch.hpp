// Pixels waiting for their Lab colour, stored column-wise so that the
// conversions can run many at once.
#pragma once

#include <cstdint>

#include "metrics/ciede/color.hpp"

namespace vqx::ciede {

struct LabBatch {
  // Two colours for each pair of a full PairBatch.
  static constexpr int kCapacity = 512;

  alignas(64) std::uint64_t key[kCapacity]{};  // packed (y, u, v), see caches.hpp
  alignas(64) float l[kCapacity]{};
  alignas(64) float a[kCapacity]{};
  alignas(64) float b[kCapacity]{};
  int count = 0;

  int add(std::uint64_t packed) {
    key[count] = packed;
    return count++;
  }
  [[nodiscard]] Lab lab(int i) const { return {l[i], a[i], b[i]}; }
};

// Sets the Lab colour of every key, bit for bit as color_steps.hpp's
// lab_of() computes it.
void compute_labs(LabBatch& batch, const YuvScale& scale);

}  // namespace vqx::ciede

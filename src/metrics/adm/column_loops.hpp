// The loop shapes of the ADM row kernels: columns in fixed blocks, which
// the compiler vectorises at -O2 as well as -O3.
#pragma once

#include <cstdint>

#include "core/kernel_build.hpp"

namespace vqx::adm {

// Columns per block: a constant trip count the vectoriser accepts without
// a cost model. The best block holds one 512-bit vector of the narrowest
// type a loop touches: 64 for 8-bit samples, 32 for int16_t, 16 for int32_t.
// Shorter runs fall back to blocks of 16, then to single columns.
inline constexpr int kLanes = 16;

// Calls body(j) for j in [begin, end): whole blocks of Block columns, then
// of 16, then the remaining columns one by one. The body must not carry
// state from one j to the next, and what it writes must not overlap what it
// reads at another j: the block loops are declared free of dependencies
// (ivdep), which spares the vectoriser run-time alias checks.
template <int Block = kLanes, typename Body>
VQX_FORCE_INLINE void for_columns(int begin, int end, Body&& body) {
  int j = begin;
  if constexpr (Block > kLanes) {
    for (; j + Block <= end; j += Block) {
      VQX_IVDEP
      for (int l = 0; l < Block; ++l) body(j + l);
    }
  }
  for (; j + kLanes <= end; j += kLanes) {
    VQX_IVDEP
    for (int l = 0; l < kLanes; ++l) body(j + l);
  }
  for (; j < end; ++j) body(j);
}

// Returns the sum of body(j) for j in [begin, end), in the same blocks.
// Integer sums only: the order of the additions then does not matter.
template <typename Sum, int Block = kLanes, typename Body>
VQX_FORCE_INLINE Sum sum_columns(int begin, int end, Body&& body) {
  Sum sum = 0;
  int j = begin;
  if constexpr (Block > kLanes) {
    for (; j + Block <= end; j += Block) {
      VQX_IVDEP
      for (int l = 0; l < Block; ++l) sum += body(j + l);
    }
  }
  for (; j + kLanes <= end; j += kLanes) {
    VQX_IVDEP
    for (int l = 0; l < kLanes; ++l) sum += body(j + l);
  }
  for (; j < end; ++j) sum += body(j);
  return sum;
}

}  // namespace vqx::adm

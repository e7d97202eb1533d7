// libvmaf's selection of the k largest contrast values (cambi.c,
// quick_select()) and the sum of them in the order it leaves them: the
// pooling of a scale whose values sum to 2^29 or more, where the order of
// the double additions decides the bits (pooling.hpp). Plain C++ that
// both twins run: the CPU on its values, the GPU in one device thread on
// its values (gpu_pool_kernels.cuh), rarely, as it is sequential.
#pragma once

#include <cstddef>

namespace vqx::cambi {

// Rearranges v[0 .. n) so that its first k hold the k largest, by Hoare
// partitioning around the value at index k, exactly as libvmaf does (the
// order of the result matters).
constexpr void select_largest_in(float* v, std::ptrdiff_t n, std::ptrdiff_t k) {
  if (n == k) return;
  // Indices are signed: the right cursor may step below 0.
  std::ptrdiff_t lo = 0;
  std::ptrdiff_t hi = n - 1;
  while (lo < hi) {
    const float pivot = v[k];
    std::ptrdiff_t i = lo;
    std::ptrdiff_t j = hi;
    // Larger values go left, smaller right, values equal to the pivot may
    // land on either side.
    do {
      while (v[i] > pivot) ++i;
      while (v[j] < pivot) --j;
      if (i <= j) {
        const float t = v[i];
        v[i] = v[j];
        v[j] = t;
        ++i;
        --j;
      }
    } while (i <= j);
    // Keep the part that holds index k.
    if (j < k) lo = i;
    if (k < i) hi = j;
  }
}

// select_largest_in(), then the first k added in double from 0 in order.
constexpr double ordered_largest_sum_in(float* v, std::ptrdiff_t n, std::ptrdiff_t k) {
  select_largest_in(v, n, k);
  double sum = 0;
  for (std::ptrdiff_t i = 0; i < k; ++i) sum += v[i];
  return sum;
}

}  // namespace vqx::cambi

// Index arithmetic that the CPU kernels and the GPU twins share, written
// once: rounding up to a multiple, division rounding up, and the border
// rules by which filters read past the ends of a row or a column.
//
// Everything here is constexpr, and so callable from device code as well
// (nvcc compiles the GPU sources with --expt-relaxed-constexpr; clang's HIP
// treats constexpr functions as host and device), with the same integer
// arithmetic on both sides.
#pragma once

#include <type_traits>

namespace vqx {

// n rounded up to a multiple of m, in n's type: (n + m - 1) / m * m.
// m > 0, and n + m - 1 must not overflow.
template <typename T>
[[nodiscard]] constexpr T round_up(T n, std::type_identity_t<T> m) {
  return (n + m - 1) / m * m;
}

// n / m rounded up, in n's type: (n + m - 1) / m, for n >= 0 and m > 0
// (the number of blocks of m that cover n, e.g. a launch grid).
template <typename T>
[[nodiscard]] constexpr T ceil_div(T n, std::type_identity_t<T> m) {
  return (n + m - 1) / m;
}

// --- Border rules ----------------------------------------------------------
// Index i of a side of n samples, brought back into [0, n) by one
// reflection. Each rule is valid within one reflection of the side, as
// stated; beyond it the result is not an index of the side.

// Reflection about the edge samples, which are not repeated:
// ..., 2, 1, [0, 1, ..., n - 1], n - 2, n - 3, ... (-1 -> 1, n -> n - 2).
// libvmaf's rule in its integer VIF and motion, its float filters and
// SpEED. Valid for -n < i < 2n - 1.
[[nodiscard]] constexpr int reflect101(int i, int n) {
  if (i < 0) return -i;
  if (i >= n) return 2 * n - 2 - i;
  return i;
}

// Reflection with the edge samples repeated (symmetric):
// ..., 1, 0, [0, 1, ..., n - 1], n - 1, n - 2, ... (-1 -> 0, n -> n - 1).
// Valid for -n <= i < 2n.
[[nodiscard]] constexpr int reflect_repeat(int i, int n) {
  if (i < 0) return -1 - i;
  if (i >= n) return 2 * n - 1 - i;
  return i;
}

// The first rule before the start, the second past the end:
// ..., 2, 1, [0, 1, ..., n - 1], n - 1, n - 2, ... (-1 -> 1, n -> n - 1,
// n + 1 -> n - 2). libvmaf's rule in its ADMs' wavelet transforms and
// masking filters, and in ANSNR. Valid for -n < i < 2n.
[[nodiscard]] constexpr int reflect101_repeat_end(int i, int n) {
  if (i < 0) return -i;
  if (i >= n) return 2 * n - 1 - i;
  return i;
}

// Fills row[-margin, 0) and row[n, n + margin) from row[0, n) by
// reflect101; margin < n.
template <typename T>
constexpr void pad_reflect101(T* row, int n, int margin) {
  for (int f = 1; f <= margin; ++f) {
    row[-f] = row[f];
    row[n - 1 + f] = row[n - 1 - f];
  }
}

// Fills row[-before, 0) and row[n, n + after) from row[0, n) by
// reflect101_repeat_end; before < n, after <= n.
template <typename T>
constexpr void pad_reflect101_repeat_end(T* row, int n, int before, int after) {
  for (int f = 1; f <= before; ++f) row[-f] = row[f];
  for (int f = 0; f < after; ++f) row[n + f] = row[n - 1 - f];
}

}  // namespace vqx

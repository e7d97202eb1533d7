// The recursive Gaussian's arithmetic (blur.hpp says what the filter is),
// written once for both twins: the CPU's blur (blur.cpp, 8 rows at a time
// in the lanes of a vector) and the GPU's kernels (gpu_kernels.cuh, a row or
// a column per thread) call these with V = their lane type. Plain constexpr
// templates, compiled for the device as they are; the operations and their
// order are libjxl's AVX2 build's (fused where it fuses), so both twins get
// its rounding, and each other's bits.
#pragma once

#include <array>

#include "core/index_math.hpp"
#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/pointwise.hpp"

namespace vqx::ssimulacra2 {

// Outputs per block of the horizontal pass (libjxl's kBlockOutputs: its
// 4-outputs-at-a-time form of the recursion).
inline constexpr int kBlockOutputs = 4;

// The recursive Gaussian's three filters (k = 1, 3, 5), whose outputs are
// added.
inline constexpr int kFilters = 3;

struct BlurCoefficients {
  // Per filter (k = 1, 3, 5): the weight of the input sum, and d1 (the
  // previous output's weight is -d1, the one before's -1). Vertical pass.
  std::array<float, kFilters> n2;
  std::array<float, kFilters> d1;
  // Horizontal pass, output j (0..3) of a block from the four input sums of
  // the block and the last two outputs before it: input i's weight is
  // in[k][j - i] (0 for i > j), prev1's prev1[k][j], prev2's prev2[k][j].
  // Entry 0 of each is the plain one-step recursion.
  std::array<std::array<float, kBlockOutputs>, kFilters> in;
  std::array<std::array<float, kBlockOutputs>, kFilters> prev1;
  std::array<std::array<float, kBlockOutputs>, kFilters> prev2;
  int radius;
};

// The coefficients for `sigma` (blur.cpp, on the host; both twins use them).
BlurCoefficients blur_coefficients(double sigma);

// The five quantities SSIMULACRA2 blurs for one channel: a^2, b^2, a b, a, b
// (a from the reference, b from the distorted picture).
inline constexpr unsigned kQuantities = 5;
enum Quantity : unsigned { kAA = 0, kBB = 1, kAB = 2, kA = 3, kB = 4 };

// Quantity Q of a pixel (products rounded to float, as libjxl stores them
// in an image before blurring).
template <unsigned Q, typename V>
VQX_S2_INLINE constexpr V quantity(V a, V b) {
  if constexpr (Q == kAA) {
    return a * a;
  } else if constexpr (Q == kBB) {
    return b * b;
  } else if constexpr (Q == kAB) {
    return a * b;
  } else if constexpr (Q == kA) {
    return a;
  } else {
    return b;
  }
}

// ---------------------------------------------------------------------------
// The horizontal pass of a row `width` wide. Output n (from n = -N + 1, the
// warm-up, whose outputs are dropped) reads the input sum
//   s(n) = q(n - N - 1) + q(n + N - 1)   (zero outside the row)
// and is made, as libjxl splits the row: single steps up to the first
// multiple of kBlockOutputs past N; blocks of kBlockOutputs outputs while a
// block's inputs lie inside the row; single steps for the rest.
inline constexpr int kFirstBlock = round_up(kBlurRadius + 1, kBlockOutputs);

// Where the blocks of a row `width` wide start (kFirstBlock, then every
// kBlockOutputs) and end: blocks start at every such n below the result.
constexpr int blocks_end(int width) {
  int n = kFirstBlock < width ? kFirstBlock : width;
  while (n < width - kBlurRadius + 1 - (kBlockOutputs - 1)) n += kBlockOutputs;
  return n;
}

// Whether output n starts a block.
constexpr bool starts_block(int n, int end) {
  return n >= kFirstBlock && n < end && (n - kFirstBlock) % kBlockOutputs == 0;
}

template <typename V>
struct LineState {
  V p1[kFilters] = {};  // each filter's output at n - 1
  V p2[kFilters] = {};  // and at n - 2
};

// Filter f's output by the plain recursion from its input sum s, (n2 s -
// p2) + (-d1) p1, the last step fused, as libjxl; p1 and p2 (its outputs
// at n - 1 and n - 2) moved on.
template <typename V>
VQX_S2_INLINE constexpr V filter_single_step(V s, const BlurCoefficients& k, int f, V& p1, V& p2) {
  const V t = (s * k.in[f][0]) - p2;
  const V y = fused(splat<V>(k.prev1[f][0]), p1, t);
  p2 = p1;
  p1 = y;
  return y;
}

// One output by the plain recursion: the three filters' outputs added as
// y0 + (y1 + y2).
template <typename V>
VQX_S2_INLINE constexpr V single_step(V s, const BlurCoefficients& k, LineState<V>& st) {
  V y[kFilters];
  for (int f = 0; f < kFilters; ++f) y[f] = filter_single_step(s, k, f, st.p1[f], st.p2[f]);
  return y[0] + (y[1] + y[2]);
}

// Output J of a block for filter F from the block's input sums s and the
// filter's outputs before the block, in libjxl's order of fused operations
// (its lanes shift the input weights: input i's is in[J - i], 0 when i > J).
template <int F, int J, typename V>
VQX_S2_INLINE constexpr V block_output(const V* s, const BlurCoefficients& k, V p1, V p2) {
  V o = s[0] * k.in[F][J];
  if constexpr (J >= 1) o = fused(splat<V>(k.in[F][J - 1]), s[1], o);
  if constexpr (J >= 2) o = fused(splat<V>(k.in[F][J - 2]), s[2], o);
  if constexpr (J >= 3) o = fused(splat<V>(k.in[F][J - 3]), s[3], o);
  o = fused(splat<V>(k.prev2[F][J]), p2, o);
  return fused(splat<V>(k.prev1[F][J]), p1, o);
}

// Filter F's outputs n .. n + 3 from the block's four input sums s, and
// p1, p2 (its outputs at n - 1 and n - 2) moved on to n + 3 and n + 2.
template <int F, typename V>
VQX_S2_INLINE constexpr void filter_block_step(const V* s, const BlurCoefficients& k, V& p1, V& p2,
                                               V* out) {
  out[0] = block_output<F, 0>(s, k, p1, p2);
  out[1] = block_output<F, 1>(s, k, p1, p2);
  out[2] = block_output<F, 2>(s, k, p1, p2);
  out[3] = block_output<F, 3>(s, k, p1, p2);
  p2 = out[2];
  p1 = out[3];
}

// Outputs n .. n + 3 from their four input sums s and the two outputs
// before n: the three filters' outputs added as y0 + (y1 + y2).
template <typename V>
VQX_S2_INLINE constexpr void block_step(const V* s, const BlurCoefficients& k, LineState<V>& st,
                                        V* out) {
  V y[kFilters][kBlockOutputs];
  filter_block_step<0>(s, k, st.p1[0], st.p2[0], y[0]);
  filter_block_step<1>(s, k, st.p1[1], st.p2[1], y[1]);
  filter_block_step<2>(s, k, st.p1[2], st.p2[2], y[2]);
  for (int j = 0; j < kBlockOutputs; ++j) out[j] = y[0][j] + (y[1][j] + y[2][j]);
}

// ---------------------------------------------------------------------------
// The vertical pass, one filter at one column: from the input sum s (rows
// n - N - 1 and n + N - 1, top + bottom) and the filter's outputs p1, p2 at
// rows n - 1, n - 2: n2 s + (-d1 p1 - p2), each part fused (libjxl: MulAdd
// of NegMulSub). The three filters' outputs are added as y0 + (y1 + y2).
constexpr float vertical_filter(float s, float n2, float d1, float p1, float p2) {
  return fused(n2, s, fused(-d1, p1, -p2));
}

}  // namespace vqx::ssimulacra2

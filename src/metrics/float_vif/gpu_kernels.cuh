// The float VIF twin's statistics kernel: free of the runtime, so that a
// device-free test runs it on the CPU, one thread per GPU thread
// (tests/unit/float_kernels_test.cpp), against the CPU twin. The twin's
// other steps are float_common/gpu_kernels.cuh's (the prescale's
// resample_kernel, the decimation's filter_kernel<2>).
//
// stats_kernel: one block per kStatRows rows of a scale; it walks the rows
// from the left, kStatCols columns at a time:
//  1. the vertical pass of the scale's Gaussian over ref, dist, ref^2,
//     dist^2 and ref * dist at the columns the step's outputs reach (the
//     columns mirrored, reflect101), each a float sum from 0 in tap order:
//     the CPU's weighted_rows_moments() (float_common/convolve*.cpp) at
//     those columns; a thread per column, for all the block's rows (each
//     source row read once, all of them loaded before any is used);
//  2. the horizontal pass of the five, the same way (filter_row()), then
//     pixel_terms() (pointwise.hpp) at each output;
//  3. thread r adds row r's terms to its two chains (numerator and
//     denominator), from the left: statistic.cpp's row sums.
// Each row's two sums go to row_num and row_den; the host adds the rows in
// order (add_rows), as the CPU adds them. No atomics.
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/device_quad.cuh"
#include "core/device_unroll.hpp"
#include "core/index_math.hpp"
#include "metrics/float_common/gpu_kernels.cuh"
#include "metrics/float_common/pointwise.hpp"
#include "metrics/float_vif/cpu.hpp"
#include "metrics/float_vif/pointwise.hpp"

namespace vqx::float_vif {

// Two rows of 128 columns a block: 1080 blocks at 4K fill the H200 better
// than 540 of 4 x 64, and the vertical pass's reach costs 16 columns in
// 128, not in 64 (float_vif alone at 4K 947-960 fps against 802-804,
// docs/gpu.md). The shape changes no operation or order.
inline constexpr int kStatRows = 2;
inline constexpr int kStatCols = 128;
inline constexpr unsigned kStatThreads = kStatRows * kStatCols;
// The vertical pass's columns a step keeps: its outputs and the widest
// filter's reach.
inline constexpr int kStatSpan = kStatCols + static_cast<int>(float_common::kMaxTaps) - 1;

// The rows' chains read their terms four at a time from rows padded to
// whole 16-byte words (four words past the step: the two rows' reads
// of one column fall in different banks).
inline constexpr int kStatPaddedCols = kStatCols + kQuadFloats;
static_assert(kStatCols % kQuadFloats == 0);

// The five filtered quantities, in the CPU's order (cpu.cpp's Moment).
enum StatMoment { kStatMu1, kStatMu2, kStatXx, kStatYy, kStatXy, kStatMoments };

// kCount: the tap count when known at compile time
// (float_common::kUnrolledTapCounts), else 0.
template <typename Source, int kCount>
static __global__ void __launch_bounds__(kStatThreads)
    stats_kernel(Source ref, Source dist, int width, int height, float_common::FilterTaps taps,
                 StatParams params, float* row_num, float* row_den) {
  __shared__ float s_vert[kStatMoments][kStatRows][kStatSpan];
  // Rows of whole 16-byte words (the chains read four columns at a time).
  alignas(16) __shared__ float s_num[kStatRows][kStatPaddedCols];
  alignas(16) __shared__ float s_den[kStatRows][kStatPaddedCols];
  const int t = static_cast<int>(threadIdx.x);
  const int y0 = static_cast<int>(blockIdx.x) * kStatRows;
  const int count = kCount > 0 ? kCount : taps.count;
  const int r = count / 2;
  float num = 0.0f;  // thread t < kStatRows: row y0 + t's chains
  float den = 0.0f;
  for (int x0 = 0; x0 < width; x0 += kStatCols) {
    const int n = width - x0 < kStatCols ? width - x0 : kStatCols;
    const int cols = n + 2 * r;  // columns x0 - r .. x0 + n - 1 + r
    // Thread c < cols takes column c for the block's rows at once: a
    // source row is loaded (and its products formed) once for every output
    // row whose taps reach it, row ry's tap k being source row
    // y0 + ry - r + k. Each output's five sums still take their taps in
    // order from 0 (the same operations as one output at a time).
    static_assert(kStatThreads >= static_cast<unsigned>(kStatSpan));
    if (t < cols) {
      const int x = reflect101(x0 - r + t, width);
      const int rows = height - y0 < kStatRows ? height - y0 : kStatRows;
      const int reads = count + rows - 1;
      float m[kStatRows][kStatMoments] = {};
      // Source row j's products into the outputs whose taps reach it, for
      // the block's first `rows_here` rows (an int, or kStatRows as a
      // compile-time constant, which leaves no test to run).
      const auto add_row = [&](int j, float a, float b, auto rows_here) {
        const float aa = a * a;
        const float bb = b * b;
        const float ab = a * b;
        for (int ry = 0; ry < kStatRows; ++ry) {
          const int k = j - ry;  // this source row's tap for output row ry
          if (ry >= rows_here || k < 0 || k >= count) continue;
          const float f = taps.tap[k];
          m[ry][kStatMu1] += f * a;
          m[ry][kStatMu2] += f * b;
          m[ry][kStatXx] += f * aa;
          m[ry][kStatYy] += f * bb;
          m[ry][kStatXy] += f * ab;
        }
      };
      const auto source_row = [&](int j) { return reflect101(y0 - r + j, height); };
      if constexpr (kCount > 0) {
        // Every source row of the column loaded before any is used: the
        // loads overlap (one wait for memory a step, not one a row).
        constexpr int kReads = kCount + kStatRows - 1;
        float a[kReads];
        float b[kReads];
        if (rows == kStatRows && y0 - r >= 0 && y0 + kStatRows - 1 + r < height) {
          // Every source row inside the picture (all blocks but a few at
          // the top and bottom): rows y0 - r + j, nothing mirrored, no
          // test a row. The same sums in the same order; 14 % fewer
          // instructions for the kernel (docs/gpu.md, "Instructions a
          // frame").
          const auto ref_column = ref.column(x, y0 - r);
          const auto dist_column = dist.column(x, y0 - r);
          VQX_UNROLL
          for (int j = 0; j < kReads; ++j) {
            a[j] = ref_column.below(j);
            b[j] = dist_column.below(j);
          }
          VQX_UNROLL
          for (int j = 0; j < kReads; ++j) {
            add_row(j, a[j], b[j], std::integral_constant<int, kStatRows>{});
          }
        } else {
          VQX_UNROLL
          for (int j = 0; j < kReads; ++j) {
            const int yy = source_row(j < reads ? j : 0);
            a[j] = ref.at(x, yy);
            b[j] = dist.at(x, yy);
          }
          VQX_UNROLL
          for (int j = 0; j < kReads; ++j) {
            if (j < reads) add_row(j, a[j], b[j], rows);
          }
        }
      } else {
        for (int j = 0; j < reads; ++j) {
          const int yy = source_row(j);
          add_row(j, ref.at(x, yy), dist.at(x, yy), rows);
        }
      }
      for (int ry = 0; ry < rows; ++ry) {
        for (int q = 0; q < kStatMoments; ++q) s_vert[q][ry][t] = m[ry][q];
      }
    }
    __syncthreads();
    {
      const int ry = t / kStatCols;
      const int tx = t % kStatCols;
      if (y0 + ry < height && tx < n) {
        float h[kStatMoments];
        for (int q = 0; q < kStatMoments; ++q) {
          h[q] =
              float_common::tap_sum(taps.tap, count, [&](int k) { return s_vert[q][ry][tx + k]; });
        }
        const Terms terms =
            pixel_terms(h[kStatMu1], h[kStatMu2], h[kStatXx], h[kStatYy], h[kStatXy], params);
        s_num[ry][tx] = terms.num;
        s_den[ry][tx] = terms.den;
      }
    }
    __syncthreads();
    if (t < kStatRows && y0 + t < height) {
      // Four columns a read where the step is whole: two threads of one
      // warp run these chains, so each of their instructions costs a
      // whole warp's issue (about 320 a step instead of 512). The same
      // additions in the same order.
      int c = 0;
      if (n == kStatCols) {
        for (; c < kStatCols; c += kQuadFloats) {
          float vn[kQuadFloats];
          float vd[kQuadFloats];
          load_quad(&s_num[t][c], vn);
          load_quad(&s_den[t][c], vd);
          VQX_UNROLL
          for (int i = 0; i < kQuadFloats; ++i) {
            num += vn[i];
            den += vd[i];
          }
        }
      }
      for (; c < n; ++c) {
        num += s_num[t][c];
        den += s_den[t][c];
      }
    }
    // No third barrier: the next step's writes of s_num and s_den come
    // after its first barrier, which threads 0 .. kStatRows - 1 reach only
    // once they have added this step's values.
  }
  if (t < kStatRows && y0 + t < height) {
    row_num[y0 + t] = num;
    row_den[y0 + t] = den;
  }
}

// One scale's sums from its rows' (as stats_kernel wrote them): the rows
// added in float from the top, as cpu.cpp's add_scale_sums() adds them.
inline ScaleSums add_rows(const float* row_num, const float* row_den, int rows) {
  ScaleSums sums;
  for (int y = 0; y < rows; ++y) {
    sums.num += row_num[y];
    sums.den += row_den[y];
  }
  return sums;
}

}  // namespace vqx::float_vif

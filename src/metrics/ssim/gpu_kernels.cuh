// The SSIM twins' kernels, and the host helpers for their arguments and
// results: everything of the twins that needs no device runtime (the
// launchers, buffers and streams are in gpu_images.cuh, gpu_decimate.cuh and
// gpu_window.cuh). Kept free of the runtime so that a device-free test can
// run these very kernels on the CPU, one thread per GPU thread
// (tests/unit/ssim_kernels_test.cpp), against the CPU twin.
//
//  * decimate_kernel: decimate.hpp's rule, one thread per output sample of
//    both pictures. Output (x, y) is the n x n filter centred on input
//    (x f, y f), the border mirrored with the edge repeated
//    (reflect_repeat, as decimate.cpp); each product tap * sample rounded
//    to float (pointwise.hpp: tap_term) and added in double, filter row by
//    filter row and tap by tap from 0.0, as the CPU's row loops add them
//    for each output sample; the sum rounded to float.
//  * low_pass_kernel: decimate_kernel for MS-SSIM's low-pass, the same
//    sums from a tile of the inputs in shared memory.
//  * window_rows_kernel: one thread per input row and window column; the
//    11-tap horizontal filter of the five quantities (x, y, x*x, y*y, x*y),
//    the same way, into five float maps: the CPU's horizontally filtered
//    rows (window.cpp), bit for bit.
//  * window_terms_kernel: one block per row of window positions; each
//    thread filters its column of the five maps vertically (the same way),
//    then computes moments(), the float root and terms() (pointwise.hpp),
//    and the block sums the row's terms in the fixed order of params.hpp:
//    runs of kSumSegment positions (one thread per run and term, in order
//    from 0.0), the runs of each group of kSumGroup positions (one thread
//    per term, in order from 0.0), the groups (the same thread, in order
//    from 0.0): exactly pointwise.hpp's row_sum(), which the CPU twin calls.
//    The row's four sums go to `row_sums`; the host adds the rows in order
//    (add_rows), as the CPU does.
// No atomics: every sum has one fixed order, whatever the block scheduling.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/device_unroll.hpp"
#include "core/index_math.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/means.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"

namespace vqx::ssim {

// The kernels are static: this header is compiled by its twin's .cu and, as
// host code, by the device-free kernel tests (tests/unit/gpu_on_host.hpp);
// internal linkage keeps the launch stubs of a CUDA build and the tests'
// host functions of the same names from meeting at link time.

// ---------------------------------------------------------------------------
// What the kernels read

// A luma plane of `Sample`s, each read as static_cast<float>(sample) *
// sample_unit(bpc): exact, and the CPU's conversion (image.cpp).
template <typename Sample>
struct LumaView {
  const std::uint8_t* data;
  std::size_t pitch;  // bytes
  float unit;
  __device__ float at(int x, int y) const {
    const auto* row = reinterpret_cast<const Sample*>(data + pitch * static_cast<std::size_t>(y));
    return static_cast<float>(row[x]) * unit;
  }
};

// A float image (a subsampled scale), read as it is.
struct FloatView {
  const float* data;
  std::size_t pitch;  // floats
  __device__ float at(int x, int y) const { return data[pitch * static_cast<std::size_t>(y) + x]; }
};

// The taps of a square filter, row by row, passed to the kernel by value
// (kernel parameters: no device table to upload). Large enough for
// MS-SSIM's 9x9 low-pass and float_ssim's largest box.
struct SquareTaps {
  static constexpr int kMaxTaps = kLpfTaps > kMaxScale* kMaxScale ? kLpfTaps : kMaxScale* kMaxScale;
  float tap[kMaxTaps];
  int size;    // taps per side
  int factor;  // subsampling factor
};

// MS-SSIM's low-pass filter (params.hpp's kLowPass), subsampling by 2.
inline SquareTaps low_pass_taps() {
  SquareTaps t{};
  for (int i = 0; i < kLpfTaps; ++i) t.tap[i] = kLowPass[static_cast<std::size_t>(i)];
  t.size = kLpfSize;
  t.factor = kLpfFactor;
  return t;
}

// float_ssim's box filter for `factor` (every tap box_tap(factor)).
inline SquareTaps box_taps(int factor) {
  SquareTaps t{};
  for (int i = 0; i < factor * factor; ++i) t.tap[i] = box_tap(factor);
  t.size = factor;
  t.factor = factor;
  return t;
}

// The Gaussian's taps (params.hpp's kGaussian), passed by value.
struct WindowTaps {
  float tap[kWindow];
};

inline WindowTaps window_taps() {
  WindowTaps t{};
  for (int i = 0; i < kWindow; ++i) t.tap[i] = kGaussian[static_cast<std::size_t>(i)];
  return t;
}

// The five horizontally filtered quantities, side by side: a row holds each
// position's five values together, so that the vertical pass reads a
// position's five with one address a row (window_terms_kernel: two
// instructions a map and tap fewer than five planes apart).
enum WindowMap { kMapRef, kMapCmp, kMapRefSq, kMapCmpSq, kMapCross, kWindowMaps };
struct MapsView {
  float* maps;
  std::size_t pitch;  // floats per row, at least kWindowMaps per position
  // Row y's values at position x: map m at [m].
  [[nodiscard]] __device__ float* at(int y, int x) const {
    return maps + pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x) * kWindowMaps;
  }
};

// ---------------------------------------------------------------------------
// Subsampling

inline constexpr unsigned kDecimateX = 32;
inline constexpr unsigned kDecimateY = 8;

template <typename Source>
static __global__ void __launch_bounds__(kDecimateX* kDecimateY)
    decimate_kernel(Source ref, Source cmp, Size in, SquareTaps taps, float* ref_out,
                    float* cmp_out, std::size_t out_pitch, Size out) {
  const int x = static_cast<int>(blockIdx.x * kDecimateX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kDecimateY + threadIdx.y);
  if (x >= out.width || y >= out.height) return;
  const int half = taps.size / 2;
  double r = 0.0;
  double c = 0.0;
  for (int v = 0; v < taps.size; ++v) {
    const int yy = reflect_repeat(y * taps.factor + v - half, in.height);
    for (int u = 0; u < taps.size; ++u) {
      const int xx = reflect_repeat(x * taps.factor + u - half, in.width);
      const float t = taps.tap[v * taps.size + u];
      r += tap_term(ref.at(xx, yy), t);
      c += tap_term(cmp.at(xx, yy), t);
    }
  }
  const std::size_t o = out_pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
  ref_out[o] = static_cast<float>(r);
  cmp_out[o] = static_cast<float>(c);
}

// MS-SSIM's low-pass (kLpfSize x kLpfSize taps, subsampling by
// kLpfFactor; `taps` is low_pass_taps()): decimate_kernel's sums, in its
// order, from the block's input tile staged in shared memory. Each input
// sample is read and converted once for the block, not once for each of
// the 20 or so outputs whose filters reach it, and the taps' loops unroll.
// The tile's columns are kept in two arrays, even and odd, so that the
// threads of a warp, whose filters start two columns apart, read
// consecutive words.
inline constexpr int kLpfTileColumns = (static_cast<int>(kDecimateX) - 1) * kLpfFactor + kLpfSize;
inline constexpr int kLpfTileRows = (static_cast<int>(kDecimateY) - 1) * kLpfFactor + kLpfSize;
inline constexpr int kLpfTileHalf = (kLpfTileColumns + 1) / 2;
static_assert(kLpfFactor == 2, "the tile's columns split in even and odd");

template <typename Source>
static __global__ void __launch_bounds__(kDecimateX* kDecimateY)
    low_pass_kernel(Source ref, Source cmp, Size in, SquareTaps taps, float* ref_out,
                    float* cmp_out, std::size_t out_pitch, Size out) {
  // [picture][parity][row][column / 2]
  __shared__ float s_tile[2][2][kLpfTileRows][kLpfTileHalf];
  constexpr int kHalf = kLpfSize / 2;
  const int x0 = static_cast<int>(blockIdx.x * kDecimateX) * kLpfFactor - kHalf;
  const int y0 = static_cast<int>(blockIdx.y * kDecimateY) * kLpfFactor - kHalf;
  // The last input row and column a valid output reads (in the picture, or
  // mirrored into it: decimated_size leaves at most kHalf + 1 past it).
  const int last_x = (out.width - 1) * kLpfFactor + kHalf;
  const int last_y = (out.height - 1) * kLpfFactor + kHalf;
  const int t = static_cast<int>(threadIdx.y * kDecimateX + threadIdx.x);
  for (int i = t; i < kLpfTileRows * kLpfTileColumns;
       i += static_cast<int>(kDecimateX * kDecimateY)) {
    const int row = i / kLpfTileColumns;
    const int column = i % kLpfTileColumns;
    if (x0 + column > last_x || y0 + row > last_y) continue;
    const int xx = reflect_repeat(x0 + column, in.width);
    const int yy = reflect_repeat(y0 + row, in.height);
    s_tile[0][column % 2][row][column / 2] = ref.at(xx, yy);
    s_tile[1][column % 2][row][column / 2] = cmp.at(xx, yy);
  }
  __syncthreads();
  const int x = static_cast<int>(blockIdx.x * kDecimateX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kDecimateY + threadIdx.y);
  if (x >= out.width || y >= out.height) return;
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y) * kLpfFactor;
  double r = 0.0;
  double c = 0.0;
  VQX_UNROLL
  for (int v = 0; v < kLpfSize; ++v) {
    VQX_UNROLL
    for (int u = 0; u < kLpfSize; ++u) {
      // Tile column 2 tx + u: parity u % 2, index tx + u / 2.
      const float tap = taps.tap[v * kLpfSize + u];
      r += tap_term(s_tile[0][u % 2][ty + v][tx + u / 2], tap);
      c += tap_term(s_tile[1][u % 2][ty + v][tx + u / 2], tap);
    }
  }
  const std::size_t o = out_pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
  ref_out[o] = static_cast<float>(r);
  cmp_out[o] = static_cast<float>(c);
}

// ---------------------------------------------------------------------------
// The window

// A row of window positions per block, one position per thread: a block is
// one group of the summation order.
inline constexpr unsigned kWindowThreads = kSumGroup;
inline constexpr int kSegments = kSumGroup / kSumSegment;  // runs per group
// Terms in shared memory, each run padded by one value so that the threads
// adding different runs read different banks.
inline constexpr int kPaddedGroup = kSumGroup + kSegments;
__device__ inline int padded(int i) { return i + i / kSumSegment; }

// The float root of a variances' product. IEEE square root, correctly
// rounded: CUDA's sqrtf with --prec-sqrt=true, HIP's with
// -fhip-fp32-correctly-rounded-divide-sqrt (cmake/Gpu.cmake). The CPU's
// _mm_sqrt_ps and std::sqrt(float) are correctly rounded too: equal bits.
__device__ inline float root(float v) { return sqrtf(v); }

template <typename Source>
static __global__ void __launch_bounds__(kWindowThreads)
    window_rows_kernel(Source ref, Source cmp, WindowTaps taps, int positions, MapsView out) {
  __shared__ float s_ref[kSumGroup + kWindow - 1];
  __shared__ float s_cmp[kSumGroup + kWindow - 1];
  const int t = static_cast<int>(threadIdx.x);
  const int x0 = static_cast<int>(blockIdx.x) * kSumGroup;
  const int y = static_cast<int>(blockIdx.y);
  const int width = positions + kWindow - 1;
  for (int i = t; i < kSumGroup + kWindow - 1; i += kSumGroup) {
    if (x0 + i < width) {
      s_ref[i] = ref.at(x0 + i, y);
      s_cmp[i] = cmp.at(x0 + i, y);
    }
  }
  __syncthreads();
  const int x = x0 + t;
  if (x >= positions) return;
  double sum[kWindowMaps] = {0.0, 0.0, 0.0, 0.0, 0.0};
  for (int k = 0; k < kWindow; ++k) {
    const float a = s_ref[t + k];
    const float b = s_cmp[t + k];
    const float g = taps.tap[k];
    sum[kMapRef] += tap_term(a, g);
    sum[kMapCmp] += tap_term(b, g);
    sum[kMapRefSq] += tap_term(square(a), g);
    sum[kMapCmpSq] += tap_term(square(b), g);
    sum[kMapCross] += tap_term(product(a, b), g);
  }
  float* o = out.at(y, x);
  for (int m = 0; m < kWindowMaps; ++m) o[m] = static_cast<float>(sum[m]);
}

// Group: the block's width, kSumGroup (a template, so that the kernel, in a
// header two twins include, has one definition).
template <int Group>
static __global__ void __launch_bounds__(Group)
    window_terms_kernel(MapsView in, WindowTaps taps, int positions, double* row_sums) {
  static_assert(Group == kSumGroup, "a block is one group of the summation order");
  __shared__ double s_terms[kTerms][kPaddedGroup];
  __shared__ double s_runs[kTerms][kSegments];
  const int t = static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.x);
  double row = 0.0;  // threads 0 .. kTerms - 1: term t's sum over the row
  for (int x0 = 0; x0 < positions; x0 += Group) {
    const int x = x0 + t;
    if (x < positions) {
      // Rows y .. y + kWindow - 1 of the five maps at x, each map's sum
      // then in tap order.
      float v[kWindow][kWindowMaps];
      VQX_UNROLL
      for (int k = 0; k < kWindow; ++k) {
        const float* values = in.at(y + k, x);
        VQX_UNROLL
        for (int m = 0; m < kWindowMaps; ++m) v[k][m] = values[m];
      }
      float f[kWindowMaps];
      VQX_UNROLL
      for (int m = 0; m < kWindowMaps; ++m) {
        double sum = 0.0;
        VQX_UNROLL
        for (int k = 0; k < kWindow; ++k) sum += tap_term(v[k][m], taps.tap[k]);
        f[m] = static_cast<float>(sum);
      }
      const Moments mo = moments(f[kMapRef], f[kMapCmp], f[kMapRefSq], f[kMapCmpSq], f[kMapCross]);
      const Terms te = terms(f[kMapRef], f[kMapCmp], mo.var1, mo.var2, mo.cov, root(mo.product));
      s_terms[kTermSsim][padded(t)] = te.ssim;
      s_terms[kTermL][padded(t)] = te.l;
      s_terms[kTermC][padded(t)] = te.c;
      s_terms[kTermS][padded(t)] = te.s;
    }
    __syncthreads();
    // The group's positions: x0 .. x0 + n - 1.
    const int n = positions - x0 < Group ? positions - x0 : Group;
    if (t < kTerms * kSegments) {
      const int term = t / kSegments;
      const int first = (t % kSegments) * kSumSegment;
      if (first < n) {
        const int end = n < first + kSumSegment ? n : first + kSumSegment;
        double run = 0.0;
        for (int i = first; i < end; ++i) run += s_terms[term][padded(i)];
        s_runs[term][t % kSegments] = run;
      }
    }
    __syncthreads();
    if (t < kTerms) {
      const int runs = ceil_div(n, kSumSegment);
      double group = 0.0;
      for (int r = 0; r < runs; ++r) group += s_runs[t][r];
      row += group;
    }
    // No third barrier: the next group's writes of s_terms come after every
    // read of this group's (the barrier above), and its writes of s_runs
    // after the next group's first barrier, which threads 0 .. kTerms - 1
    // reach only once they have read this group's.
  }
  if (t < kTerms)
    row_sums[static_cast<std::size_t>(y) * kTerms + static_cast<std::size_t>(t)] = row;
}

// The sums of the terms over `rows` rows of positions (kTerms per row, as
// window_terms_kernel wrote them): the rows added in order from 0.0, as
// window.cpp adds them.
inline TermSums add_rows(const double* row_sums, int rows) {
  TermSums sums{};
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < kTerms; ++k) sums[k] += row_sums[static_cast<std::size_t>(r) * kTerms + k];
  }
  return sums;
}

}  // namespace vqx::ssim

// The GPU kernels of the float extractors' shared steps (float_adm,
// float_vif, float_motion): what they read (the uploaded luma or chroma as
// float samples, or a float image), a separable filter with mirrored borders
// at every output or at every second one (convolve.cpp's filter_image, and
// VIF's decimation), the resampler (resample.cpp) and the rows' sums of
// absolute differences (float_motion's sad.cpp). Free of the runtime, so
// that a device-free test can run these very kernels on the CPU, one thread
// per GPU thread (tests/unit/float_kernels_test.cpp), against the CPU twin.
//
// Every output is computed with the CPU's operations in the CPU's order
// (pointwise.hpp: sample_value, tap_sum, the resampler's values); every sum
// over a row is one chain, from the left, as the CPU's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/index_math.hpp"
#include "metrics/float_common/convolve.hpp"
#include "metrics/float_common/params.hpp"
#include "metrics/float_common/pointwise.hpp"
#include "metrics/float_common/resample.hpp"

namespace vqx::float_common {

// The kernels are static: this header is compiled by the twins' .cu files
// and, as host code, by the device-free kernel tests
// (tests/unit/gpu_on_host.hpp); internal linkage keeps the launch stubs of a
// CUDA build and the tests' host functions of the same names from meeting
// at link time.

// ---------------------------------------------------------------------------
// What the kernels read

// An uploaded plane of `Sample`s, read as float samples (sample_value).
template <typename Sample>
struct PlaneSource {
  const std::uint8_t* data;
  std::size_t pitch;  // bytes
  float unit;
  __device__ float at(int x, int y) const {
    const auto* row = reinterpret_cast<const Sample*>(data + pitch * static_cast<std::size_t>(y));
    return sample_value(row[x], unit);
  }
  // Column x from row y: below(k) is at(x, y + k). In a loop over k that
  // unrolls, the compiler forms each row's address from the last with an
  // addition, where each at() forms it anew (a 64-bit product and sum:
  // about eight instructions a sample).
  struct Column {
    const std::uint8_t* p;
    std::size_t pitch;
    float unit;
    __device__ float below(int k) const {
      return sample_value(*reinterpret_cast<const Sample*>(p + pitch * static_cast<std::size_t>(k)),
                          unit);
    }
  };
  __device__ Column column(int x, int y) const {
    return {
        data + pitch * static_cast<std::size_t>(y) + sizeof(Sample) * static_cast<std::size_t>(x),
        pitch, unit};
  }
};

// A float image, read as it is.
struct ImageSource {
  const float* data;
  std::size_t pitch;  // floats
  __device__ float at(int x, int y) const { return data[pitch * static_cast<std::size_t>(y) + x]; }
  // As PlaneSource::Column.
  struct Column {
    const float* p;
    std::size_t pitch;
    __device__ float below(int k) const { return p[pitch * static_cast<std::size_t>(k)]; }
  };
  __device__ Column column(int x, int y) const {
    return {data + pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x), pitch};
  }
};

// A float image written by a kernel.
struct ImageTarget {
  float* data;
  std::size_t pitch;  // floats
  int width;
  int height;
  __device__ float& at(int x, int y) const { return data[pitch * static_cast<std::size_t>(y) + x]; }
  [[nodiscard]] ImageSource source() const { return {data, pitch}; }
};

// A filter's taps, passed by value (kernel parameters: no device table).
struct FilterTaps {
  float tap[kMaxTaps];
  int count;
  [[nodiscard]] __device__ int radius() const { return count / 2; }
};

// Tap counts the filter kernels (filter_kernel here, float_vif's
// stats_kernel) are compiled for with the count known, so that their tap
// loops unroll (the same operations in the same order): VIF's Gaussians at
// the default kernel scale (scale s: 2^(4 - s) + 1 taps) and motion's 5-
// and 3-tap blurs. Any other count runs the general kernel (count 0). The
// twins that rely on it assert that their default filters are among them
// (unrolled_tap_count), so that a change of those filters cannot leave
// them on the general kernel unnoticed.
inline constexpr int kUnrolledTapCounts[] = {17, 9, 5, 3};

[[nodiscard]] constexpr bool unrolled_tap_count(std::size_t count) {
  for (const int c : kUnrolledTapCounts) {
    if (static_cast<std::size_t>(c) == count) return true;
  }
  return false;
}

// Calls run.template operator()<kCount>() with the kernel count for a
// filter of `count` taps: `count` when it is one of kUnrolledTapCounts,
// else 0.
template <typename Run>
void with_tap_count(int count, const Run& run) {
  static_assert(sizeof(kUnrolledTapCounts) / sizeof(int) == 4);
  switch (count) {
    case kUnrolledTapCounts[0]:
      return run.template operator()<kUnrolledTapCounts[0]>();
    case kUnrolledTapCounts[1]:
      return run.template operator()<kUnrolledTapCounts[1]>();
    case kUnrolledTapCounts[2]:
      return run.template operator()<kUnrolledTapCounts[2]>();
    case kUnrolledTapCounts[3]:
      return run.template operator()<kUnrolledTapCounts[3]>();
    default:
      return run.template operator()<0>();
  }
}

template <typename Container>
FilterTaps filter_taps(const Container& taps) {
  FilterTaps t{};
  t.count = static_cast<int>(taps.size());
  for (int k = 0; k < t.count; ++k) t.tap[k] = taps[static_cast<std::size_t>(k)];
  return t;
}

// ---------------------------------------------------------------------------
// The separable filter

// Outputs per block: kFilterX columns of kFilterY rows.
inline constexpr unsigned kFilterX = 32;
inline constexpr unsigned kFilterY = 8;
inline constexpr unsigned kFilterThreads = kFilterX * kFilterY;
// The vertical pass's columns a block keeps: its outputs' reach at the
// larger step, 2, and the widest filter.
inline constexpr int kFilterSpan =
    2 * (static_cast<int>(kFilterX) - 1) + static_cast<int>(kMaxTaps);

// out(x, y) for x < out.width, y < out.height: the vertical pass of `taps`
// over src (height src_h) at row Step * y, at the columns the horizontal
// pass needs, then the horizontal pass at column Step * x, both mirrored
// (reflect101, over src_w and src_h) and each a tap_sum. Step 1 is
// filter_image() (the same size); step 2 keeps every second row and column
// (VIF's decimation: float_vif/cpu.cpp's decimate()). The vertical values
// of a block's row are computed once, in shared memory, as the CPU's row
// kernels compute a whole row of them. kCount: the tap count when known at
// compile time (kUnrolledTapCounts), else 0.
template <int Step, typename Source, int kCount>
static __global__ void __launch_bounds__(kFilterThreads)
    filter_kernel(Source src, int src_w, int src_h, FilterTaps taps, ImageTarget out) {
  __shared__ float s_vert[kFilterY][kFilterSpan];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * kFilterX);
  const int y = static_cast<int>(blockIdx.y * kFilterY) + ty;
  const int count = kCount > 0 ? kCount : taps.count;
  const int r = count / 2;
  // The block's outputs x0 .. last read columns Step * x0 - r .. Step * last + r.
  const int last =
      (x0 + static_cast<int>(kFilterX) < out.width ? x0 + static_cast<int>(kFilterX) : out.width) -
      1;
  const int first_col = Step * x0 - r;
  const int cols = Step * last + r - first_col + 1;
  if (y < out.height) {
    const int top = Step * y - r;  // the first tap's row
    // Every tap's row inside the picture (all rows but a few at the top and
    // bottom): the column read down from one address, nothing mirrored.
    const bool inside = top >= 0 && top + count <= src_h;
    for (int c = tx; c < cols; c += static_cast<int>(kFilterX)) {
      const int x = reflect101(first_col + c, src_w);
      if (inside) {
        const auto column = src.column(x, top);
        s_vert[ty][c] = tap_sum(taps.tap, count, [&](int k) { return column.below(k); });
      } else {
        s_vert[ty][c] =
            tap_sum(taps.tap, count, [&](int k) { return src.at(x, reflect101(top + k, src_h)); });
      }
    }
  }
  __syncthreads();
  const int x = x0 + tx;
  if (y < out.height && x < out.width) {
    out.at(x, y) = tap_sum(taps.tap, count, [&](int k) { return s_vert[ty][Step * tx + k]; });
  }
}

// ---------------------------------------------------------------------------
// Resampling

// One axis of the resampler (resample.hpp's Resampler::Axis) on the device.
struct AxisView {
  const int* index;     // taps per output position
  const float* weight;  // bicubic and Lanczos: taps per position
  const float* frac;    // bilinear: one per position
};

inline constexpr unsigned kResampleX = 32;
inline constexpr unsigned kResampleY = 8;

// out(x, y) = src scaled (Resampler::run), one thread per output sample.
template <typename Source>
static __global__ void __launch_bounds__(kResampleX* kResampleY)
    resample_kernel(Source src, ScaleMethod method, AxisView cols, AxisView rows, ImageTarget out) {
  const int x = static_cast<int>(blockIdx.x * kResampleX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kResampleY + threadIdx.y);
  if (x >= out.width || y >= out.height) return;
  float v = 0.0f;
  switch (method) {
    case ScaleMethod::kNearest:
      v = src.at(cols.index[x], rows.index[y]);
      break;
    case ScaleMethod::kBilinear: {
      const int x1 = cols.index[2 * x];
      const int x2 = cols.index[2 * x + 1];
      const int y1 = rows.index[2 * y];
      const int y2 = rows.index[2 * y + 1];
      v = bilinear_value(cols.frac[x], rows.frac[y], src.at(x1, y1), src.at(x2, y1), src.at(x1, y2),
                         src.at(x2, y2));
      break;
    }
    case ScaleMethod::kBicubic: {
      const int* xi = cols.index + static_cast<std::size_t>(x) * kBicubicTaps;
      const int* yi = rows.index + static_cast<std::size_t>(y) * kBicubicTaps;
      v = bicubic_value<kBicubicTaps>(cols.weight + static_cast<std::size_t>(x) * kBicubicTaps,
                                      rows.weight + static_cast<std::size_t>(y) * kBicubicTaps,
                                      [&](unsigned i, unsigned j) { return src.at(xi[i], yi[j]); });
      break;
    }
    case ScaleMethod::kLanczos4: {
      const int* xi = cols.index + static_cast<std::size_t>(x) * kLanczosTaps;
      const int* yi = rows.index + static_cast<std::size_t>(y) * kLanczosTaps;
      v = lanczos_value<kLanczosTaps>(cols.weight + static_cast<std::size_t>(x) * kLanczosTaps,
                                      rows.weight + static_cast<std::size_t>(y) * kLanczosTaps,
                                      [&](unsigned i, unsigned j) { return src.at(xi[i], yi[j]); });
      break;
    }
  }
  out.at(x, y) = v;
}

// ---------------------------------------------------------------------------
// Rows' sums of absolute differences (float_motion)

// Rows per block and columns per step: each step the block's threads put
// |a - b| of kSadRows x kSadCols samples into shared memory, then thread r
// adds its row's to its chain, from the left (sad.cpp's line sums).
inline constexpr int kSadRows = 8;
inline constexpr int kSadCols = 128;
inline constexpr unsigned kSadThreads = 256;

template <typename Source>
static __global__ void __launch_bounds__(kSadThreads)
    row_abs_difference_kernel(Source a, Source b, int width, int height, float* row_sums) {
  __shared__ float s_diff[kSadRows][kSadCols + 1];
  const int t = static_cast<int>(threadIdx.x);
  const int y0 = static_cast<int>(blockIdx.x) * kSadRows;
  float line = 0.0f;  // thread t < kSadRows: row y0 + t
  for (int x0 = 0; x0 < width; x0 += kSadCols) {
    const int n = width - x0 < kSadCols ? width - x0 : kSadCols;
    for (int i = t; i < kSadRows * kSadCols; i += static_cast<int>(kSadThreads)) {
      const int r = i / kSadCols;
      const int c = i % kSadCols;
      if (y0 + r < height && c < n) {
        s_diff[r][c] = abs_of(a.at(x0 + c, y0 + r) - b.at(x0 + c, y0 + r));
      }
    }
    __syncthreads();
    if (t < kSadRows && y0 + t < height) {
      for (int c = 0; c < n; ++c) line += s_diff[t][c];
    }
    __syncthreads();  // the next step rewrites s_diff once every row is added
  }
  if (t < kSadRows && y0 + t < height) row_sums[y0 + t] = line;
}

}  // namespace vqx::float_common

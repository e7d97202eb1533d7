// The CAMBI twin's picture kernels, from the uploaded luma to each scale's
// contrast values, and the host helpers for their arguments: everything of
// the twin that needs no device runtime (the buffers and launches are in
// gpu_buffers.cuh and gpu.cu; the pooling's kernels in
// gpu_pool_kernels.cuh). Kept free of the runtime so that a device-free
// test runs these very kernels on the CPU, one host thread per GPU thread
// (tests/unit/cambi_kernels_test.cpp), against the CPU twin. Integer
// counts go through `Count` (a device one in gpu.cu with gpu/reduce.cuh's
// integer atomics, a host one in the test), so no atomic is written here.
//
// Every kernel computes, per output, what the CPU twin computes for it,
// with pointwise.hpp's functions:
//  * positions_kernel: libvmaf's float stepping of the sample positions
//    (one thread, in order: each position is the previous one plus the
//    float step, as sample_positions() finds them);
//  * row_lanes_kernel, row_max_kernel: each input row's largest sample
//    (the CPU's range check reports the first row with one above the
//    depth), the maximum of maxima: the same in any order;
//  * preprocess_kernel: the 10-bit level of each pixel (TenBit at the
//    sample positions), anti-dithered from the levels of its neighbours
//    (mean4/mean2), which are computed from the input, not from
//    anti-dithered levels, as the CPU's in-place pass reads them;
//  * derivative_kernel, mask_kernel: zero_derivative() of each pixel, then
//    whether more than the threshold of its 7x7 neighbourhood (clipped to
//    the picture) have it;
//  * decimate_kernel: every second sample of every second row;
//  * mode_codes_kernel: the 3x3 mode filter (mode3 of the horizontal mode3s;
//    the first and last rows and, horizontally, columns keep their
//    samples), then the pixel's code (code_of) and, on even rows and
//    columns, the next scale's sample and mask;
//  * values_kernel: each coded pixel's contrast value from the counts of
//    the codes within num_diffs of its own in its window (rows and columns
//    within the radius, clipped to the picture), counted directly in a
//    shared tile of codes, then contrast_term() per level difference from
//    the pixel's first one, the largest kept, in the CPU's order; every
//    pixel's value into `values` (zeros included, rows of the scale's
//    width: the CPU's spread array), their exact sum in units, the count of
//    non-zero ones and the histogram of their buckets (the block's in shared
//    memory, then added to the scale's: integer counts, in any order).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/index_math.hpp"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/pointwise.hpp"

namespace vqx::cambi {

// The kernels are static: this header is compiled by its twin's .cu and, as
// host code, by the device-free kernel tests (tests/unit/gpu_on_host.hpp);
// internal linkage keeps the launch stubs of a CUDA build and the tests'
// host functions of the same names from meeting at link time.

// ---------------------------------------------------------------------------
// Shapes

// Per-pixel kernels: blocks of 32 x 8 threads, one pixel each.
inline constexpr unsigned kPixelThreadsX = 32;
inline constexpr unsigned kPixelThreadsY = 8;
inline constexpr unsigned kPixelThreads = kPixelThreadsX * kPixelThreadsY;
// The range check's second step: one thread per input row.
inline constexpr unsigned kRowThreads = 256;
// values_kernel: a tile of 32 x 64 pixels per block of 32 x 4 threads, each
// thread a column of 16 consecutive pixels (its window's counts slide down
// while the code stays the same, so longer columns count less); the tile's
// codes with a margin of the radius on every side in shared memory.
inline constexpr unsigned kValueThreadsY = 4;
inline constexpr unsigned kValueThreads = kPixelThreadsX * kValueThreadsY;
inline constexpr unsigned kRowsPerThread = 16;
inline constexpr unsigned kTileWidth = kPixelThreadsX;
inline constexpr unsigned kTileHeight = kValueThreadsY * kRowsPerThread;
inline constexpr unsigned kTileSpanX = kTileWidth + 2 * kMaxRadius;
inline constexpr unsigned kTileSpanY = kTileHeight + 2 * kMaxRadius;

// ---------------------------------------------------------------------------
// Arguments

// The uploaded luma plane.
struct LumaPlane {
  const std::uint8_t* data;
  std::size_t pitch;  // bytes
  unsigned width;
  unsigned height;
};

template <typename Sample>
__device__ inline Sample sample_at(const LumaPlane& p, unsigned x, unsigned y) {
  return reinterpret_cast<const Sample*>(p.data + p.pitch * y)[x];
}

// What the contrast values need besides the counts, by value (kernel
// parameters, about 1.2 KB: no device table to upload).
struct ContrastArgs {
  std::uint8_t first_diff[kMaxBandSize];  // per code: the first d that applies
  int weights[kMaxDiffs];
  std::uint16_t band_base;
  std::uint16_t band_size;
};

// A scale's results, on the device (cleared every frame; gpu_pool_kernels.cuh
// fills the pooling's part).
struct ScaleSums {
  unsigned long long units;      // the values' exact sum, in units of 2^-24
  unsigned long long nonzero;    // values that are not 0
  unsigned long long top_units;  // PoolPath::kLargest: the k largest values' sum
  unsigned long long above;      // PoolPath::kLargest: values in buckets above `split`
  double ordered;                // PoolPath::kOrdered: libvmaf's ordered sum
  std::uint32_t path;            // PoolPath
  std::uint32_t split;           // PoolPath::kLargest: the bucket of the k-th largest
};

// ---------------------------------------------------------------------------
// Preprocessing

// Thread 0 writes the out_size positions of one side (pointwise.hpp).
static __global__ void __launch_bounds__(1)
    positions_kernel(unsigned in_size, unsigned out_size, unsigned* pos) {
  if (threadIdx.x != 0) return;
  const float ratio = position_ratio(in_size, out_size);
  float x = position_start(ratio);
  for (unsigned j = 0; j < out_size; ++j) {
    pos[j] = position_index(x, in_size);
    x += ratio;
  }
}

// The largest sample of each input row, in two steps without a barrier:
// row_lanes_kernel, blocks of 32 x 8 threads, a row per warp-row: each lane
// the largest of its columns lane, lane + 32, ... into lanes[y * 32 + lane];
// row_max_kernel, a thread per row: the largest of its 32.
template <typename Sample>
static __global__ void __launch_bounds__(kPixelThreads)
    row_lanes_kernel(LumaPlane p, std::uint32_t* lanes) {
  const unsigned y = blockIdx.y * kPixelThreadsY + threadIdx.y;
  if (y >= p.height) return;
  std::uint32_t m = 0;
  for (unsigned x = threadIdx.x; x < p.width; x += kPixelThreadsX) {
    const std::uint32_t v = sample_at<Sample>(p, x, y);
    m = v > m ? v : m;
  }
  lanes[std::size_t{y} * kPixelThreadsX + threadIdx.x] = m;
}

static __global__ void __launch_bounds__(kRowThreads)
    row_max_kernel(const std::uint32_t* lanes, unsigned rows, std::uint32_t* row_max) {
  const unsigned y = blockIdx.x * kRowThreads + threadIdx.x;
  if (y >= rows) return;
  std::uint32_t m = 0;
  for (unsigned i = 0; i < kPixelThreadsX; ++i) {
    const std::uint32_t v = lanes[std::size_t{y} * kPixelThreadsX + i];
    m = v > m ? v : m;
  }
  row_max[y] = m;
}

// The w x h picture of 10-bit levels: the sample at (xs[x], ys[y]) (or
// (x, y) when xs is null: the sizes agree), anti-dithered when asked.
struct PreprocessArgs {
  LumaPlane luma;
  TenBit ten_bit;
  const unsigned* xs;  // null: no resampling
  const unsigned* ys;
  unsigned width;
  unsigned height;
  bool anti_dither;
  std::uint16_t* out;
};

template <typename Sample>
__device__ inline std::uint16_t level_at(const PreprocessArgs& a, unsigned x, unsigned y) {
  const unsigned sx = a.xs != nullptr ? a.xs[x] : x;
  const unsigned sy = a.ys != nullptr ? a.ys[y] : y;
  return a.ten_bit(sample_at<Sample>(a.luma, sx, sy));
}

template <typename Sample>
static __global__ void __launch_bounds__(kPixelThreads) preprocess_kernel(PreprocessArgs a) {
  const unsigned x = blockIdx.x * kPixelThreadsX + threadIdx.x;
  const unsigned y = blockIdx.y * kPixelThreadsY + threadIdx.y;
  if (x >= a.width || y >= a.height) return;
  const std::uint16_t level = level_at<Sample>(a, x, y);
  std::uint16_t out = level;
  if (a.anti_dither) {
    const bool right = x + 1 < a.width;
    const bool below = y + 1 < a.height;
    if (right && below) {
      out = mean4(level, level_at<Sample>(a, x + 1, y), level_at<Sample>(a, x, y + 1),
                  level_at<Sample>(a, x + 1, y + 1));
    } else if (below) {
      out = mean2(level, level_at<Sample>(a, x, y + 1));
    } else if (right) {
      out = mean2(level, level_at<Sample>(a, x + 1, y));
    }
  }
  a.out[std::size_t{y} * a.width + x] = out;
}

// ---------------------------------------------------------------------------
// The flatness mask

static __global__ void __launch_bounds__(kPixelThreads)
    derivative_kernel(const std::uint16_t* img, unsigned w, unsigned h, std::uint8_t* flags) {
  const unsigned x = blockIdx.x * kPixelThreadsX + threadIdx.x;
  const unsigned y = blockIdx.y * kPixelThreadsY + threadIdx.y;
  if (x >= w || y >= h) return;
  const std::size_t at = std::size_t{y} * w + x;
  const bool has_right = x + 1 < w;
  const bool has_below = y + 1 < h;
  flags[at] = zero_derivative(img[at], has_right ? img[at + 1] : std::uint16_t{0},
                              has_below ? img[at + w] : std::uint16_t{0}, has_right, has_below);
}

// The flat neighbours of each pixel, counted in the window of kMaskFilterSize
// around it that lies inside the picture. A block takes kMaskRows rows of
// kPixelThreadsX pixels (each thread kMaskRows / kPixelThreadsY of them):
// their flags with the window's reach around them go into shared memory
// once (0 outside the picture), each tile row's sums of kMaskFilterSize
// neighbours are formed once, and each pixel adds kMaskFilterSize of those.
// Integer sums: the same count in any order. (Each pixel read its 49 flags
// from memory before: about 590 instructions a pixel; docs/gpu.md,
// "Instructions a frame".)
inline constexpr unsigned kMaskRows = 32;
static_assert(kMaskRows % kPixelThreadsY == 0, "each thread takes whole rows");
inline constexpr int kMaskTileW = static_cast<int>(kPixelThreadsX) + 2 * kMaskRadius;
inline constexpr int kMaskTileH = static_cast<int>(kMaskRows) + 2 * kMaskRadius;

// Grid: (pixel_blocks_x(w), ceil(h / kMaskRows)); block (kPixelThreadsX,
// kPixelThreadsY).
static __global__ void __launch_bounds__(kPixelThreads)
    mask_kernel(const std::uint8_t* flags, unsigned w, unsigned h, int threshold,
                std::uint8_t* mask) {
  __shared__ std::uint8_t s_flags[kMaskTileH][kMaskTileW];
  __shared__ int s_rows[kMaskTileH][kPixelThreadsX];  // tile row r's window sum at column c
  const int t = static_cast<int>(threadIdx.y * kPixelThreadsX + threadIdx.x);
  const int bx = static_cast<int>(blockIdx.x * kPixelThreadsX);
  const int by = static_cast<int>(blockIdx.y * kMaskRows);
  for (int i = t; i < kMaskTileH * kMaskTileW; i += static_cast<int>(kPixelThreads)) {
    const int r = i / kMaskTileW;
    const int c = i % kMaskTileW;
    const int yy = by - kMaskRadius + r;
    const int xx = bx - kMaskRadius + c;
    const bool inside = yy >= 0 && yy < static_cast<int>(h) && xx >= 0 && xx < static_cast<int>(w);
    s_flags[r][c] =
        inside ? flags[static_cast<std::size_t>(yy) * w + static_cast<std::size_t>(xx)] : 0;
  }
  __syncthreads();
  for (int i = t; i < kMaskTileH * static_cast<int>(kPixelThreadsX);
       i += static_cast<int>(kPixelThreads)) {
    const int r = i / static_cast<int>(kPixelThreadsX);
    const int c = i % static_cast<int>(kPixelThreadsX);
    int sum = 0;
    for (int k = 0; k < kMaskFilterSize; ++k) sum += s_flags[r][c + k];
    s_rows[r][c] = sum;
  }
  __syncthreads();
  const unsigned x = static_cast<unsigned>(bx) + threadIdx.x;
  if (x >= w) return;
  for (unsigned ty = threadIdx.y; ty < kMaskRows; ty += kPixelThreadsY) {
    const unsigned y = static_cast<unsigned>(by) + ty;
    if (y >= h) break;
    int count = 0;
    for (int k = 0; k < kMaskFilterSize; ++k) count += s_rows[ty + k][threadIdx.x];
    mask[std::size_t{y} * w + x] = static_cast<std::uint8_t>(count > threshold);
  }
}

// dst: every second sample of every second row of the w x h src.
template <typename T>
static __global__ void __launch_bounds__(kPixelThreads)
    decimate_kernel(const T* src, unsigned w, unsigned h, T* dst) {
  const unsigned w2 = (w + 1) / 2;
  const unsigned h2 = (h + 1) / 2;
  const unsigned x = blockIdx.x * kPixelThreadsX + threadIdx.x;
  const unsigned y = blockIdx.y * kPixelThreadsY + threadIdx.y;
  if (x >= w2 || y >= h2) return;
  dst[std::size_t{y} * w2 + x] = src[std::size_t{2 * y} * w + 2 * x];
}

// ---------------------------------------------------------------------------
// One scale: the mode filter and the codes

struct ModeArgs {
  const std::uint16_t* img;  // the scale, w x h
  const std::uint8_t* mask;
  unsigned width;
  unsigned height;
  std::uint16_t band_base;
  std::uint16_t band_size;
  std::uint16_t* codes;     // w x h
  std::uint16_t* next_img;  // null at the last scale
  std::uint8_t* next_mask;
};

// The horizontal mode of (x, y): its row's samples x - 1 .. x + 1, the end
// samples kept.
__device__ inline std::uint16_t horizontal_mode_at(const ModeArgs& a, unsigned x, unsigned y) {
  const std::uint16_t* row = a.img + std::size_t{y} * a.width;
  if (x == 0 || x + 1 == a.width) return row[x];
  return mode3(row[x - 1], row[x], row[x + 1]);
}

static __global__ void __launch_bounds__(kPixelThreads) mode_codes_kernel(ModeArgs a) {
  const unsigned x = blockIdx.x * kPixelThreadsX + threadIdx.x;
  const unsigned y = blockIdx.y * kPixelThreadsY + threadIdx.y;
  if (x >= a.width || y >= a.height) return;
  const std::size_t at = std::size_t{y} * a.width + x;
  const std::uint16_t level = y == 0 || y + 1 == a.height ? a.img[at]
                                                          : mode3(horizontal_mode_at(a, x, y - 1),
                                                                  horizontal_mode_at(a, x, y),
                                                                  horizontal_mode_at(a, x, y + 1));
  const std::uint8_t flat = a.mask[at];
  a.codes[at] = code_of(level, flat, a.band_base, a.band_size);
  if (a.next_img != nullptr && x % 2 == 0 && y % 2 == 0) {
    const std::size_t next = std::size_t{y / 2} * ((a.width + 1) / 2) + x / 2;
    a.next_img[next] = level;
    a.next_mask[next] = flat;
  }
}

// ---------------------------------------------------------------------------
// One scale: the contrast values

// The counts of the 2 K + 1 codes q - K .. q + K (fields 0 .. 2 K) in a
// window, for one pixel of code q: 16-bit fields (a window holds at most
// 65 * 65 pixels), two to a word, in registers.
template <unsigned K>
struct WindowCounts {
  static constexpr unsigned kFields = 2 * K + 1;
  static constexpr unsigned kWords = K + 1;
  static constexpr unsigned kFieldBits = 16;
  static constexpr std::uint32_t kFieldMask = (1U << kFieldBits) - 1;
  std::uint32_t word[kWords];

  __device__ void reset() {
    for (unsigned i = 0; i < kWords; ++i) word[i] = 0;
  }
  // Adds (or removes) one pixel of `code`; codes more than K from q (and
  // kNoCode) are not counted.
  __device__ void change(std::uint32_t code, std::uint32_t q, bool add) {
    const std::uint32_t f = code + K - q;  // wraps for codes below q - K
    if (f >= kFields) return;
    const std::uint32_t one = 1U << ((f % 2) * kFieldBits);
    for (unsigned i = 0; i < kWords; ++i) {
      const std::uint32_t step = f / 2 == i ? one : 0U;
      word[i] = add ? word[i] + step : word[i] - step;
    }
  }
  [[nodiscard]] __device__ int at(unsigned f) const {
    return static_cast<int>((word[f / 2] >> ((f % 2) * kFieldBits)) & kFieldMask);
  }
};

struct ValueArgs {
  const std::uint16_t* codes;  // the scale's codes, w x h
  unsigned width;
  unsigned height;
  unsigned radius;
  const float* reciprocal;  // libvmaf's table (contrast.hpp)
  float* values;            // w x h
  ScaleSums* sums;
  unsigned* buckets;  // kBucketCount: values per bucket (bucket 0 left out)
};

// One window row (tile row `row`, columns col .. col + 2 r) into the counts.
template <unsigned K>
__device__ inline void count_row(WindowCounts<K>& n, const std::uint16_t* tile, unsigned span,
                                 unsigned row, unsigned col, unsigned side, std::uint32_t q,
                                 bool add) {
  const std::uint16_t* codes = tile + std::size_t{row} * span + col;
  for (unsigned j = 0; j < side; ++j) n.change(codes[j], q, add);
}

// The contrast value of a pixel of code q from its window's counts: the
// largest c_d over the level differences from the code's first one, as the
// CPU's short_run() and long_run() (contrast.cpp) take them.
template <unsigned K>
__device__ inline float contrast_value(const WindowCounts<K>& n, const ContrastArgs& t,
                                       const float* reciprocal, std::uint32_t q) {
  const int own = n.at(K);
  const unsigned first = t.first_diff[q];
  float best = 0.0f;
  for (unsigned d = 0; d < K; ++d) {
    if (d < first) continue;
    const int up = n.at(K + d + 1);
    const int down = n.at(K - d - 1);
    const int other = up > down ? up : down;
    const float value = contrast_term(t.weights[d], own, other, reciprocal[own + other]);
    best = value > best ? value : best;
  }
  return best;
}

// K = num_diffs. Every thread of the block reaches `count.add` (no early
// return): the device's add_exact_block synchronises the block.
template <unsigned K, typename Count>
static __global__ void __launch_bounds__(kValueThreads)
    values_kernel(ValueArgs a, ContrastArgs t, Count count) {
  __shared__ std::uint16_t tile[kTileSpanX * kTileSpanY];
  __shared__ unsigned buckets[kBucketCount];  // the block's histogram
  const unsigned r = a.radius;
  const unsigned side = 2 * r + 1;
  const unsigned span = kTileWidth + 2 * r;  // a tile row
  const unsigned span_rows = kTileHeight + 2 * r;
  const int x0 = static_cast<int>(blockIdx.x * kTileWidth);
  const int y0 = static_cast<int>(blockIdx.y * kTileHeight);
  const unsigned thread = threadIdx.y * kPixelThreadsX + threadIdx.x;
  for (unsigned b = thread; b < kBucketCount; b += kValueThreads) buckets[b] = 0;
  for (unsigned i = thread; i < span * span_rows; i += kValueThreads) {
    const int gy = y0 - static_cast<int>(r) + static_cast<int>(i / span);
    const int gx = x0 - static_cast<int>(r) + static_cast<int>(i % span);
    const bool inside =
        gx >= 0 && gy >= 0 && gx < static_cast<int>(a.width) && gy < static_cast<int>(a.height);
    tile[i] = inside
                  ? a.codes[static_cast<std::size_t>(gy) * a.width + static_cast<std::size_t>(gx)]
                  : kNoCode;
  }
  __syncthreads();

  WindowCounts<K> n;
  n.reset();
  std::uint32_t counted = kNoCode;  // the code whose window n holds (for row - 1)
  unsigned long long units = 0;
  unsigned long long nonzero = 0;
  const unsigned lx = threadIdx.x;
  const unsigned gx = static_cast<unsigned>(x0) + lx;
  for (unsigned k = 0; k < kRowsPerThread; ++k) {
    const unsigned ly = threadIdx.y * kRowsPerThread + k;
    const unsigned gy = static_cast<unsigned>(y0) + ly;
    if (gx >= a.width || gy >= a.height) continue;
    // The window of tile pixel (lx, ly) is tile rows ly .. ly + 2 r,
    // columns lx .. lx + 2 r.
    const std::uint32_t q = tile[std::size_t{ly + r} * span + lx + r];
    float value = 0.0f;
    if (q != kNoCode) {
      if (q == counted) {  // the row above had the same code: slide its window down
        count_row(n, tile, span, ly - 1, lx, side, q, false);
        count_row(n, tile, span, ly + 2 * r, lx, side, q, true);
      } else {
        n.reset();
        for (unsigned row = ly; row < ly + side; ++row)
          count_row(n, tile, span, row, lx, side, q, true);
      }
      value = contrast_value(n, t, a.reciprocal, q);
    }
    counted = q;
    a.values[std::size_t{gy} * a.width + gx] = value;
    units += value_units(value);
    nonzero += value > 0.0f ? 1U : 0U;
    const std::uint32_t b = bucket_of(value);
    if (b != 0) count.bump(buckets + b);
  }
  __syncthreads();  // the block's histogram is complete
  for (unsigned b = thread; b < kBucketCount; b += kValueThreads) {
    if (buckets[b] != 0) count.add_to(a.buckets + b, buckets[b]);
  }
  count.add(&a.sums->units, units);
  count.add(&a.sums->nonzero, nonzero);
}

// ---------------------------------------------------------------------------
// Host helpers

// The kernel arguments of a configuration's contrast tables.
template <typename Tables>
ContrastArgs contrast_args(const Tables& t) {
  ContrastArgs a{};
  for (unsigned code = 0; code < t.band_size; ++code) a.first_diff[code] = t.first_diff[code];
  for (unsigned d = 0; d < kMaxDiffs; ++d) a.weights[d] = t.weights[d];
  a.band_base = static_cast<std::uint16_t>(t.band_base);
  a.band_size = static_cast<std::uint16_t>(t.band_size);
  return a;
}

// Grids of the per-pixel kernels and of values_kernel.
inline unsigned pixel_blocks_x(unsigned w) { return ceil_div(w, kPixelThreadsX); }
inline unsigned pixel_blocks_y(unsigned h) { return ceil_div(h, kPixelThreadsY); }
inline unsigned tile_blocks_x(unsigned w) { return ceil_div(w, kTileWidth); }
inline unsigned tile_blocks_y(unsigned h) { return ceil_div(h, kTileHeight); }

}  // namespace vqx::cambi

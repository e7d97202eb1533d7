// SSIMULACRA2's GPU kernels and the host helpers for their arguments:
// everything of the twin that needs no device runtime (the buffers, launches
// and streams are in gpu.cu). Kept free of the runtime so that a device-free
// test runs these very kernels on the CPU, one host thread per GPU thread
// (tests/unit/ssimulacra2_kernels_test.cpp), against the CPU twin.
//
// One frame, for pictures a (reference) and b (distorted):
//  * first_level_kernel: one thread per pixel of scale 1 (a 2x2 quad of
//    scale 0) and picture: the quad's samples to linear RGB (pointwise.hpp:
//    normalised, rgb_prime, curve_value from the uploaded table), their XYB
//    (positive_xyb) into scale 0's planes, the quad's box (box) into scale
//    1's linear RGB and its XYB into scale 1's planes;
//  * next_level_kernel: the same from scale s's linear RGB to scale s + 1;
//  * per scale, horizontal_kernel: a block per 32 rows and channel, a thread
//    per row and quantity (a^2, b^2, ab, a, b: recursion.hpp's quantity),
//    walking its row through recursion.hpp's single and block steps in the
//    CPU's schedule (blocks_end), columns staged through shared memory
//    kChunk at a time (the inputs in, the outputs out, so that the device
//    reads and writes whole rows), the next kChunk columns loaded while
//    these are filtered;
//  * columns_kernel: a thread per column and channel, walking its column
//    through vertical_filter for the five quantities and adding each
//    pixel's error-map terms (pixel_errors, pixel_terms) to the column's
//    sums: params.hpp's order, the CPU's (maps.cpp);
//  * finish_kernel: per channel and sum, the columns added in order from
//    0.0, as the CPU adds them (maps.cpp's add_columns), read through shared
//    tiles. The host turns the sums into norms and the score with the CPU's
//    own functions (score.hpp).
// No atomics: every sum has one fixed order, whatever the block scheduling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/device_quad.cuh"
#include "core/device_unroll.hpp"
#include "core/index_math.hpp"
#include "metrics/ssimulacra2/maps.hpp"
#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/pointwise.hpp"
#include "metrics/ssimulacra2/recursion.hpp"

namespace vqx::ssimulacra2 {

// The kernels are static: this header is compiled by the twin's .cu and, as
// host code, by the device-free kernel test (tests/unit/gpu_on_host.hpp);
// internal linkage keeps the launch stubs of a CUDA build and the test's
// host functions of the same names from meeting at link time.

// ---------------------------------------------------------------------------
// What the kernels read and write

// Float planes of one scale: plane i at data + i * plane, rows `pitch`
// floats apart, width x height used. XYB and linear RGB: plane picture * 3
// + channel (picture 0 = a, 1 = b). The blurred quantities: plane channel *
// kQuantities + quantity.
struct Planes {
  float* data;
  std::size_t pitch;  // floats
  std::size_t plane;  // floats
  int width;
  int height;
  [[nodiscard]] constexpr float* row(unsigned index, int y) const {
    return data + plane * index + pitch * static_cast<std::size_t>(y);
  }
};

inline constexpr unsigned kPictures = 2;
inline constexpr unsigned kChannels = 3;
// XYB or linear RGB plane of picture p, channel c.
constexpr unsigned colour_plane(unsigned p, unsigned c) { return p * kChannels + c; }
// Blurred plane of quantity q, channel c.
constexpr unsigned blurred_plane(unsigned c, unsigned q) { return c * kQuantities + q; }

// A picture's Y'CbCr planes as uploaded (pitch in bytes); 4:0:0 has luma
// only. Chroma sample (x >> shift_x, y >> shift_y) covers luma (x, y).
template <typename Sample>
struct YcbcrView {
  const std::uint8_t* plane[3];
  std::size_t pitch[3];
  int shift_x;
  int shift_y;
  bool grey;
  __device__ float at(int p, int x, int y) const {
    const auto* r =
        reinterpret_cast<const Sample*>(plane[p] + pitch[p] * static_cast<std::size_t>(y));
    return static_cast<float>(r[x]);
  }
};

// The transfer curve: colour.cpp's TransferCurve, its table on the device.
struct CurveView {
  const float* table;
  float threshold;
  float inv_slope;
};

struct ColourArgs {
  YcbcrCoefficients coef;
  CurveView curve;
  float neg_cbrt_bias;  // xyb.hpp's neg_cbrt_bias(), computed on the host
};

// ---------------------------------------------------------------------------
// The scales, as both the twin and the device-free test lay them out

struct Level {
  int width;
  int height;
  std::size_t pitch;  // floats
  [[nodiscard]] std::size_t plane() const { return pitch * static_cast<std::size_t>(height); }
};

// Rows of every plane start at a multiple of this many floats.
inline constexpr std::size_t kPitchFloats = 32;

// The scales the CPU computes (cpu.hpp's scale_count gives `count`): scale 0
// is the picture, each next one half as large, rounded up.
inline std::vector<Level> gpu_levels(unsigned width, unsigned height, unsigned count) {
  std::vector<Level> levels;
  auto w = static_cast<int>(width);
  auto h = static_cast<int>(height);
  for (unsigned s = 0; s < count; ++s) {
    levels.push_back({w, h, round_up(static_cast<std::size_t>(w), kPitchFloats)});
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
  return levels;
}

// ---------------------------------------------------------------------------
// Colour: samples to linear RGB and XYB; the pyramid

inline constexpr unsigned kPixelsX = 32;
inline constexpr unsigned kPixelsY = 8;

template <typename Sample>
__device__ Rgb linear_pixel(const YcbcrView<Sample>& v, const ColourArgs& a, int x, int y) {
  const YcbcrCoefficients& c = a.coef;
  const CurveView& k = a.curve;
  const float luma = normalised(v.at(0, x, y), c.luma_offset, c.luma_scale);
  if (v.grey) {
    const float g = curve_value(clamp01(luma), k.table, k.threshold, k.inv_slope);
    return {g, g, g};
  }
  const int cx = x >> v.shift_x;
  const int cy = y >> v.shift_y;
  const float pb = normalised(v.at(1, cx, cy), c.chroma_offset, c.chroma_scale);
  const float pr = normalised(v.at(2, cx, cy), c.chroma_offset, c.chroma_scale);
  const Rgb p = rgb_prime(luma, pb, pr, c);
  return {curve_value(p.r, k.table, k.threshold, k.inv_slope),
          curve_value(p.g, k.table, k.threshold, k.inv_slope),
          curve_value(p.b, k.table, k.threshold, k.inv_slope)};
}

__device__ inline void write_xyb(const Planes& xyb, unsigned p, int x, int y, const Rgb& v,
                                 float neg_cbrt_bias) {
  const Xyb o = positive_xyb(v.r, v.g, v.b, neg_cbrt_bias);
  xyb.row(colour_plane(p, 0), y)[x] = o.x;
  xyb.row(colour_plane(p, 1), y)[x] = o.y;
  xyb.row(colour_plane(p, 2), y)[x] = o.b;
}

// The box of a 2x2 quad of linear RGB (rows 0, 1; columns 0, 1), written to
// the next scale's linear planes at (x, y), and its XYB.
__device__ inline void write_box(const Rgb (&q)[2][2], unsigned p, int x, int y, const Planes& lin,
                                 const Planes& xyb, float neg_cbrt_bias) {
  const Rgb v = {box(q[0][0].r, q[0][1].r, q[1][0].r, q[1][1].r),
                 box(q[0][0].g, q[0][1].g, q[1][0].g, q[1][1].g),
                 box(q[0][0].b, q[0][1].b, q[1][0].b, q[1][1].b)};
  lin.row(colour_plane(p, 0), y)[x] = v.r;
  lin.row(colour_plane(p, 1), y)[x] = v.g;
  lin.row(colour_plane(p, 2), y)[x] = v.b;
  write_xyb(xyb, p, x, y, v, neg_cbrt_bias);
}

// Grid: scale 1's size over kPixelsX x kPixelsY, z = picture.
template <typename Sample>
static __global__ void __launch_bounds__(kPixelsX* kPixelsY)
    first_level_kernel(YcbcrView<Sample> a, YcbcrView<Sample> b, ColourArgs args, Planes xyb0,
                       Planes lin1, Planes xyb1) {
  const int ox = static_cast<int>(blockIdx.x * kPixelsX + threadIdx.x);
  const int oy = static_cast<int>(blockIdx.y * kPixelsY + threadIdx.y);
  const unsigned p = blockIdx.z;
  if (ox >= lin1.width || oy >= lin1.height) return;
  // A copy, not a reference: a reference chosen at run time between two
  // kernel arguments would have both copied to local memory.
  const YcbcrView<Sample> src = p == 0 ? a : b;
  // Columns and rows of the quad, an index past the picture clamped (the
  // box then counts the last column or row twice; its XYB is written once).
  const int xs[2] = {2 * ox, 2 * ox + 1 < xyb0.width ? 2 * ox + 1 : 2 * ox};
  const int ys[2] = {2 * oy, 2 * oy + 1 < xyb0.height ? 2 * oy + 1 : 2 * oy};
  Rgb q[2][2];
  // Unrolled, so that q, xs and ys stay in registers.
  VQX_UNROLL
  for (int r = 0; r < 2; ++r) {
    VQX_UNROLL
    for (int c = 0; c < 2; ++c) {
      q[r][c] = linear_pixel(src, args, xs[c], ys[r]);
      if ((c == 0 || xs[1] != xs[0]) && (r == 0 || ys[1] != ys[0])) {
        write_xyb(xyb0, p, xs[c], ys[r], q[r][c], args.neg_cbrt_bias);
      }
    }
  }
  write_box(q, p, ox, oy, lin1, xyb1, args.neg_cbrt_bias);
}

// Scale s's linear RGB (`lin`) to scale s + 1's (`lin_next`) and its XYB.
// Grid: scale s + 1's size over kPixelsX x kPixelsY, z = picture.
static __global__ void __launch_bounds__(kPixelsX* kPixelsY)
    next_level_kernel(Planes lin, Planes lin_next, Planes xyb_next, float neg_cbrt_bias) {
  const int ox = static_cast<int>(blockIdx.x * kPixelsX + threadIdx.x);
  const int oy = static_cast<int>(blockIdx.y * kPixelsY + threadIdx.y);
  const unsigned p = blockIdx.z;
  if (ox >= lin_next.width || oy >= lin_next.height) return;
  const int xs[2] = {2 * ox, 2 * ox + 1 < lin.width ? 2 * ox + 1 : 2 * ox};
  const int ys[2] = {2 * oy, 2 * oy + 1 < lin.height ? 2 * oy + 1 : 2 * oy};
  Rgb q[2][2];
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      q[r][c] = {lin.row(colour_plane(p, 0), ys[r])[xs[c]],
                 lin.row(colour_plane(p, 1), ys[r])[xs[c]],
                 lin.row(colour_plane(p, 2), ys[r])[xs[c]]};
    }
  }
  write_box(q, p, ox, oy, lin_next, xyb_next, neg_cbrt_bias);
}

// ---------------------------------------------------------------------------
// The blur

// Horizontal: rows per block (a thread per row and quantity), columns per
// step, and the columns of the staged tile before and after the step's (the
// inputs reach 2N back at the warm-up and N - 1 ahead).
inline constexpr int kBlurRows = 32;
inline constexpr int kChunk = 32;
inline constexpr int kLead = 16;
inline constexpr int kTile = kChunk + 2 * kLead;
static_assert(kLead >= 2 * kBlurRadius && kLead >= kBlurRadius - 1, "the tile holds every input");
static_assert(kChunk % kBlockOutputs == 0, "a block of outputs never straddles two steps");

using TileRow = float[kTile + 1];  // padded: the rows' threads read different banks
using ChunkRow = float[kChunk + 1];

// The outputs' stores: four floats at once (a 16-byte store; every plane's
// rows start at a multiple of kPitchFloats floats, and a step at a multiple
// of kChunk columns), a warp's lanes covering kRowsPerStore rows of a step.
inline constexpr int kQuadsPerRow = kChunk / kQuadFloats;
inline constexpr int kRowsPerStore = kBlurRows / kQuadsPerRow;
static_assert(kChunk % kQuadFloats == 0 && kPitchFloats % kQuadFloats == 0,
              "a quad never straddles a row");
static_assert(kBlurRows % kQuadsPerRow == 0, "a warp stores whole rows");

// Row `row` of the tile, quantity Q: outputs first .. end - 1 of the step
// starting at column c0, into out (column n at n - c0; warm-up outputs,
// n < 0, dropped).
template <unsigned Q>
__device__ void horizontal_step(const TileRow* a, const TileRow* b, int row, int c0, int first,
                                int end, const BlurCoefficients& k, int blocks,
                                LineState<float>& st, ChunkRow* out) {
  const int base = c0 - kLead;  // the tile's first column
  const auto input = [&](int n) {
    const int l = n - kBlurRadius - 1 - base;
    const int r = l + 2 * kBlurRadius;
    return quantity<Q>(a[row][l], b[row][l]) + quantity<Q>(a[row][r], b[row][r]);
  };
  int n = first;
  while (n < end) {
    if (starts_block(n, blocks)) {
      float s[kBlockOutputs];
      float o[kBlockOutputs];
      for (int i = 0; i < kBlockOutputs; ++i) s[i] = input(n + i);
      block_step(s, k, st, o);
      for (int i = 0; i < kBlockOutputs; ++i) out[row][n + i - c0] = o[i];
      n += kBlockOutputs;
    } else {
      const float v = single_step(input(n), k, st);
      if (n >= 0) out[row][n - c0] = v;
      ++n;
    }
  }
}

// The tile of chunk c0 as each thread loads it: warp w (the threads of
// quantity w) takes rows w, w + kQuantities, ..., a lane columns lane,
// lane + kBlurRows, ..., both pictures, 0 outside the picture. Held in registers one
// chunk ahead: the loads of the next chunk are issued before this chunk's
// recursion and are in flight while it runs.
inline constexpr int kBlurThreads = kBlurRows * static_cast<int>(kQuantities);
inline constexpr int kTileRowsPerWarp =
    (kBlurRows + static_cast<int>(kQuantities) - 1) / static_cast<int>(kQuantities);
inline constexpr int kTileColsPerLane = kTile / kBlurRows;
static_assert(kTile % kBlurRows == 0, "a warp loads whole tile rows");

struct TileLoads {
  float a[kTileRowsPerWarp][kTileColsPerLane];
  float b[kTileRowsPerWarp][kTileColsPerLane];
};

// The tile row that warp `warp` loads (and stores) in its turn m.
constexpr int tile_row(unsigned warp, int m) {
  return static_cast<int>(warp) + m * static_cast<int>(kQuantities);
}

__device__ inline void load_tile(const Planes& xyb, unsigned c, int y0, int c0, unsigned warp,
                                 int lane, TileLoads& v) {
  if (c0 - kLead >= 0 && c0 - kLead + kTile <= xyb.width && y0 + kBlurRows <= xyb.height) {
    // The whole tile inside the picture (all chunks but a row's first and
    // last, in all blocks of rows but the last): no test a sample, and each
    // row's address the last one's plus kQuantities rows.
    const int y = y0 + static_cast<int>(warp);
    const int x = c0 - kLead + lane;
    const float* ra = xyb.row(colour_plane(0, c), y) + x;
    const float* rb = xyb.row(colour_plane(1, c), y) + x;
    const std::size_t step = xyb.pitch * kQuantities;
    for (int m = 0; m < kTileRowsPerWarp; ++m, ra += step, rb += step) {
      const bool row_inside = tile_row(warp, m) < kBlurRows;
      for (int j = 0; j < kTileColsPerLane; ++j) {
        v.a[m][j] = row_inside ? ra[j * kBlurRows] : 0.0f;
        v.b[m][j] = row_inside ? rb[j * kBlurRows] : 0.0f;
      }
    }
    return;
  }
  for (int m = 0; m < kTileRowsPerWarp; ++m) {
    const int r = tile_row(warp, m);
    const bool row_inside = r < kBlurRows && y0 + r < xyb.height;
    const float* ra = row_inside ? xyb.row(colour_plane(0, c), y0 + r) : nullptr;
    const float* rb = row_inside ? xyb.row(colour_plane(1, c), y0 + r) : nullptr;
    for (int j = 0; j < kTileColsPerLane; ++j) {
      const int x = c0 - kLead + lane + j * kBlurRows;
      const bool inside = row_inside && x >= 0 && x < xyb.width;
      v.a[m][j] = inside ? ra[x] : 0.0f;
      v.b[m][j] = inside ? rb[x] : 0.0f;
    }
  }
}

// The staged tile has a row for every row a warp loads, kBlurRows and the
// few past them that some warps' last turn reaches (never read), so that
// the stores need no test: one address a picture, the rest immediate
// offsets.
inline constexpr int kTileRows = kTileRowsPerWarp * static_cast<int>(kQuantities);

__device__ inline void store_tile(const TileLoads& v, unsigned warp, int lane, TileRow* a,
                                  TileRow* b) {
  for (int m = 0; m < kTileRowsPerWarp; ++m) {
    const int r = tile_row(warp, m);
    for (int j = 0; j < kTileColsPerLane; ++j) {
      a[r][lane + j * kBlurRows] = v.a[m][j];
      b[r][lane + j * kBlurRows] = v.b[m][j];
    }
  }
}

// Grid: (ceil(height / kBlurRows), kChannels); block: (kBlurRows,
// kQuantities). `blocks` is blocks_end(width).
static __global__ void __launch_bounds__(kBlurThreads, 4)
    horizontal_kernel(Planes xyb, BlurCoefficients coefficients, int blocks, Planes out) {
  // The coefficients go to registers through shared memory: read from the
  // parameters, they stay in the constant bank, and ptxas, short of uniform
  // registers for all 36, reloads 16 of them in every block of outputs
  // (ULDC, an eighth of the recursion's instructions). The launch bound
  // keeps the kernel at 96 registers (four blocks an SM), as before: at
  // 128 it cost the 18 features 2 to 3 % at 4K, where its blocks share the
  // SMs with the other twins' (docs/gpu.md, "ssimulacra2's horizontal pass
  // without constant reloads").
  __shared__ BlurCoefficients s_coefficients;
  if (threadIdx.x == 0 && threadIdx.y == 0) s_coefficients = coefficients;
  __syncthreads();
  const BlurCoefficients k = s_coefficients;
  __shared__ TileRow s_a[kTileRows];
  __shared__ TileRow s_b[kTileRows];
  __shared__ ChunkRow s_out[kQuantities][kBlurRows];
  const int row = static_cast<int>(threadIdx.x);
  const unsigned q = threadIdx.y;
  const unsigned c = blockIdx.y;
  const int y0 = static_cast<int>(blockIdx.x) * kBlurRows;
  const int w = xyb.width;
  const int h = xyb.height;
  LineState<float> st;
  TileLoads next;
  load_tile(xyb, c, y0, 0, q, row, next);
  for (int c0 = 0; c0 < w; c0 += kChunk) {
    // The previous chunk's recursion has read the tile (the barrier after
    // it), so its successor goes in.
    store_tile(next, q, row, s_a, s_b);
    __syncthreads();
    if (c0 + kChunk < w) load_tile(xyb, c, y0, c0 + kChunk, q, row, next);
    if (y0 + row < h) {
      const int first = c0 == 0 ? 1 - kBlurRadius : c0;
      const int end = c0 + kChunk < w ? c0 + kChunk : w;
      ChunkRow* o = s_out[q];
      switch (q) {
        case kAA:
          horizontal_step<kAA>(s_a, s_b, row, c0, first, end, k, blocks, st, o);
          break;
        case kBB:
          horizontal_step<kBB>(s_a, s_b, row, c0, first, end, k, blocks, st, o);
          break;
        case kAB:
          horizontal_step<kAB>(s_a, s_b, row, c0, first, end, k, blocks, st, o);
          break;
        case kA:
          horizontal_step<kA>(s_a, s_b, row, c0, first, end, k, blocks, st, o);
          break;
        default:
          horizontal_step<kB>(s_a, s_b, row, c0, first, end, k, blocks, st, o);
          break;
      }
    }
    __syncthreads();
    // The step's outputs to memory, whole rows per warp. (The next step's
    // writes of s_out come after its first barrier, which every thread
    // reaches only once it has written these.)
    if (c0 + kChunk <= w) {
      // A whole step (all but a row's last): lane `row` writes columns c0 +
      // cx .. c0 + cx + 3 of rows row / kQuadsPerRow, + kRowsPerStore, ...:
      // four values a store, a quarter of the stores and their addresses.
      const int cx = (row % kQuadsPerRow) * kQuadFloats;
      const int rows = h - y0 < kBlurRows ? h - y0 : kBlurRows;
      int r = row / kQuadsPerRow;
      float* to = out.row(blurred_plane(c, q), y0 + r) + c0 + cx;
      const std::size_t stride = out.pitch * kRowsPerStore;
      // Not unrolled: unrolled, the loop took the kernel from 96 registers
      // to 128 (three blocks an SM instead of four).
      VQX_NO_UNROLL
      for (; r < rows; r += kRowsPerStore, to += stride) store_quad(to, &s_out[q][r][cx]);
    } else {
      // The last step: thread `row` writes column c0 + row.
      const int x = c0 + row;
      if (x < w) {
        for (int r = 0; r < kBlurRows && y0 + r < h; ++r) {
          out.row(blurred_plane(c, q), y0 + r)[x] = s_out[q][r][row];
        }
      }
    }
  }
}

// The vertical pass and the error maps in one kernel: a thread per column
// and channel walks its column down through vertical_filter for the five
// quantities and adds each pixel's error-map terms (pixel_errors,
// pixel_terms) to the column's sums as it goes: params.hpp's order, the
// CPU's (maps.cpp). Nothing blurred twice goes through memory. Output n's
// input sum adds rows n - N - 1 (top) and n + N - 1 (bottom) of the
// horizontal pass; the top row is the bottom row of output n - 2N, so each
// thread keeps the bottoms of its last 2N outputs in a ring in shared
// memory (its own slots: no barrier). The bottoms and the pictures' samples
// of kColumnBatch outputs are loaded a batch ahead of their use, so that
// the loads are in flight while the recursion runs.
inline constexpr unsigned kColumnThreads = 64;
inline constexpr int kRing = 2 * kBlurRadius;
inline constexpr int kColumnBatch = 4;

struct ColumnRows {
  float bottom[kColumnBatch][kQuantities];
  float a[kColumnBatch];
  float b[kColumnBatch];
};

// Outputs n0 .. n0 + kColumnBatch - 1 of column x: their bottom rows (0
// below the input) and, for the rows of the picture, its samples.
// A row's five quantities are a plane apart, and its two samples three
// planes: each is read one plane (or three) past the last, one pointer
// addition, not an address formed from plane, row and column a load.
__device__ inline void column_rows(const Planes& xyb, const Planes& in, unsigned c, int x, int n0,
                                   ColumnRows& r) {
  for (int i = 0; i < kColumnBatch; ++i) {
    const int n = n0 + i;
    const int bottom = n + kBlurRadius - 1;
    if (bottom < in.height) {
      const float* p = in.row(blurred_plane(c, 0), bottom) + x;
      r.bottom[i][0] = *p;
      for (unsigned q = 1; q < kQuantities; ++q) {
        p += in.plane;
        r.bottom[i][q] = *p;
      }
    } else {
      for (unsigned q = 0; q < kQuantities; ++q) r.bottom[i][q] = 0.0f;
    }
    if (n >= 0 && n < in.height) {
      const float* p = xyb.row(colour_plane(0, c), n) + x;
      r.a[i] = *p;
      r.b[i] = p[xyb.plane * (colour_plane(1, c) - colour_plane(0, c))];
    } else {
      r.a[i] = 0.0f;
      r.b[i] = 0.0f;
    }
  }
}

// Grid: (ceil(width / kColumnThreads), kChannels). column_sums: kMapSums
// per column, the columns of channel 0, then of channel 1, 2.
static __global__ void __launch_bounds__(kColumnThreads)
    columns_kernel(Planes xyb, Planes in, BlurCoefficients k, double* column_sums) {
  __shared__ float s_ring[kRing][kQuantities][kColumnThreads];
  const unsigned t = threadIdx.x;
  const int x = static_cast<int>(blockIdx.x * kColumnThreads + t);
  if (x >= in.width) return;
  const unsigned c = blockIdx.y;
  const int h = in.height;
  // The first 2N outputs' tops lie above the input: 0.
  for (int i = 0; i < kRing; ++i) {
    for (unsigned q = 0; q < kQuantities; ++q) s_ring[i][q][t] = 0.0f;
  }
  float p1[kQuantities][kFilters] = {};
  float p2[kQuantities][kFilters] = {};
  double acc[kMapSums] = {};
  int slot = 0;  // output n's ring slot: (n - (1 - N)) % kRing
  ColumnRows next;
  column_rows(xyb, in, c, x, 1 - kBlurRadius, next);
  // Output n0 + i of a batch, its terms added to the sums where `terms`.
  const auto output = [&](const ColumnRows& rows, int i, bool terms) {
    float blurred[kQuantities];
    VQX_UNROLL
    for (unsigned q = 0; q < kQuantities; ++q) {
      const float bottom = rows.bottom[i][q];
      const float sum = s_ring[slot][q][t] + bottom;
      s_ring[slot][q][t] = bottom;
      float y[kFilters];
      VQX_UNROLL
      for (int f = 0; f < kFilters; ++f) {
        y[f] = vertical_filter(sum, k.n2[f], k.d1[f], p1[q][f], p2[q][f]);
        p2[q][f] = p1[q][f];
        p1[q][f] = y[f];
      }
      blurred[q] = y[0] + (y[1] + y[2]);
    }
    slot = slot + 1 == kRing ? 0 : slot + 1;
    if (terms) {
      const PixelTerms v = pixel_terms(pixel_errors(rows.a[i], rows.b[i], blurred[kA], blurred[kB],
                                                    blurred[kAA], blurred[kBB], blurred[kAB]));
      VQX_UNROLL
      for (unsigned m = 0; m < kMapSums; ++m) acc[m] += v.v[m];
    }
  };
  for (int n0 = 1 - kBlurRadius; n0 < h; n0 += kColumnBatch) {
    const ColumnRows rows = next;
    if (n0 + kColumnBatch < h) column_rows(xyb, in, c, x, n0 + kColumnBatch, next);
    if (n0 >= 0 && n0 + kColumnBatch <= h) {
      // A batch inside the picture (nearly all): no test a row, so that
      // the filters' outputs stay in registers through the batch instead of
      // being moved back after each row (about a fifth of the kernel's
      // instructions: docs/gpu.md, "Instructions a frame").
      VQX_UNROLL
      for (int i = 0; i < kColumnBatch; ++i) output(rows, i, true);
    } else {
      VQX_UNROLL
      for (int i = 0; i < kColumnBatch; ++i) {
        const int n = n0 + i;
        if (n >= h) continue;  // (not break: HIP's Clang would not unroll the loop with an exit)
        output(rows, i, n >= 0);
      }
    }
  }
  double* out = column_sums + (static_cast<std::size_t>(c) * static_cast<std::size_t>(in.width) +
                               static_cast<std::size_t>(x)) *
                                  kMapSums;
  for (unsigned m = 0; m < kMapSums; ++m) out[m] = acc[m];
}

// finish_kernel: one block of kFinishThreads threads. They load the column
// sums kFinishColumns columns at a time into shared memory together
// (independent, coalesced loads); then thread c * kMapSums + m adds its
// sum's column of the tile. A sum's chain waits for memory once a tile, not
// once a column.
inline constexpr unsigned kFinishThreads = 256;
inline constexpr int kFinishColumns = 128;
static_assert(kChannels * kMapSums <= kFinishThreads, "a thread for every sum");

// sums[c * kMapSums + m] = channel c's sum m, its `columns` columns added in
// order from 0.0.
static __global__ void __launch_bounds__(kFinishThreads)
    finish_kernel(const double* column_sums, int columns, double* sums) {
  __shared__ double s_tile[kChannels][kFinishColumns * kMapSums];
  const unsigned t = threadIdx.x;
  const unsigned c = t / kMapSums;
  const unsigned m = t % kMapSums;
  double total = 0.0;
  for (int x0 = 0; x0 < columns; x0 += kFinishColumns) {
    const int n = columns - x0 < kFinishColumns ? columns - x0 : kFinishColumns;
    // Channel ch's columns x0 .. x0 + n - 1 are n * kMapSums doubles in a row.
    for (unsigned ch = 0; ch < kChannels; ++ch) {
      const double* src =
          column_sums + (static_cast<std::size_t>(ch) * static_cast<std::size_t>(columns) +
                         static_cast<std::size_t>(x0)) *
                            kMapSums;
      for (int i = static_cast<int>(t); i < n * static_cast<int>(kMapSums);
           i += static_cast<int>(kFinishThreads)) {
        s_tile[ch][i] = src[i];
      }
    }
    __syncthreads();
    if (t < kChannels * kMapSums) {
      for (int x = 0; x < n; ++x) total += s_tile[c][x * static_cast<int>(kMapSums) + m];
    }
    __syncthreads();
  }
  if (t < kChannels * kMapSums) sums[t] = total;
}

}  // namespace vqx::ssimulacra2

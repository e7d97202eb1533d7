// Integer motion's GPU kernel, free of the runtime, so that a device-free
// test runs it on the CPU, one host thread per GPU thread
// (tests/unit/motion_kernels_test.cpp), against the CPU twin's SAD.
//
// sad_kernel: the sum over the picture of |blur(prev - cur)| (cpu.hpp's
// blurred_difference_sad, params.hpp's taps and roundings). A block makes
// a tile of kSadCols x kSadRows pixels with kSadThreads threads, one per
// column of the tile's vertical pass (its kSadCols columns and kRadius
// either side, mirrored at the picture's sides):
//  * each thread loads the differences of its column's kSadRows + 2 kRadius
//    rows (mirrored at the top and bottom) and filters them vertically into
//    a shared tile; where all those rows lie inside the picture, they are
//    read from one address a picture and loaded before any is used, so that
//    the loads overlap;
//  * after one barrier, each of the tile's columns is filtered
//    horizontally, row after row, and the thread's absolute values summed;
//  * the block's sum goes to the frame's total through `Sum` (the device's
//    gpu/reduce.cuh integer atomics in gpu.cu, a host one in the test):
//    integers, exact in any order.
// The vertical sums of 8-bit differences stay below 2^31 (65536 * 255), so
// they are int32; deeper samples' are int64, as the horizontal sums are
// (their values reach 65535 * 65536).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/index_math.hpp"
#include "metrics/motion/params.hpp"

namespace vqx::motion {

// The kernel is static: this header is compiled by the twin's .cu and, as
// host code, by the device-free test (see ciede/gpu_kernels.cuh).

inline constexpr int kSadThreads = 128;
inline constexpr int kSadCols = kSadThreads - 2 * kRadius;        // output columns per block
inline constexpr int kSadRows = 16;                               // output rows per block
inline constexpr int kSadLoads = kSadRows + 2 * kRadius;          // rows each thread reads
inline constexpr int kTapCount = static_cast<int>(kTaps.size());  // 2 * kRadius + 1

struct SadArgs {
  const void* prev;  // the frame `lag` frames earlier
  std::size_t prev_pitch;
  const void* cur;
  std::size_t cur_pitch;
  int w;
  int h;
  int bpc;
  unsigned long long* total;  // the frame's sum, cleared before the launch
};

// Tap k of the blur, a constant once the loops over the taps are unrolled
// (the table is the function's own: device code cannot read a host array).
__device__ inline std::int32_t tap(int k) {
  constexpr std::array<std::int32_t, kTaps.size()> kTable = kTaps;
  return kTable[static_cast<std::size_t>(k)];
}

template <typename Sample>
__device__ inline std::int32_t sample_at(const void* base, std::size_t pitch, int x, int y) {
  return reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(base) +
                                         pitch * static_cast<std::size_t>(y))[x];
}

// Grid: (ceil(w / kSadCols), ceil(h / kSadRows)); block: kSadThreads.
template <typename Sample, typename Sum>
static __global__ void __launch_bounds__(kSadThreads) sad_kernel(SadArgs a, Sum sum) {
  using VerticalSum = std::conditional_t<sizeof(Sample) == 1, std::int32_t, std::int64_t>;
  __shared__ std::int32_t vert[kSadRows][kSadThreads];
  const int t = static_cast<int>(threadIdx.x);
  const int x = static_cast<int>(blockIdx.x) * kSadCols - kRadius + t;
  const int y0 = static_cast<int>(blockIdx.y) * kSadRows;
  const int rows = a.h - y0 < kSadRows ? a.h - y0 : kSadRows;
  // Columns from w + kRadius on feed no output.
  if (x < a.w + kRadius) {
    const int xr = reflect101(x, a.w);
    std::int32_t d[kSadLoads];
    if (y0 >= kRadius && y0 + kSadRows + kRadius <= a.h) {
      // Every row inside the picture: from one address a picture, a pitch
      // a row, all loaded before any is used.
      const auto* prev = static_cast<const std::uint8_t*>(a.prev) +
                         a.prev_pitch * static_cast<std::size_t>(y0 - kRadius);
      const auto* cur = static_cast<const std::uint8_t*>(a.cur) +
                        a.cur_pitch * static_cast<std::size_t>(y0 - kRadius);
      Sample p[kSadLoads];
      Sample c[kSadLoads];
      for (int i = 0; i < kSadLoads; ++i) {
        p[i] = reinterpret_cast<const Sample*>(prev + a.prev_pitch * i)[xr];
        c[i] = reinterpret_cast<const Sample*>(cur + a.cur_pitch * i)[xr];
      }
      for (int i = 0; i < kSadLoads; ++i) d[i] = std::int32_t{p[i]} - std::int32_t{c[i]};
    } else {
      for (int i = 0; i < kSadLoads; ++i) {
        d[i] = 0;
        if (i < rows + 2 * kRadius) {
          const int yr = reflect101(y0 - kRadius + i, a.h);
          d[i] = sample_at<Sample>(a.prev, a.prev_pitch, xr, yr) -
                 sample_at<Sample>(a.cur, a.cur_pitch, xr, yr);
        }
      }
    }
    const auto round = vertical_round<VerticalSum>(static_cast<unsigned>(a.bpc));
    for (int r = 0; r < kSadRows; ++r) {
      VerticalSum acc = 0;
      for (int k = 0; k < kTapCount; ++k) acc += VerticalSum{tap(k)} * d[r + k];
      vert[r][t] = static_cast<std::int32_t>((acc + round) >> a.bpc);
    }
  }
  __syncthreads();
  unsigned long long v = 0;
  if (t >= kRadius && t < kSadThreads - kRadius && x < a.w) {
    for (int r = 0; r < rows; ++r) {
      std::int64_t acc = 0;
      for (int k = 0; k < kTapCount; ++k) {
        acc += std::int64_t{tap(k)} * vert[r][t - kRadius + k];
      }
      const auto val = static_cast<std::int32_t>((acc + kHorizontalRound) >> kHorizontalShift);
      v += static_cast<unsigned long long>(val < 0 ? -val : val);
    }
  }
  sum.add(a.total, v);
}

}  // namespace vqx::motion

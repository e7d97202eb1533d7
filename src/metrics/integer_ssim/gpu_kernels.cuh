// Integer SSIM's kernels: everything of the twin that needs no device
// runtime (the buffers, launches and the host's finish are in gpu.cu; the
// terms' sum is gpu/chain_sum.cuh's).
// Kept free of the runtime so that a device-free test runs these very
// kernels on the CPU, one thread per GPU thread
// (tests/unit/integer_ssim_kernels_test.cpp), against the CPU twin.
//
//  * horizontal_kernel: one thread per pixel; the window's horizontal sums
//    of x, y, x^2, y^2, x*y over the taps inside the picture (tap_range),
//    add_samples() tap by tap, into five int64 maps: the CPU's ring rows.
//  * terms_kernel: one thread per pixel; the vertical sums of the maps
//    (add_row() tap by tap), the window's weight (pixel_weight) and the
//    pixel's term W * ssim (weighted_ssim()), into a double per pixel in
//    row-major order: the terms of one double chain, which the chain sums
//    (gpu/chain_sums.cuh) add as the CPU twin's add_in_order (score.hpp)
//    and the reference do, one after another from 0.0.
// The sums are exact integers (no order to keep); the term is one
// constexpr function, the same IEEE operations in the same order on both
// twins (docs/gpu.md, "The integer SSIM twin"). No atomics, no shared
// memory: every value is written by one thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/integer_ssim/params.hpp"
#include "metrics/integer_ssim/pointwise.hpp"

namespace vqx::integer_ssim {

// The kernels are static: this header is compiled by the twin's .cu and, as
// host code, by the device-free kernel test (tests/unit/gpu_on_host.hpp);
// internal linkage keeps the launch stubs of a CUDA build and the test's
// host functions of the same names from meeting at link time.

// A luma plane of `Sample`s (uint8 at 8 bits, uint16 above), rows `pitch`
// bytes apart.
template <typename Sample>
struct LumaRows {
  const std::uint8_t* data;
  std::size_t pitch;
  __device__ std::int64_t at(int x, int y) const {
    const auto* row = reinterpret_cast<const Sample*>(data + pitch * static_cast<std::size_t>(y));
    return static_cast<std::int64_t>(row[x]);
  }
};

// The five maps of window sums, each `width` x `height` int64 in row-major
// order, map q at sums + q * map_size.
enum SumMap { kSumX, kSumY, kSumXX, kSumYY, kSumXY, kSumMaps };
struct SumMaps {
  std::int64_t* sums;
  std::size_t map_size;  // width * height
  int width;
  int height;
  __device__ std::size_t at(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
           static_cast<std::size_t>(x);
  }
  __device__ void store(int x, int y, const Moments& m) const {
    const std::size_t i = at(x, y);
    sums[kSumX * map_size + i] = m.x;
    sums[kSumY * map_size + i] = m.y;
    sums[kSumXX * map_size + i] = m.xx;
    sums[kSumYY * map_size + i] = m.yy;
    sums[kSumXY * map_size + i] = m.xy;
  }
  __device__ Moments load(int x, int y) const {
    const std::size_t i = at(x, y);
    Moments m;
    m.x = sums[kSumX * map_size + i];
    m.y = sums[kSumY * map_size + i];
    m.xx = sums[kSumXX * map_size + i];
    m.yy = sums[kSumYY * map_size + i];
    m.xy = sums[kSumXY * map_size + i];
    return m;
  }
};

// A block: 32 columns by 4 rows of pixels.
inline constexpr unsigned kBlockX = 32;
inline constexpr unsigned kBlockY = 4;

template <typename Sample>
static __global__ void __launch_bounds__(kBlockX* kBlockY)
    horizontal_kernel(LumaRows<Sample> ref, LumaRows<Sample> dist, WindowTaps taps, SumMaps out) {
  const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (x >= out.width || y >= out.height) return;
  const TapRange r = tap_range(x, out.width);
  Moments m;
  for (int k = r.first; k < r.end; ++k) {
    const int at = x - kRadius + k;
    add_samples(m, taps.tap[k], ref.at(at, y), dist.at(at, y));
  }
  out.store(x, y, m);
}

static __global__ void __launch_bounds__(kBlockX* kBlockY)
    terms_kernel(SumMaps in, WindowTaps taps, std::int64_t peak_sq, double* terms) {
  const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (x >= in.width || y >= in.height) return;
  const TapRange r = tap_range(y, in.height);
  Moments m;
  for (int k = r.first; k < r.end; ++k) add_row(m, taps.tap[k], in.load(x, y - kRadius + k));
  terms[in.at(x, y)] = weighted_ssim(m, pixel_weight(x, y, in.width, in.height, taps), peak_sq);
}

}  // namespace vqx::integer_ssim

// Daala's 8x8 integer DCT (libvmaf psnr_hvs.c, od_bin_fdct8 / od_bin_fdct8x8),
// bit-exact (pointwise.hpp's fdct8, which the GPU twin calls too), run on
// kLanes blocks at once: every array here is indexed
// [coefficient or sample][lane], so each step is one operation over a row of
// lanes that the compiler turns into vector instructions.
//
// Include only from .cpp files that set up VQX_HVS_LANE_LOOP (see cpu.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/kernel_build.hpp"
#include "metrics/psnr_hvs/params.hpp"
#include "metrics/psnr_hvs/pointwise.hpp"

namespace vqx::psnr_hvs {

// Blocks processed together (one 512-bit vector of int32 or float).
inline constexpr int kLanes = 16;

using LaneRow = std::int32_t[kLanes];

// One 8-point DCT per lane: x[m * xstep][lane] (m = 0..7) -> y[k * ystep][lane].
VQX_FORCE_INLINE void fdct8_lanes(const LaneRow* x, std::ptrdiff_t xstep, LaneRow* y,
                                  std::ptrdiff_t ystep) {
  VQX_HVS_LANE_LOOP
  for (int b = 0; b < kLanes; ++b) {
    std::array<std::int32_t, kBlock> in{};
    for (int m = 0; m < kBlock; ++m) {
      in[m] = x[m * xstep][b];
    }
    const std::array<std::int32_t, kBlock> out = fdct8(in);
    for (int k = 0; k < kBlock; ++k) {
      y[k * ystep][b] = out[k];
    }
  }
}

// The 2-D DCT of kLanes 8x8 blocks, in place: block[i * 8 + j][lane] holds
// sample (row i, column j) on entry and coefficient (vertical frequency i,
// horizontal frequency j) on return. `tmp` is scratch of the same shape.
// Columns are transformed first, then rows, as libvmaf does.
VQX_FORCE_INLINE void fdct8x8_lanes(LaneRow* block, LaneRow* tmp) {
  for (int col = 0; col < kBlock; ++col) {
    fdct8_lanes(block + col, kBlock, tmp + std::ptrdiff_t{col} * kBlock, 1);
  }
  for (int row = 0; row < kBlock; ++row) {
    fdct8_lanes(tmp + row, kBlock, block + std::ptrdiff_t{row} * kBlock, 1);
  }
}

}  // namespace vqx::psnr_hvs

// Daala's 8x8 integer DCT (libvmaf psnr_hvs.c, od_bin_fdct8 / od_bin_fdct8x8),
// bit-exact, run on kLanes blocks at once: every array here is indexed
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

namespace vqx::psnr_hvs {

// Blocks processed together (one 512-bit vector of int32 or float).
inline constexpr int kLanes = 16;

using LaneRow = std::int32_t[kLanes];

namespace dct_detail {

// a / 2 rounded towards zero, as Daala's OD_DCT_RSHIFT(a, 1): add 1 to a
// negative value, then shift arithmetically.
template <typename T>
VQX_FORCE_INLINE T half(T a) {
  return (a + (a < 0 ? T{1} : T{0})) >> 1;
}

// One lifting step's increment: (a * mult + 2^(shift - 1)) >> shift.
template <typename T>
VQX_FORCE_INLINE T lift(T a, Lift l) {
  return (a * l.mult + (std::int32_t{1} << (l.shift - 1))) >> l.shift;
}

}  // namespace dct_detail

// Daala's 8-point DCT of one column of values. Generic in the integer type
// so that the unit test can run it on a range-checking type; the picture
// code runs it on int32_t, as libvmaf does. With samples of at most 12 bits
// no value or product leaves int32 (the unit test checks the worst cases).
template <typename T>
VQX_FORCE_INLINE std::array<T, kBlock> fdct8(const std::array<T, kBlock>& x) {
  using dct_detail::half;
  using dct_detail::lift;
  // Sums and differences of mirrored inputs, each difference halved into
  // its partner so that the steps stay invertible.
  T d07 = x[0] - x[7];
  const T d07h = half(d07);
  T a = x[0] - d07h;
  T s16 = x[1] + x[6];
  const T s16h = half(s16);
  T b6 = x[6] - s16h;
  T d25 = x[2] - x[5];
  T c = x[2] - half(d25);
  T s34 = x[3] + x[4];
  const T s34h = half(s34);
  T e = s34h - x[4];

  // The even half: a 4-point DCT of (a, s16, c, s34) ...
  a += s34h;
  s34 = a - s34;
  c = s16h - c;
  s16 = c - s16;
  // ... made of a 2-point DCT (coefficients 0 and 4) ...
  a -= lift(s16, kTanPi8);
  s16 += lift(a, kSqrtHalf);
  a -= lift(s16, kTanPi8);
  // ... and a 2-point DST-IV (coefficients 2 and 6).
  s34 -= lift(c, kTan3Pi16);
  c += lift(s34, kSin3Pi8);
  s34 -= lift(c, kTan3Pi16);

  // The odd half: a 4-point DST-IV of (d07, b6, d25, e).
  d25 += lift(b6, kTwoMinusSqrt2);
  b6 += lift(d25, kSqrtHalf);
  d25 -= lift(b6, kSqrt2MinusHalf);
  e = half(b6) - e;
  b6 -= e;
  d25 = d07h - d25;
  d07 -= d25;
  // Rotations by pi/16 (coefficients 1 and 7) and 3pi/16 (3 and 5).
  e += lift(d07, kTanPi32);
  d07 -= lift(e, kSinPi16);
  e += lift(d07, kTanPi32);
  b6 += lift(d25, kTan3Pi32);
  d25 -= lift(b6, kSin3Pi16);
  b6 += lift(d25, kTan3Pi32);

  return {a, d07, c, d25, s16, b6, s34, e};
}

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

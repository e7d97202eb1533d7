// The arithmetic of PSNR-HVS at one 8x8 block, written once for both twins:
// the CPU kernel (cpu.cpp, dct.hpp) calls these for kLanes blocks at a time
// and the GPU kernel (gpu_kernels.cuh) for one block per thread. Plain
// constexpr functions: host and device code alike (docs/gpu.md, "Every
// number once"), each integer and float operation of libvmaf's
// (psnr_hvs.c: od_bin_fdct8, calc_psnrhvs) in its order and type, nothing
// fused (cmake/FloatingPoint.cmake, --fmad=false, -ffp-contract=off).
//
// The square root of the masking level is not here (no constexpr root):
// each twin takes the double root with its correctly rounded instruction
// (docs/gpu.md says why the two are equal).
#pragma once

#include <array>
#include <cstdint>

#include "metrics/psnr_hvs/params.hpp"

namespace vqx::psnr_hvs {

// Block origins along a side of n samples: 0, 7, 14, ... while the block
// fits (n >= kBlock).
[[nodiscard]] constexpr unsigned blocks_along(unsigned n) { return (n - kBlock) / kStep + 1; }

namespace dct_detail {

// a / 2 rounded towards zero, as Daala's OD_DCT_RSHIFT(a, 1): add 1 to a
// negative value, then shift arithmetically.
template <typename T>
[[nodiscard]] constexpr T half(T a) {
  return (a + (a < 0 ? T{1} : T{0})) >> 1;
}

// One lifting step's increment: (a * mult + 2^(shift - 1)) >> shift.
template <typename T>
[[nodiscard]] constexpr T lift(T a, Lift l) {
  return (a * l.mult + (std::int32_t{1} << (l.shift - 1))) >> l.shift;
}

}  // namespace dct_detail

// Daala's 8-point DCT of one column of values. Generic in the integer type
// so that the unit test can run it on a range-checking type; the twins run
// it on int32_t, as libvmaf does. With samples of at most 12 bits no value
// or product leaves int32 (the unit test checks the worst cases).
template <typename T>
[[nodiscard]] constexpr std::array<T, kBlock> fdct8(const std::array<T, kBlock>& x) {
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

// The 2-D DCT of one block in place: block[i * 8 + j] holds sample (row i,
// column j) on entry and coefficient (vertical frequency i, horizontal
// frequency j) on return; columns first, then rows, as libvmaf (and
// dct.hpp's fdct8x8_lanes) does. `tmp` is scratch of kBlockArea values.
constexpr void fdct8x8(std::int32_t* block, std::int32_t* tmp) {
  for (int col = 0; col < kBlock; ++col) {
    std::array<std::int32_t, kBlock> in{};
    for (int m = 0; m < kBlock; ++m) in[m] = block[m * kBlock + col];
    const std::array<std::int32_t, kBlock> out = fdct8(in);
    for (int k = 0; k < kBlock; ++k) tmp[col * kBlock + k] = out[k];
  }
  for (int row = 0; row < kBlock; ++row) {
    std::array<std::int32_t, kBlock> in{};
    for (int m = 0; m < kBlock; ++m) in[m] = tmp[m * kBlock + row];
    const std::array<std::int32_t, kBlock> out = fdct8(in);
    for (int k = 0; k < kBlock; ++k) block[row * kBlock + k] = out[k];
  }
}

// A sample's deviation from the mean of `count` samples summing to `sum`:
// the mean is exact (the integer sum fits a float's significand).
[[nodiscard]] constexpr float deviation(std::int32_t v, std::int32_t sum, float count) {
  return static_cast<float>(v) - static_cast<float>(sum) / count;
}
inline constexpr float kBlockCount = static_cast<float>(kBlockArea);
inline constexpr int kQuadrant = kBlock / 2;  // a quadrant's side
inline constexpr float kQuadrantCount = static_cast<float>(kQuadrant * kQuadrant);

// How much of a block's variance lies within its quadrants, from the
// block's and the four quadrants' sums of squared deviations (v0..v3 in
// libvmaf's numbering, below): left at 0 for a flat block (dividing by 1
// instead of g gives that 0, as its quadrant variances are 0 too).
[[nodiscard]] constexpr float ratio_of(float var, float v0, float v1, float v2, float v3) {
  const float g = var * kBlockVarianceScale;
  const float q0 = v0 * kQuadrantVarianceScale;
  const float q1 = v1 * kQuadrantVarianceScale;
  const float q2 = v2 * kQuadrantVarianceScale;
  const float q3 = v3 * kQuadrantVarianceScale;
  const float divisor = g > 0.0f ? g : 1.0f;
  return (q0 + q1 + q2 + q3) / divisor;
}

// The variance ratio of one block of samples, blk[i * 8 + j]: each sum in
// raster order, in float; quadrant qi + 2 qj holds rows 4 qi.. and columns
// 4 qj.. (libvmaf's ((i & 12) >> 2) + ((j & 12) >> 1) for a 4x4 quadrant
// numbering, as cpu.cpp's variance_ratio keeps it).
[[nodiscard]] constexpr float variance_ratio(const std::int32_t* blk) {
  std::int32_t sum = 0;
  for (int k = 0; k < kBlockArea; ++k) sum += blk[k];
  float var = 0.0f;
  for (int k = 0; k < kBlockArea; ++k) {
    const float d = deviation(blk[k], sum, kBlockCount);
    var += d * d;
  }
  float quadrant_var[4] = {};
  for (int qi = 0; qi < 2; ++qi) {
    for (int qj = 0; qj < 2; ++qj) {
      const std::int32_t* q = blk + (qi * kQuadrant * kBlock + qj * kQuadrant);
      std::int32_t qsum = 0;
      for (int i = 0; i < kQuadrant; ++i) {
        for (int j = 0; j < kQuadrant; ++j) qsum += q[i * kBlock + j];
      }
      float acc = 0.0f;
      for (int i = 0; i < kQuadrant; ++i) {
        for (int j = 0; j < kQuadrant; ++j) {
          const float d = deviation(q[i * kBlock + j], qsum, kQuadrantCount);
          acc += d * d;
        }
      }
      quadrant_var[qi + 2 * qj] = acc;
    }
  }
  return ratio_of(var, quadrant_var[0], quadrant_var[1], quadrant_var[2], quadrant_var[3]);
}

// One AC coefficient's share of the masking energy: c^2 (an int32) times
// its mask weight, in float.
[[nodiscard]] constexpr float energy_term(std::int32_t c, float mask) {
  return static_cast<float>(c * c) * mask;
}

// The masking energy of a block of coefficients: the float sum, from 0,
// of energy_term over the AC coefficients in raster order.
[[nodiscard]] constexpr float masking_energy(const std::int32_t* coef, const float* mask) {
  float energy = 0.0f;
  for (int k = 1; k < kBlockArea; ++k) energy += energy_term(coef[k], mask[k]);
  return energy;
}

// What the masking level is the double square root of.
[[nodiscard]] constexpr double level_radicand(float energy, float ratio) {
  return static_cast<double>(energy * ratio);
}
// The level from that root: sqrt(...) / 32, rounded to float.
[[nodiscard]] constexpr float level_of_root(double root) {
  return static_cast<float>(root / static_cast<double>(kMaskDivisor));
}

[[nodiscard]] constexpr std::int32_t absolute_difference(std::int32_t a, std::int32_t b) {
  return a < b ? b - a : a - b;
}

// The DC coefficient's term: not masked.
[[nodiscard]] constexpr float dc_term(std::int32_t ref, std::int32_t dist, float csf) {
  const float weighted = static_cast<float>(absolute_difference(ref, dist)) * csf;
  return weighted * weighted;
}

// An AC coefficient's term: its absolute difference less the masking
// threshold level / mask, no less than 0 (libvmaf: err < threshold ? 0 :
// err - threshold; the difference of two floats has the sign of their
// comparison, so this is the same), weighted by the CSF, squared.
[[nodiscard]] constexpr float ac_term(std::int32_t ref, std::int32_t dist, float level, float mask,
                                      float csf) {
  const float err = static_cast<float>(absolute_difference(ref, dist));
  const float threshold = level / mask;
  const float above = err - threshold;
  const float weighted = (above < 0.0f ? 0.0f : above) * csf;
  return weighted * weighted;
}

// The plane's error from the sum of its terms (libvmaf: ret /= pixels, an
// int count of coefficients; ret /= samplemax^2), in float.
[[nodiscard]] constexpr float plane_error_of(float sum, unsigned blocks, unsigned bpc) {
  const int coefficients = static_cast<int>(blocks) * kBlockArea;
  const std::int32_t peak = (std::int32_t{1} << bpc) - 1;
  sum /= static_cast<float>(coefficients);
  sum /= static_cast<float>(peak * peak);
  return sum;
}

}  // namespace vqx::psnr_hvs

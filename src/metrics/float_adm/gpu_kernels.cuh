// The float ADM twin's kernels: free of the runtime, so that a device-free
// test runs them on the CPU, one thread per GPU thread
// (tests/unit/float_kernels_test.cpp), against the CPU twin.
//
//  * dwt_kernel: one level of the wavelet, one thread per subband position
//    of both pictures: the column pass (low and high) at the four columns
//    the row pass reads, then the row pass; columns and rows mirrored by
//    dwt_index; every sum taps4() (pointwise.hpp): the CPU's dwt_row().
//  * masking_kernel: one block per kMaskRows rows of the scale's summed
//    region (the band less its 10% border); it walks the rows from the
//    region's left, kMaskCols columns at a time:
//     1. the decoupling and CSF weighting (angle_ok(), weighted()) of every
//        position the step's thresholds read: the step's positions and one
//        more on each side, mirrored as libvmaf mirrors them
//        (reflect101_repeat_end: -1 -> 1, n -> n - 1), which the CPU
//        computes over the region one pixel wider;
//     2. per position, the thresholds (threshold()) and the nine terms:
//        the restored part masked by the additive part (DLM's numerator),
//        the reverse (AIM), and the reference's own |w * ref| (the
//        denominator), each band's term cube() (or the power p);
//     3. thread k * kMaskRows + r adds row r's term k to its chain, from
//        the left: the CPU's row sums (masking.cpp's add_row_sums()).
//    Each row's nine sums go to row_sums; the host adds the rows in order
//    (add_rows), as the CPU adds them. No atomics.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>

#include "core/index_math.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/csf.hpp"
#include "metrics/float_adm/dwt.hpp"
#include "metrics/float_adm/masking.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/pointwise.hpp"
#include "metrics/float_adm/recip.hpp"
#include "metrics/float_common/gpu_kernels.cuh"

namespace vqx::float_adm {

// The kernels are static (float_common/gpu_kernels.cuh says why).

// The wavelet's filters, passed by value (kernel parameters).
struct DwtTaps {
  std::array<float, 4> lo;
  std::array<float, 4> hi;
};
inline DwtTaps dwt_taps() { return {kDb2Lo, kDb2Hi}; }

// One picture's subbands of one level: a, h, v, d (a may be absent: the
// last level's, or with approx_only the others).
struct BandTargets {
  float* a;
  std::size_t a_pitch;  // floats
  float* h;
  float* v;
  float* d;
  std::size_t pitch;  // floats, of h, v and d
};

inline constexpr unsigned kDwtX = 32;
inline constexpr unsigned kDwtY = 8;

// One picture's subband values at (i, j): dwt_row()'s.
template <typename Source>
__device__ void dwt_at(const Source& src, int w, int h, int i, int j, const DwtTaps& f,
                       bool approx_only, const BandTargets& out) {
  const int r0 = dwt_index(2 * i - 1, h);
  const int r1 = dwt_index(2 * i, h);
  const int r2 = dwt_index(2 * i + 1, h);
  const int r3 = dwt_index(2 * i + 2, h);
  float lo[4];
  float hi[4];
  for (int u = 0; u < 4; ++u) {
    const int c = dwt_index(2 * j - 1 + u, w);
    const float s0 = src.at(c, r0);
    const float s1 = src.at(c, r1);
    const float s2 = src.at(c, r2);
    const float s3 = src.at(c, r3);
    lo[u] = taps4(f.lo, s0, s1, s2, s3);
    hi[u] = approx_only ? 0.0f : taps4(f.hi, s0, s1, s2, s3);
  }
  if (out.a != nullptr) {
    out.a[out.a_pitch * static_cast<std::size_t>(i) + static_cast<std::size_t>(j)] =
        taps4(f.lo, lo[0], lo[1], lo[2], lo[3]);
  }
  if (approx_only) return;
  const std::size_t o = out.pitch * static_cast<std::size_t>(i) + static_cast<std::size_t>(j);
  out.v[o] = taps4(f.hi, lo[0], lo[1], lo[2], lo[3]);
  out.h[o] = taps4(f.lo, hi[0], hi[1], hi[2], hi[3]);
  out.d[o] = taps4(f.hi, hi[0], hi[1], hi[2], hi[3]);
}

// Both pictures' subbands of a w x h input: out_w x out_h positions.
template <typename Source>
static __global__ void __launch_bounds__(kDwtX* kDwtY)
    dwt_kernel(Source ref, Source dist, int w, int h, DwtTaps taps, bool approx_only,
               BandTargets ref_out, BandTargets dist_out, int out_w, int out_h) {
  const int j = static_cast<int>(blockIdx.x * kDwtX + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y * kDwtY + threadIdx.y);
  if (j >= out_w || i >= out_h) return;
  dwt_at(ref, w, h, i, j, taps, approx_only, ref_out);
  dwt_at(dist, w, h, i, j, taps, approx_only, dist_out);
}

// ---------------------------------------------------------------------------
// Decoupling, masking and the sums

inline constexpr int kMaskRows = 4;
inline constexpr int kMaskCols = 64;
inline constexpr unsigned kMaskThreads = kMaskRows * kMaskCols;
inline constexpr int kHaloRows = kMaskRows + 2;
inline constexpr int kHaloCols = kMaskCols + 2;

// The nine sums of a row, in this order (each h, v, d).
enum RowSum { kNumH, kNumV, kNumD, kDenH, kDenV, kDenD, kAimH, kAimV, kAimD, kRowSums };

// The h, v, d bands of both pictures at one scale.
struct BandSources {
  const float* ref[kBands];
  const float* dist[kBands];
  std::size_t pitch;  // floats
};

// What one scale's masking needs besides the bands.
struct MaskArgs {
  int w;
  int h;
  Region sums;  // the summed region
  BandWeights weights;
  double gain_limit;
  float cos_1deg_sq;
  bool bypass;    // adm_bypass_cm: no masking
  bool cubes;     // adm_p_norm == 3
  float p_float;  // otherwise the power, as the CPU's powf takes it
};

// A term's power: cube() at the default; otherwise the power as a double
// pow rounded to float (the one operation the GPU cannot take from the
// CPU, whose powf is libm's: docs/gpu.md).
__device__ inline float power_of(float x, const MaskArgs& a) {
  return a.cubes ? cube(x)
                 : static_cast<float>(pow(static_cast<double>(x), static_cast<double>(a.p_float)));
}

// The weighted coefficients kept per halo position: per band the restored
// part's csf and flt, then the additive part's.
enum WeightedValue { kCsfR, kFltR, kCsfA, kFltA, kWeightedValues };

static __global__ void __launch_bounds__(kMaskThreads)
    masking_kernel(BandSources bands, MaskArgs args, float* row_sums) {
  __shared__ float s_w[kWeightedValues][kBands][kHaloRows][kHaloCols];
  __shared__ float s_terms[kRowSums][kMaskRows][kMaskCols + 1];
  const int t = static_cast<int>(threadIdx.x);
  const int y0 = args.sums.top + static_cast<int>(blockIdx.x) * kMaskRows;
  const float band_weight[kBands] = {args.weights.hv, args.weights.hv, args.weights.diag};
  // Thread t < kRowSums * kMaskRows: sum t / kMaskRows of row y0 + t % kMaskRows.
  const int sum_k = t / kMaskRows;
  const int sum_r = t % kMaskRows;
  const bool summing = t < kRowSums * kMaskRows && y0 + sum_r < args.sums.bottom;
  float chain = 0.0f;
  for (int x0 = args.sums.left; x0 < args.sums.right; x0 += kMaskCols) {
    const int n = args.sums.right - x0 < kMaskCols ? args.sums.right - x0 : kMaskCols;
    // 1. the weighted values at rows y0 - 1 .. y0 + kMaskRows, columns
    //    x0 - 1 .. x0 + n (mirrored).
    for (int i = t; i < kHaloRows * (n + 2); i += static_cast<int>(kMaskThreads)) {
      const int hy = i / (n + 2);
      const int hx = i % (n + 2);
      if (y0 - 1 + hy > args.sums.bottom) continue;  // below the block's last row's neighbours
      const int y = reflect101_repeat_end(y0 - 1 + hy, args.h);
      const int x = reflect101_repeat_end(x0 - 1 + hx, args.w);
      const std::size_t o = bands.pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
      const bool angle = angle_ok(bands.ref[0][o], bands.ref[1][o], bands.dist[0][o],
                                  bands.dist[1][o], args.cos_1deg_sq);
      for (int b = 0; b < kBands; ++b) {
        const Weighted wv = weighted(bands.ref[b][o], bands.dist[b][o], angle, band_weight[b],
                                     args.gain_limit, ComputedRcp{});
        s_w[kCsfR][b][hy][hx] = wv.csf_r;
        s_w[kFltR][b][hy][hx] = wv.flt_r;
        s_w[kCsfA][b][hy][hx] = wv.csf_a;
        s_w[kFltA][b][hy][hx] = wv.flt_a;
      }
    }
    __syncthreads();
    // 2. the nine terms of each position.
    {
      const int ry = t / kMaskCols;
      const int tx = t % kMaskCols;
      const int y = y0 + ry;
      if (y < args.sums.bottom && tx < n) {
        const int hy = ry + 1;
        const int hx = tx + 1;
        float thr_a = 0.0f;  // the additive part masks the restored part
        float thr_r = 0.0f;
        if (!args.bypass) {
          thr_a = threshold(
              [&](int b, int dy, int dx) { return s_w[kFltA][b][hy - 1 + dy][hx - 1 + dx]; },
              [&](int b) { return s_w[kCsfA][b][hy][hx]; });
          thr_r = threshold(
              [&](int b, int dy, int dx) { return s_w[kFltR][b][hy - 1 + dy][hx - 1 + dx]; },
              [&](int b) { return s_w[kCsfR][b][hy][hx]; });
        }
        const std::size_t o =
            bands.pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x0 + tx);
        for (int b = 0; b < kBands; ++b) {
          s_terms[kNumH + b][ry][tx] = power_of(masked(s_w[kCsfR][b][hy][hx], thr_a), args);
          s_terms[kAimH + b][ry][tx] = power_of(masked(s_w[kCsfA][b][hy][hx], thr_r), args);
          s_terms[kDenH + b][ry][tx] =
              power_of(float_common::abs_of(band_weight[b] * bands.ref[b][o]), args);
        }
      }
    }
    __syncthreads();
    // 3. the chains.
    if (summing) {
      for (int c = 0; c < n; ++c) chain += s_terms[sum_k][sum_r][c];
    }
    // No third barrier: the next step's writes of s_terms come after its
    // first barrier, which the summing threads reach only once they have
    // added this step's values.
  }
  if (summing) {
    row_sums[static_cast<std::size_t>(y0 - args.sums.top + sum_r) * kRowSums + sum_k] = chain;
  }
}

// One scale's band sums from its rows' (as masking_kernel wrote them): the
// rows added in float from the top, as cpu.cpp's row loop adds them.
struct ScaleBandSums {
  BandSums num{};
  BandSums den{};
  BandSums aim{};
};
inline ScaleBandSums add_rows(const float* row_sums, int rows) {
  ScaleBandSums s;
  for (int y = 0; y < rows; ++y) {
    const float* r = row_sums + static_cast<std::size_t>(y) * kRowSums;
    for (int b = 0; b < kBands; ++b) {
      s.num[b] += r[kNumH + b];
      s.den[b] += r[kDenH + b];
      s.aim[b] += r[kAimH + b];
    }
  }
  return s;
}

}  // namespace vqx::float_adm

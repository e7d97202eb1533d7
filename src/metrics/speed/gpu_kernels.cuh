// The SpEED twins' kernels (speed_chroma, speed_temporal): everything of
// the twins that runs on the device and needs no device runtime (the
// buffers, tables and launches are in gpu_band.cuh/.cu). Kept free of the
// runtime so that a device-free test runs these very kernels on the CPU, one
// host thread per GPU thread (tests/unit/speed_kernels_test.cpp), against
// the CPU twin.
//
// A launch handles every picture of a frame at once (blockIdx.z, or the
// block for stats_kernel): speed_chroma's U and V of the reference and the
// distorted frame, speed_temporal's two frame differences. Per picture:
//
//  * decimate_kernel: one thread per sample (i, j) of the decimated picture
//    (bandpass.cpp's first pass): the anti-aliasing filter's column sums at
//    the columns 16 j - r + k (mirrored: reflect101), each over the rows
//    16 i - r + k, then the row sum of those; every sum a float from 0.0F,
//    tap by tap in order, each term tap * sample. A sample is the plane's
//    (pointwise.hpp: sample_value), or the difference of two planes', or,
//    with a prescale, the resampled one (pointwise.hpp: resample, from the
//    taps the host tabulated with rescale.cpp's own axis_taps()).
//  * band_kernel: one thread per sample: the decimated picture minus its
//    band filter's blur (the same column-then-row sums, mirrored).
//  * stats_kernel: one block per picture: the 25 window means (threads 0 to
//    24, each its float sum in row-major order from 0.0F), then the 325
//    sums of products of centred values (one thread each, in double, in
//    row-major order from 0.0): covariance.cpp's chains exactly, one thread
//    per chain, so that every sum has the CPU's one order.
//  * qr_kernel: one block per picture: the covariance matrix from the sums
//    (covariance_from_sums()'s entries), then linalg.cpp's Householder QR
//    decomposition, each matrix entry by one thread, each product's sum
//    and each norm in linalg.cpp's order; Q^T, R and the pivots' verdict.
//  * solve_kernel: one thread per 5x5 block: Q^T y, the back substitution
//    and the variance estimate, each chain in linalg.cpp's and gsm.cpp's
//    order.
// The host reads back the sums (for the eigenvalues: linalg.cpp's own
// symmetric_eigenvalues() on the host), the verdict, the variances and the
// band-pass pictures (for a singular fit's zero solution), and finishes with
// the CPU's own code (gsm.cpp: GsmFit::fit_solved; score.cpp: pair_score).
// No atomics: every value is computed by one thread in one fixed order.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/index_math.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/pointwise.hpp"
#include "metrics/speed/rescale.hpp"
#include "metrics/speed/taps.hpp"

namespace vqx::speed {

// The kernels are static: this header is compiled by its twin's .cu and, as
// host code, by the device-free kernel tests (tests/unit/gpu_on_host.hpp);
// internal linkage keeps the launch stubs of a CUDA build and the tests'
// host functions of the same names from meeting at link time.

// ---------------------------------------------------------------------------
// What the kernels read

// A picture of SpEED: a plane of `Sample`s, or with `minus` the difference
// plane - minus (speed_temporal's frame differences), as rows.cpp converts
// them (each sample by sample_value(), then the difference of the floats).
template <typename Sample>
struct SourcePicture {
  const std::uint8_t* plane;
  std::size_t pitch;  // bytes
  const std::uint8_t* minus;
  std::size_t minus_pitch;
  float unit;
  __device__ float at(int x, int y) const {
    const auto* row = reinterpret_cast<const Sample*>(plane + pitch * static_cast<std::size_t>(y));
    const float v = sample_value(row[x], unit);
    if (minus == nullptr) return v;
    const auto* other =
        reinterpret_cast<const Sample*>(minus + minus_pitch * static_cast<std::size_t>(y));
    return v - sample_value(other[x], unit);
  }
};

// The pictures of one launch; blockIdx.z picks one.
inline constexpr unsigned kMaxPictures = 4;
template <typename Sample>
struct Pictures {
  SourcePicture<Sample> picture[kMaxPictures];
};

// The prescale: off (no prescale, or one that keeps the size), or a method
// and its taps per output column and row (rescale.hpp's AxisTaps of the
// columns and of the rows, in device memory).
struct Resampler {
  bool on;
  ScaleMethod method;
  int taps;
  const int* column_index;
  const float* column_weight;
  const int* row_index;
  const float* row_weight;
};

// Sample (x, y) of the picture SpEED filters: the source's, or resampled.
template <typename Sample>
__device__ float prescaled(const SourcePicture<Sample>& s, const Resampler& r, int x, int y) {
  if (!r.on) return s.at(x, y);
  const std::size_t cx = static_cast<std::size_t>(x) * static_cast<std::size_t>(r.taps);
  const std::size_t cy = static_cast<std::size_t>(y) * static_cast<std::size_t>(r.taps);
  const int* ix = r.column_index + cx;
  const float* wx = r.column_weight + cx;
  const int* iy = r.row_index + cy;
  const float* wy = r.row_weight + cy;
  const auto source = [&](int j, int column) { return s.at(column, iy[j]); };
  switch (r.method) {
    case ScaleMethod::kNearest:
      return s.at(ix[0], iy[0]);
    case ScaleMethod::kBilinear:
      return resample<2, false>(ix, wx, wy, source);
    case ScaleMethod::kBicubic:
      return resample<4, false>(ix, wx, wy, source);
    case ScaleMethod::kLanczos4:
      break;
  }
  return resample<9, true>(ix, wx, wy, source);
}

// A Gaussian's taps (taps.cpp), passed to the kernels by value (kernel
// parameters: no device table). Large enough for the anti-aliasing filter
// of the largest kernel scale (35 taps at 360/97); the twins check.
struct FilterTaps {
  static constexpr int kMax = 64;
  float f[kMax];
  int count;
};

// The sizes of one picture's steps (geometry.hpp).
struct BandShape {
  int scaled_w;  // the picture filtered (after any prescale)
  int scaled_h;
  int op_w;  // decimated by 16
  int op_h;
  int sub_w;  // the window of the covariance
  int sub_h;
  std::size_t picture_floats;  // floats from one picture's op_w x op_h image to the next
};

// ---------------------------------------------------------------------------
// The kernels' arguments, from the CPU twin's own objects (host code)

// Whether the pictures are resampled: a prescale that changes the size
// (score.cpp and rescale.cpp copy the picture when it keeps it).
inline bool resamples(const Geometry& g, const Params& p) {
  return p.rescales() && (g.width != g.scaled_w || g.height != g.scaled_h);
}

// The prescale's table: rescale.cpp's axis_taps() of the scaled_w output
// columns and of the scaled_h output rows, laid out as the column indices,
// the row indices (int), the column weights, the row weights (float).
inline std::vector<unsigned char> rescale_table(const Geometry& g, ScaleMethod m) {
  const AxisTaps columns = axis_taps(m, g.width, g.scaled_w);
  const AxisTaps rows = axis_taps(m, g.height, g.scaled_h);
  std::vector<unsigned char> bytes((columns.index.size() + rows.index.size()) *
                                   (sizeof(int) + sizeof(float)));
  unsigned char* at = bytes.data();
  const auto put = [&at](const auto& v) {
    std::memcpy(at, v.data(), v.size() * sizeof(v[0]));
    at += v.size() * sizeof(v[0]);
  };
  put(columns.index);
  put(rows.index);
  put(columns.weight);
  put(rows.weight);
  return bytes;
}

// The Resampler reading a copy of rescale_table()'s bytes at `table` (off
// when the pictures are not resampled).
inline Resampler resampler(const unsigned char* table, const Geometry& g, const Params& p) {
  Resampler r{};
  r.on = resamples(g, p);
  if (!r.on) return r;
  r.method = p.prescale_method;
  r.taps = static_cast<int>(taps_of(p.prescale_method));
  const std::size_t columns = std::size_t{g.scaled_w} * static_cast<std::size_t>(r.taps);
  const std::size_t rows = std::size_t{g.scaled_h} * static_cast<std::size_t>(r.taps);
  r.column_index = reinterpret_cast<const int*>(table);
  r.row_index = r.column_index + columns;
  r.column_weight = reinterpret_cast<const float*>(r.row_index + rows);
  r.row_weight = r.column_weight + columns;
  return r;
}

// taps.cpp's filter as a kernel argument; false when it has more taps than
// FilterTaps holds.
inline bool filter_taps(const Taps& t, FilterTaps& out) {
  out = {};
  if (t.f.size() > static_cast<std::size_t>(FilterTaps::kMax)) return false;
  for (std::size_t k = 0; k < t.f.size(); ++k) out.f[k] = t.f[k];
  out.count = static_cast<int>(t.f.size());
  return true;
}

inline BandShape band_shape(const Geometry& g) {
  return {static_cast<int>(g.scaled_w), static_cast<int>(g.scaled_h), static_cast<int>(g.op_w),
          static_cast<int>(g.op_h),     static_cast<int>(g.sub_w),    static_cast<int>(g.sub_h),
          std::size_t{g.op_w} * g.op_h};
}

// ---------------------------------------------------------------------------
// The band-pass picture

inline constexpr unsigned kBandThreads = 64;

template <typename Sample>
static __global__ void __launch_bounds__(kBandThreads)
    decimate_kernel(Pictures<Sample> pictures, Resampler r, FilterTaps taps, BandShape g,
                    float* decimated) {
  const int j = static_cast<int>(blockIdx.x * kBandThreads + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y);
  if (j >= g.op_w) return;
  const SourcePicture<Sample>& src = pictures.picture[blockIdx.z];
  const int step = static_cast<int>(kDecimation);
  const int radius = taps.count / 2;
  float sum = 0.0F;
  for (int kx = 0; kx < taps.count; ++kx) {
    const int x = reflect101(j * step - radius + kx, g.scaled_w);
    float column = 0.0F;
    for (int ky = 0; ky < taps.count; ++ky) {
      const int y = reflect101(i * step - radius + ky, g.scaled_h);
      column += taps.f[ky] * prescaled(src, r, x, y);
    }
    sum += taps.f[kx] * column;
  }
  decimated[g.picture_floats * blockIdx.z + static_cast<std::size_t>(i * g.op_w + j)] = sum;
}

template <int Threads>
static __global__ void __launch_bounds__(Threads)
    band_kernel(const float* decimated, FilterTaps taps, BandShape g, float* band) {
  const int j = static_cast<int>(blockIdx.x * Threads + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y);
  if (j >= g.op_w) return;
  const float* d = decimated + g.picture_floats * blockIdx.z;
  const int radius = taps.count / 2;
  float blur = 0.0F;
  for (int kx = 0; kx < taps.count; ++kx) {
    const int x = reflect101(j - radius + kx, g.op_w);
    float column = 0.0F;
    for (int ky = 0; ky < taps.count; ++ky) {
      const int y = reflect101(i - radius + ky, g.op_h);
      column += taps.f[ky] * d[y * g.op_w + x];
    }
    blur += taps.f[kx] * column;
  }
  band[g.picture_floats * blockIdx.z + static_cast<std::size_t>(i * g.op_w + j)] =
      d[i * g.op_w + j] - blur;
}

// ---------------------------------------------------------------------------
// The covariance's sums

// A block per picture: kLowerEntries threads, rounded up to 64 (a whole
// number of warps on NVIDIA and AMD alike).
inline constexpr unsigned kStatsThreads = round_up(static_cast<unsigned>(kLowerEntries), 64U);

// Window p of a band-pass picture: the sub_w x sub_h samples from offset
// (p / 5, p % 5).
__device__ inline const float* window(const float* band, int p, int op_w) {
  const int block = static_cast<int>(kBlock);
  return band + (p / block) * op_w + p % block;
}

template <int Threads>
static __global__ void __launch_bounds__(Threads)
    stats_kernel(const float* band, BandShape g, double* sums) {
  __shared__ double s_mean[kBlockElems];
  const int t = static_cast<int>(threadIdx.x);
  const float* b = band + g.picture_floats * blockIdx.x;
  const auto count = static_cast<unsigned>(g.sub_w * g.sub_h);
  if (t < static_cast<int>(kBlockElems)) {
    const float* w = window(b, t, g.op_w);
    float total = 0.0F;
    for (int i = 0; i < g.sub_h; ++i) {
      for (int x = 0; x < g.sub_w; ++x) total += w[i * g.op_w + x];
    }
    s_mean[t] = window_mean(total, count);
  }
  __syncthreads();
  if (t >= kLowerEntries) return;
  int p = 0;
  while (lower_index(p + 1, 0) <= t) ++p;
  const int q = t - lower_index(p, 0);
  const float* wp = window(b, p, g.op_w);
  const float* wq = window(b, q, g.op_w);
  const double mp = s_mean[p];
  const double mq = s_mean[q];
  double sum = 0.0;
  for (int i = 0; i < g.sub_h; ++i) {
    for (int x = 0; x < g.sub_w; ++x) {
      const int at = i * g.op_w + x;
      sum += centred(wp[at], mp) * centred(wq[at], mq);
    }
  }
  sums[static_cast<std::size_t>(kLowerEntries) * blockIdx.x + static_cast<std::size_t>(t)] = sum;
}

// ---------------------------------------------------------------------------
// The solve: linalg.cpp's QR decomposition of the covariance matrix and its
// application to every block (gsm.cpp's variances)

// A block per picture; each thread takes every kQrThreads-th entry of the
// 25x25 matrices.
inline constexpr unsigned kQrThreads = 128;
inline constexpr std::size_t kMatrixFloats = std::size_t{kBlockElems} * kBlockElems;
// What qr_kernel leaves per picture: Q^T, then R (row-major); and apart,
// the pivots' verdict (1: no |R_ii| below kEigenEps).
inline constexpr std::size_t kFactorFloats = 2 * kMatrixFloats;

__device__ inline int entry(int i, int j) { return i * static_cast<int>(kBlockElems) + j; }

// linalg.cpp's sqrt_to_float(): the double square root (correctly rounded
// on the device as on the CPU), rounded to float.
__device__ inline float root_to_float(float v) {
  return static_cast<float>(sqrt(static_cast<double>(v)));
}

// Entry (i, j) of x y for 25x25 row-major x and y: linalg.cpp's multiply(),
// a float sum over k in order from 0.
__device__ inline float product_entry(const float* x, const float* y, int i, int j) {
  float sum = 0.0F;
  for (int k = 0; k < static_cast<int>(kBlockElems); ++k) sum += x[entry(i, k)] * y[entry(k, j)];
  return sum;
}

// householder_qr(): the accumulated reflectors Q^T and R = Q^T a of the
// covariance matrix a (from the sums, as covariance_from_sums()), step by
// step as linalg.cpp takes them: each matrix entry by one thread, each
// chain (the products' sums, the norms) in linalg.cpp's order.
template <int Threads>
static __global__ void __launch_bounds__(Threads)
    qr_kernel(const double* sums, BandShape g, float* factors, int* verdicts) {
  constexpr int n = static_cast<int>(kBlockElems);
  constexpr int entries = n * n;
  constexpr int per_thread = (entries + Threads - 1) / Threads;
  __shared__ float s_a[kMatrixFloats];
  __shared__ float s_z[kMatrixFloats];
  __shared__ float s_h[kMatrixFloats];
  __shared__ float s_qt[kMatrixFloats];
  __shared__ float s_v[kBlockElems];
  __shared__ float s_length;
  const int t = static_cast<int>(threadIdx.x);
  const double* lower = sums + static_cast<std::size_t>(kLowerEntries) * blockIdx.x;
  const auto count = static_cast<unsigned>(g.sub_w * g.sub_h);
  for (int e = t; e < entries; e += Threads) {
    const int i = e / n;
    const int j = e % n;
    const float c = covariance_entry(lower[i >= j ? lower_index(i, j) : lower_index(j, i)], count);
    s_a[e] = c;
    s_z[e] = c;
    s_qt[e] = i == j ? 1.0F : 0.0F;
  }
  __syncthreads();
  for (int k = 0; k < n - 1; ++k) {
    // The leading k rows and columns of the running product become I's.
    for (int e = t; e < entries; e += Threads) {
      const int i = e / n;
      const int j = e % n;
      if (i < k || j < k) s_z[e] = i == j ? 1.0F : 0.0F;
    }
    __syncthreads();
    if (t < n) s_v[t] = s_z[entry(t, k)];
    __syncthreads();
    if (t == 0) {
      const float norm = root_to_float(squares_sum(s_v));
      s_v[k] += static_cast<float>(sign_of(s_a[entry(k, k)])) * norm;
      s_length = root_to_float(squares_sum(s_v));
    }
    __syncthreads();
    if (t < n) s_v[t] /= s_length;
    __syncthreads();
    for (int e = t; e < entries; e += Threads) {
      s_h[e] = reflector_entry(s_v[e / n], s_v[e % n], e / n == e % n);
    }
    __syncthreads();
    float z[per_thread];
    float qt[per_thread];
    for (int m = 0, e = t; e < entries; ++m, e += Threads) {
      z[m] = product_entry(s_h, s_z, e / n, e % n);
      qt[m] = product_entry(s_h, s_qt, e / n, e % n);
    }
    __syncthreads();
    for (int m = 0, e = t; e < entries; ++m, e += Threads) {
      s_z[e] = z[m];
      s_qt[e] = qt[m];
    }
    __syncthreads();
  }
  float* out = factors + kFactorFloats * blockIdx.x;
  for (int e = t; e < entries; e += Threads) {
    out[e] = s_qt[e];
    const float r = product_entry(s_qt, s_a, e / n, e % n);
    out[kMatrixFloats + static_cast<std::size_t>(e)] = r;
    s_h[e] = r;
  }
  __syncthreads();
  if (t == 0) {
    // apply_qr()'s check, from the bottom row up.
    bool ok = true;
    for (int d = n - 1; d >= 0 && ok; --d) {
      ok = !(static_cast<double>(fabsf(s_h[entry(d, d)])) < kEigenEps);
    }
    verdicts[blockIdx.x] = ok ? 1 : 0;
  }
}

inline constexpr unsigned kSolveThreads = 64;

// One thread per 5x5 block (blockIdx.y: the picture): the block's samples y
// (gsm.cpp's gather_blocks()), Q^T y and the back substitution (apply_qr():
// each a float chain in its order), then the variance estimate, the terms
// y_p x_p / 25 added from p = 0 (gsm.cpp: variances()). Meaningful only
// where qr_kernel's verdict is 1; the host uses the zero solution
// otherwise, as the CPU does.
template <int Threads>
static __global__ void __launch_bounds__(Threads)
    solve_kernel(const float* band, const float* factors, BandShape g, int blocks_x, int blocks,
                 float* variance) {
  constexpr int n = static_cast<int>(kBlockElems);
  const int block = static_cast<int>(kBlock);
  __shared__ float s_qt[kMatrixFloats];
  __shared__ float s_r[kMatrixFloats];
  const float* f = factors + kFactorFloats * blockIdx.y;
  for (int e = static_cast<int>(threadIdx.x); e < n * n; e += Threads) {
    s_qt[e] = f[e];
    s_r[e] = f[kMatrixFloats + static_cast<std::size_t>(e)];
  }
  __syncthreads();
  const int b = static_cast<int>(blockIdx.x * Threads + threadIdx.x);
  if (b >= blocks) return;
  const float* picture = band + g.picture_floats * blockIdx.y;
  const int by = b / blocks_x;
  const int bx = b % blocks_x;
  float y[kBlockElems];
  for (int p = 0; p < n; ++p) {
    y[p] = picture[(by * block + p / block) * g.op_w + bx * block + p % block];
  }
  float qtb[kBlockElems];
  for (int r = 0; r < n; ++r) {
    float sum = 0.0F;
    for (int k = 0; k < n; ++k) sum += s_qt[entry(r, k)] * y[k];
    qtb[r] = sum;
  }
  float x[kBlockElems];
  for (int r = n - 1; r >= 0; --r) {
    float xr = qtb[r];
    for (int k = r + 1; k < n; ++k) xr -= x[k] * s_r[entry(r, k)];
    x[r] = xr / s_r[entry(r, r)];
  }
  float s = variance_term(x[0], y[0]);
  for (int p = 1; p < n; ++p) s += variance_term(x[p], y[p]);
  variance[static_cast<std::size_t>(blocks) * blockIdx.y + static_cast<std::size_t>(b)] = s;
}

}  // namespace vqx::speed

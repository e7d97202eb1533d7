// float_ansnr's GPU kernels, free of the runtime, so that a device-free test
// runs these very kernels on the CPU, one thread per GPU thread
// (tests/unit/ansnr_kernels_test.cpp), against the CPU twin.
//
//  * terms_kernel: one thread per sample, a block's samples of both
//    pictures read once into shared memory. The reference's 3x3 and the
//    distorted picture's 5x5 filter at the sample, each a float sum of row
//    sums from the top filter row down, each row sum a float sum of tap *
//    sample from the leftmost tap, the borders mirrored (params.hpp:
//    reflect101_repeat_end); then the two energies' terms ref_f^2 and
//    (ref_f - dis_f)^2, into two float planes. Every operation is
//    pointwise.hpp's, which the CPU twin calls.
//  * rows_kernel: one thread per row, its two float sums along the row from
//    0 in column order (the CPU's and libvmaf's chains), the planes read
//    through a shared tile so that a block's loads are whole rows. The row
//    sums go to the host, which adds the rows in order (scores.hpp,
//    add_row), as the CPU twin does.
// No atomics: every sum has one fixed order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/index_math.hpp"
#include "metrics/ansnr/params.hpp"
#include "metrics/ansnr/pointwise.hpp"

namespace vqx::ansnr {

// The kernels are static: this header is compiled by the twin's .cu and, as
// host code, by the device-free kernel test; internal linkage keeps the
// launch stubs of a CUDA build and the test's host functions of the same
// names from meeting at link time.

// A luma plane of `Sample`s, read in 8-bit units plus the offset
// (pointwise.hpp's sample_value).
template <typename Sample>
struct LumaView {
  const std::uint8_t* data;
  std::size_t pitch;  // bytes
  float inv_scale;
  __device__ float at(int x, int y) const {
    const auto* row = reinterpret_cast<const Sample*>(data + pitch * static_cast<std::size_t>(y));
    return sample_value(static_cast<float>(row[x]), inv_scale);
  }
};

// Both filters, passed to the kernel by value (kernel parameters: no device
// table to upload).
struct Filters {
  std::array<std::array<float, 3>, 3> ref;
  std::array<std::array<float, 5>, 5> dis;
};
inline Filters filters() { return {kRefFilter, kDisFilter}; }

// The two planes of terms (and the row sums' two arrays), `pitch` floats
// per row.
struct TermPlanes {
  float* signal;
  float* noise;
  std::size_t pitch;
};

inline constexpr unsigned kTermsX = 32;
inline constexpr unsigned kTermsY = 8;

// The block's samples of both pictures as the filters read them (mirrored:
// params.hpp's reflect101_repeat_end; converted: LumaView::at), loaded once
// into shared memory: its outputs and the wider filter's reach around them.
// Each sample was read, mirrored and converted for each of the up to 34
// taps that reach it (about 540 instructions an output; docs/gpu.md,
// "Instructions a frame").
// The wider filter's reach (params.hpp): the distorted picture's 5 x 5.
inline constexpr int kTermsRadius = kDisRadius;
static_assert(kDisRadius >= kRefRadius, "the tile holds both filters' reach");
inline constexpr int kTermsTileW = static_cast<int>(kTermsX) + 2 * kTermsRadius;
inline constexpr int kTermsTileH = static_cast<int>(kTermsY) + 2 * kTermsRadius;
using TermsTile = float[kTermsTileH][kTermsTileW];

// A filter of `Taps` x `Taps` at tile position (tx, ty) (the output's, less
// the radius): the row sums of the filter rows along the source rows, from
// the top filter row down.
template <std::size_t Taps>
__device__ std::array<float, Taps> row_sums_at(const TermsTile& tile,
                                               const std::array<std::array<float, Taps>, Taps>& f,
                                               int tx, int ty) {
  constexpr int kShift = kTermsRadius - static_cast<int>(Taps / 2);
  std::array<float, Taps> p{};
  for (std::size_t k = 0; k < Taps; ++k) {
    const float* row = &tile[ty + kShift + static_cast<int>(k)][tx + kShift];
    p[k] = pass_sum(f[k], [&](std::size_t t) { return row[t]; });
  }
  return p;
}

template <typename Source>
static __global__ void __launch_bounds__(kTermsX* kTermsY)
    terms_kernel(Source ref, Source dis, Filters f, int w, int h, TermPlanes out) {
  __shared__ TermsTile s_ref;
  __shared__ TermsTile s_dis;
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x * kTermsX);
  const int y0 = static_cast<int>(blockIdx.y * kTermsY);
  // Only the tile entries some output of the picture reads: the others'
  // mirrored indices could lie outside it.
  const int cols =
      w - x0 + 2 * kTermsRadius < kTermsTileW ? w - x0 + 2 * kTermsRadius : kTermsTileW;
  const int rows =
      h - y0 + 2 * kTermsRadius < kTermsTileH ? h - y0 + 2 * kTermsRadius : kTermsTileH;
  for (int i = ty * static_cast<int>(kTermsX) + tx; i < kTermsTileH * kTermsTileW;
       i += static_cast<int>(kTermsX * kTermsY)) {
    const int r = i / kTermsTileW;
    const int c = i % kTermsTileW;
    if (r < rows && c < cols) {
      const int yy = reflect101_repeat_end(y0 - kTermsRadius + r, h);
      const int xx = reflect101_repeat_end(x0 - kTermsRadius + c, w);
      s_ref[r][c] = ref.at(xx, yy);
      s_dis[r][c] = dis.at(xx, yy);
    }
  }
  __syncthreads();
  const int x = x0 + tx;
  const int y = y0 + ty;
  if (x >= w || y >= h) return;
  const std::array<float, 3> r = row_sums_at<3>(s_ref, f.ref, tx, ty);
  const std::array<float, 5> d = row_sums_at<5>(s_dis, f.dis, tx, ty);
  const float rf = ref_filtered(r[0], r[1], r[2]);
  const float df = dis_filtered(d[0], d[1], d[2], d[3], d[4]);
  const std::size_t o = out.pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
  out.signal[o] = signal_term(rf);
  out.noise[o] = noise_term(rf, df);
}

// rows_kernel: a block sums kRowsPerBlock rows (one thread each), its
// kRowBlockThreads threads loading tiles of kTileColumns columns of those
// rows together: a tile's loads are independent, so a row's chain waits for
// memory once a tile, not once every few columns (64 rows of 32-column
// tiles a block, before: 17 blocks at 1080p, each waiting on 60 tiles).
inline constexpr unsigned kRowsPerBlock = 8;
inline constexpr unsigned kRowBlockThreads = 256;
inline constexpr unsigned kTileColumns = 256;

// Row y's sums go to signal_rows[y], noise_rows[y].
static __global__ void __launch_bounds__(kRowBlockThreads)
    rows_kernel(TermPlanes in, int w, int h, float* signal_rows, float* noise_rows) {
  // The tile's rows padded by a column, so that the summing threads' reads
  // of the same column fall in different banks.
  __shared__ float s_signal[kRowsPerBlock][kTileColumns + 1];
  __shared__ float s_noise[kRowsPerBlock][kTileColumns + 1];
  const int t = static_cast<int>(threadIdx.x);
  const int y0 = static_cast<int>(blockIdx.x * kRowsPerBlock);
  const int rows =
      h - y0 < static_cast<int>(kRowsPerBlock) ? h - y0 : static_cast<int>(kRowsPerBlock);
  float signal = 0.0F;
  float noise = 0.0F;
  for (int x0 = 0; x0 < w; x0 += static_cast<int>(kTileColumns)) {
    const int cols =
        w - x0 < static_cast<int>(kTileColumns) ? w - x0 : static_cast<int>(kTileColumns);
    // The tile, loaded a row at a time across the threads.
    for (int i = t; i < rows * static_cast<int>(kTileColumns);
         i += static_cast<int>(kRowBlockThreads)) {
      const int r = i / static_cast<int>(kTileColumns);
      const int c = i % static_cast<int>(kTileColumns);
      if (c < cols) {
        const std::size_t o =
            in.pitch * static_cast<std::size_t>(y0 + r) + static_cast<std::size_t>(x0 + c);
        s_signal[r][c] = in.signal[o];
        s_noise[r][c] = in.noise[o];
      }
    }
    __syncthreads();
    if (t < rows) {
      for (int c = 0; c < cols; ++c) {
        signal += s_signal[t][c];
        noise += s_noise[t][c];
      }
    }
    __syncthreads();
  }
  if (t < rows) {
    signal_rows[y0 + t] = signal;
    noise_rows[y0 + t] = noise;
  }
}

}  // namespace vqx::ansnr

// ciede's GPU kernel, free of the runtime, so that a device-free test runs
// it on the CPU, one thread per GPU thread (tests/unit/ciede_kernels_test.cpp),
// against the CPU twin.
//
//  * differences_kernel: one thread per pixel: its samples of both
//    pictures, the chroma addressed as libvmaf's 4:4:4 copy does
//    (pointwise.hpp's chroma_source); 0 where both pixels have the same
//    samples (equal colours: the CPU skips them, as adding 0 changes no
//    sum), else the CIEDE2000 difference of their Lab colours
//    (color_steps.hpp's lab_of, delta_e_steps.hpp's ciede2000: the
//    functions the CPU's batches call), written at terms[y * w + x], the
//    order in which libvmaf adds them. For 8-bit pictures the Lab colours
//    come from a table of every (y, u, v) (lab_table_kernel: lab_of of each
//    triple, built once per context), which leaves a pixel only its
//    colour difference; where the table could not be had, and for deeper
//    samples, lab_of is computed per pixel.
// The terms' sum is libvmaf's double chain, computed exactly by
// gpu/chain_sum.cuh (docs/gpu.md, "Chains of additions").
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/ciede/color.hpp"
#include "metrics/ciede/pointwise.hpp"
#include "vqx/picture.hpp"

namespace vqx::ciede {

// The kernel is static: this header is compiled by the twin's .cu and, as
// host code, by the device-free kernel test; internal linkage keeps the
// launch stub of a CUDA build and the test's host function of the same
// name from meeting at link time.

// The three planes of one picture, of `Sample`s.
template <typename Sample>
struct YuvPlanes {
  const std::uint8_t* data[3];
  std::size_t pitch[3];  // bytes
  __device__ std::int32_t at(int p, unsigned x, unsigned y) const {
    const auto* row = reinterpret_cast<const Sample*>(data[p] + pitch[p] * std::size_t{y});
    return static_cast<std::int32_t>(row[x]);
  }
};

// The picture's geometry: its size, chroma format and chroma plane size.
struct Layout {
  ChromaFormat chroma;
  unsigned width;
  unsigned height;
  unsigned chroma_width;
  unsigned chroma_height;
};

inline constexpr unsigned kPixelsX = 64;
inline constexpr unsigned kPixelsY = 4;

// A pixel's samples (y, u, v).
template <typename Sample>
__device__ void samples_at(const YuvPlanes<Sample>& pic, const Layout& l, unsigned x, unsigned y,
                           std::int32_t* out) {
  out[0] = pic.at(0, x, y);
  const ChromaSource s = chroma_source(l.chroma, x, y, l.chroma_width, l.chroma_height);
  out[1] = s.inside ? pic.at(1, s.col, s.row) : 0;
  out[2] = s.inside ? pic.at(2, s.col, s.row) : 0;
}

// The Lab table of 8-bit colours (color.hpp's kLabTableEntries): entry
// (u * 256 + v) * 256 + y, so that neighbouring pixels, which mostly share
// their chroma and have close lumas, read neighbouring entries.
__device__ inline unsigned lab_table_index(const std::int32_t* yuv) {
  const auto y = static_cast<unsigned>(yuv[0]);
  const auto u = static_cast<unsigned>(yuv[1]);
  const auto v = static_cast<unsigned>(yuv[2]);
  return (u * kValues8 + v) * kValues8 + y;
}

// Grid: (kValues8, kValues8), block (v, u); block: kValues8 threads,
// thread y.
static __global__ void __launch_bounds__(kValues8) lab_table_kernel(YuvScale scale, Lab* table) {
  const std::int32_t yuv[3] = {static_cast<std::int32_t>(threadIdx.x),
                               static_cast<std::int32_t>(blockIdx.y),
                               static_cast<std::int32_t>(blockIdx.x)};
  table[lab_table_index(yuv)] = steps::lab_of(yuv[0], yuv[1], yuv[2], scale);
}

// A pixel's Lab colour: from the table if there is one (8-bit samples).
__device__ inline Lab lab_at(const std::int32_t* yuv, const YuvScale& scale, const Lab* table) {
  return table != nullptr ? table[lab_table_index(yuv)]
                          : steps::lab_of(yuv[0], yuv[1], yuv[2], scale);
}

// `table`: lab_table_kernel's, or null.
template <typename Sample>
static __global__ void __launch_bounds__(kPixelsX* kPixelsY)
    differences_kernel(YuvPlanes<Sample> ref, YuvPlanes<Sample> dist, Layout l, YuvScale scale,
                       const Lab* table, float* terms) {
  const unsigned x = blockIdx.x * kPixelsX + threadIdx.x;
  const unsigned y = blockIdx.y * kPixelsY + threadIdx.y;
  if (x >= l.width || y >= l.height) return;
  std::int32_t r[3];
  std::int32_t d[3];
  samples_at(ref, l, x, y, r);
  samples_at(dist, l, x, y, d);
  float term = 0.0f;
  if (r[0] != d[0] || r[1] != d[1] || r[2] != d[2]) {
    term = steps::ciede2000(lab_at(r, scale, table), lab_at(d, scale, table));
  }
  terms[std::size_t{y} * l.width + x] = term;
}

}  // namespace vqx::ciede

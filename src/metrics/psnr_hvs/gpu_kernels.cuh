// psnr_hvs's GPU kernel, free of the runtime, so that a device-free test
// runs it on the CPU, one thread per GPU thread
// (tests/unit/psnr_hvs_kernels_test.cpp), against the CPU twin.
//
//  * terms_kernel: one thread per 8x8 block of a plane (origins every 7
//    samples, raster order): the block's samples of both pictures, their
//    variance ratios, DCTs and masking levels, then the 64 terms, written
//    at terms[block * 64 + coefficient], the order in which libvmaf adds
//    them. Every operation is pointwise.hpp's, which the CPU twin calls;
//    the masking level's double square root is the device's correctly
//    rounded one.
// The terms' sum is libvmaf's float chain, computed exactly by
// gpu/chain_sum.cuh (docs/gpu.md, "Chains of additions").
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "metrics/psnr_hvs/params.hpp"
#include "metrics/psnr_hvs/pointwise.hpp"

namespace vqx::psnr_hvs {

// The kernel is static: this header is compiled by the twin's .cu and, as
// host code, by the device-free kernel test; internal linkage keeps the
// launch stub of a CUDA build and the test's host function of the same
// name from meeting at link time.

// A plane of `Sample`s.
template <typename Sample>
struct SampleView {
  const std::uint8_t* data;
  std::size_t pitch;  // bytes
  __device__ std::int32_t at(unsigned x, unsigned y) const {
    const auto* row = reinterpret_cast<const Sample*>(data + pitch * std::size_t{y});
    return static_cast<std::int32_t>(row[x]);
  }
};

// One plane's weights (cpu.hpp's Weights, made by the CPU's make_weights),
// passed to the kernel by value.
struct BlockWeights {
  std::array<float, kBlockArea> csf;
  std::array<float, kBlockArea> mask;
};

inline constexpr unsigned kBlockThreads = 64;

// The double square root, correctly rounded: CUDA's and HIP's sqrt(double)
// (IEEE on every device), the CPU's std::sqrt (x86 sqrtsd).
__device__ inline double root(double v) { return sqrt(v); }

template <typename Sample>
static __global__ void __launch_bounds__(kBlockThreads)
    terms_kernel(SampleView<Sample> ref, SampleView<Sample> dist, unsigned blocks_x,
                 unsigned blocks, BlockWeights w, float* terms) {
  const unsigned b = blockIdx.x * kBlockThreads + threadIdx.x;
  if (b >= blocks) return;
  const unsigned x0 = (b % blocks_x) * kStep;
  const unsigned y0 = (b / blocks_x) * kStep;
  std::int32_t r[kBlockArea];
  std::int32_t d[kBlockArea];
  std::int32_t tmp[kBlockArea];
  for (int i = 0; i < kBlock; ++i) {
    for (int j = 0; j < kBlock; ++j) {
      r[i * kBlock + j] = ref.at(x0 + static_cast<unsigned>(j), y0 + static_cast<unsigned>(i));
      d[i * kBlock + j] = dist.at(x0 + static_cast<unsigned>(j), y0 + static_cast<unsigned>(i));
    }
  }
  const float ref_ratio = variance_ratio(r);
  const float dist_ratio = variance_ratio(d);
  fdct8x8(r, tmp);
  fdct8x8(d, tmp);
  const float ref_level =
      level_of_root(root(level_radicand(masking_energy(r, w.mask.data()), ref_ratio)));
  const float dist_level =
      level_of_root(root(level_radicand(masking_energy(d, w.mask.data()), dist_ratio)));
  const float level = dist_level > ref_level ? dist_level : ref_level;
  float* out = terms + std::size_t{b} * kBlockArea;
  out[0] = dc_term(r[0], d[0], w.csf[0]);
  for (int k = 1; k < kBlockArea; ++k) out[k] = ac_term(r[k], d[k], level, w.mask[k], w.csf[k]);
}

}  // namespace vqx::psnr_hvs

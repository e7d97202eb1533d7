// psnr_hvs's GPU kernel, free of the runtime, so that a device-free test
// runs it on the CPU, one thread per GPU thread
// (tests/unit/psnr_hvs_kernels_test.cpp), against the CPU twin.
//
//  * terms_kernel: two threads per 8x8 block of a plane (origins every 7
//    samples, raster order), one per picture: its samples, variance ratio,
//    DCT and masking level; the two exchange half of their coefficients
//    and their levels through shared memory, and each makes 32 of the 64
//    terms (the reference's thread coefficients 0 to 31, the distorted's
//    32 to 63), staged in shared memory so that the thread block writes
//    its blocks' terms as one run, at terms[block * 64 + coefficient],
//    the order in which libvmaf adds them. Every operation is
//    pointwise.hpp's, which the CPU twin calls; the masking level's double
//    square root is the device's correctly rounded one. (One thread a
//    block held both pictures' 128 values in 199 registers: 12 % of the
//    warp slots, and its terms were written 256 bytes apart.)
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
inline constexpr unsigned kBlocksPerCta = kBlockThreads / 2;  // 8x8 blocks a thread block makes
inline constexpr int kHalfArea = kBlockArea / 2;

// The double square root, correctly rounded: CUDA's and HIP's sqrt(double)
// (IEEE on every device), the CPU's std::sqrt (x86 sqrtsd).
__device__ inline double root(double v) { return sqrt(v); }

// Entry j of the thread's half of 64 values (a block's coefficients or
// weights): j (the reference's thread) or 32 + j (the distorted's);
// constant indices and a select, so that the values stay in registers.
template <typename Values>
__device__ inline auto half_at(const Values& v, bool upper, int j) {
  return upper ? v[static_cast<std::size_t>(kHalfArea + j)] : v[static_cast<std::size_t>(j)];
}

// Grid: ceil(blocks / kBlocksPerCta); block: kBlockThreads. Thread t takes
// picture t % 2 of 8x8 block blockIdx.x * kBlocksPerCta + t / 2.
template <typename Sample>
static __global__ void __launch_bounds__(kBlockThreads)
    terms_kernel(SampleView<Sample> ref, SampleView<Sample> dist, unsigned blocks_x,
                 unsigned blocks, BlockWeights w, float* terms) {
  // s_half[b][p]: what picture p's thread hands the other, the half of
  // its coefficients that thread makes terms of (the reference's 32 to 63,
  // the distorted's 0 to 31); both levels; the terms.
  __shared__ std::int32_t s_half[kBlocksPerCta][2][kHalfArea];
  __shared__ float s_level[kBlocksPerCta][2];
  __shared__ float s_terms[kBlocksPerCta * kBlockArea];
  const unsigned local = threadIdx.x / 2;
  const unsigned pic = threadIdx.x % 2;  // 0: reference, 1: distorted
  const bool upper = pic == 1;
  const unsigned first = blockIdx.x * kBlocksPerCta;
  const unsigned b = first + local;
  std::int32_t v[kBlockArea];
  if (b < blocks) {
    const unsigned x0 = (b % blocks_x) * kStep;
    const unsigned y0 = (b / blocks_x) * kStep;
    // A copy, not a reference: a reference chosen at run time between two
    // kernel arguments would have both copied to local memory.
    const SampleView<Sample> src = upper ? dist : ref;
    for (int i = 0; i < kBlock; ++i) {
      for (int j = 0; j < kBlock; ++j) {
        v[i * kBlock + j] = src.at(x0 + static_cast<unsigned>(j), y0 + static_cast<unsigned>(i));
      }
    }
    const float ratio = variance_ratio(v);
    std::int32_t tmp[kBlockArea];
    fdct8x8(v, tmp);
    s_level[local][pic] =
        level_of_root(root(level_radicand(masking_energy(v, w.mask.data()), ratio)));
    // The half the other thread makes terms of.
    for (int j = 0; j < kHalfArea; ++j) s_half[local][pic][j] = half_at(v, !upper, j);
  }
  __syncthreads();
  if (b < blocks) {
    const float ref_level = s_level[local][0];
    const float dist_level = s_level[local][1];
    const float level = dist_level > ref_level ? dist_level : ref_level;
    const std::int32_t* other = s_half[local][1 - pic];
    float* out = s_terms + std::size_t{local} * kBlockArea + (upper ? kHalfArea : 0);
    for (int j = 0; j < kHalfArea; ++j) {
      const std::int32_t own = half_at(v, upper, j);
      const std::int32_t r = upper ? other[j] : own;
      const std::int32_t d = upper ? own : other[j];
      const float mask = half_at(w.mask, upper, j);
      const float csf = half_at(w.csf, upper, j);
      // Coefficient 0 (the reference's thread, j = 0) is the DC's.
      out[j] = !upper && j == 0 ? dc_term(r, d, csf) : ac_term(r, d, level, mask, csf);
    }
  }
  __syncthreads();
  // The thread block's terms are one run of the output.
  const unsigned count = (blocks - first < kBlocksPerCta ? blocks - first : kBlocksPerCta) *
                         static_cast<unsigned>(kBlockArea);
  float* dst = terms + std::size_t{first} * kBlockArea;
  for (unsigned i = threadIdx.x; i < count; i += kBlockThreads) dst[i] = s_terms[i];
}

}  // namespace vqx::psnr_hvs

// Reductions with a fixed result:
//  * block_sum, for floating-point sums: one value per thread summed over
//    the block by a fixed tree in shared memory (no atomics, no shuffles, so
//    the order, and the sum's bits, are the same on every run and whatever
//    the device's warp width); the per-block results then go to the host,
//    which adds them in a fixed order in double;
//  * add_exact_block, for integer sums: shuffles within each warp, the
//    warps' sums combined in shared memory, then one integer atomic per
//    block, exact in any order. With count_one (below), the only atomics
//    in VQX's GPU code (tests/contract rejects atomics anywhere else), and
//    they take integers only: a float sum cannot be accumulated with them.
//    (One atomic per block rather than per warp: hundreds of thousands of
//    atomics on one address serialise in L2 and cost more than the
//    kernel's arithmetic.)
//  * count_one and count_add, for histograms of counts: one integer atomic
//    per counted thing, or per bin of a block's own histogram in shared
//    memory (CAMBI's buckets of contrast values), exact in any order.
#pragma once

#include <cstddef>

#include "core/index_math.hpp"
#include "gpu/vendor.hpp"

namespace vqx::gpu {

// `Threads` is the block's thread count, a power of two; `scratch` holds
// Threads values. Every thread must call it; thread 0 gets the sum.
template <unsigned Threads, typename T>
__device__ T block_sum(T v, T* scratch) {
  static_assert((Threads & (Threads - 1)) == 0, "the tree needs a power of two");
  const unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
  scratch[t] = v;
  __syncthreads();
  for (unsigned half = Threads / 2; half > 0; half /= 2) {
    if (t < half) scratch[t] += scratch[t + half];
    __syncthreads();
  }
  return scratch[0];
}

// Adds 1 (or n) to an integer counter: a histogram's bin, in shared or in
// global memory. Integers only: a count is exact whatever the order of the
// atomics.
__device__ inline void count_one(unsigned* bin) { atomicAdd(bin, 1U); }
__device__ inline void count_add(unsigned* bin, unsigned n) { atomicAdd(bin, n); }

// The sum of one value per lane over the warp (warpSize lanes: 32 on
// NVIDIA, 64 on most AMD parts), in lane 0.
__device__ inline unsigned long long warp_sum(unsigned long long v) {
  for (int delta = warpSize / 2; delta > 0; delta /= 2) v += vendor::shfl_down(v, delta);
  return v;
}

// Adds N values per thread, value k to totals[k * stride], with one integer
// atomic per block and value. Integers only: their sums are exact in any
// order, so the result does not depend on the order of the shuffles or the
// atomics. Two barriers in all, whatever N. Every thread of the block must
// call it (it synchronises the block).
template <int N>
__device__ inline void add_exact_block(unsigned long long* totals, std::size_t stride,
                                       const unsigned long long (&v)[N]) {
  __shared__ unsigned long long warps[N][32];  // blocks of up to 1024 threads, warps of 32+
  const unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
  const unsigned lane = t % warpSize;
  const unsigned warp = t / warpSize;
  const unsigned nwarps = ceil_div(blockDim.x * blockDim.y, static_cast<unsigned>(warpSize));
  unsigned long long s[N];
  for (int k = 0; k < N; ++k) s[k] = warp_sum(v[k]);
  __syncthreads();  // the previous call's reads of `warps` are done
  if (lane == 0) {
    for (int k = 0; k < N; ++k) warps[k][warp] = s[k];
  }
  __syncthreads();
  if (warp == 0) {
    for (int k = 0; k < N; ++k) {
      const unsigned long long x = warp_sum(lane < nwarps ? warps[k][lane] : 0ULL);
      if (lane == 0 && x != 0) atomicAdd(totals + k * stride, x);
    }
  }
}

// One value per thread to *total (N = 1 of the above).
__device__ inline void add_exact_block(unsigned long long* total, unsigned long long v) {
  const unsigned long long one[1] = {v};
  add_exact_block(total, 0, one);
}

}  // namespace vqx::gpu

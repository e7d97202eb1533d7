// Deterministic block reductions: one value per thread summed over the
// block by a fixed tree in shared memory (no atomics, no warp shuffles, so
// the order, and a floating-point sum's bits, are the same on every run and
// whatever the device's warp width). Per-block results then go to the host,
// which adds them in a fixed order in double, or, for integers, may be added
// with integer atomics (exact in any order).
#pragma once

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

// The only atomic in VQX's GPU code: an exact add of integers, whose order
// cannot change the result. There is deliberately no floating-point
// overload (tests/contract rejects atomics anywhere else).
__device__ inline void add_exact(unsigned long long* total, unsigned long long v) {
  atomicAdd(total, v);
}

// Index `i` reflected into [0, n) about the edge samples, which are not
// repeated (-1 -> 1, n -> n - 2): the border rule of libvmaf's integer
// filters. Valid for -n < i < 2n - 1.
__device__ inline int reflect101(int i, int n) {
  if (i < 0) return -i;
  if (i >= n) return 2 * n - 2 - i;
  return i;
}

}  // namespace vqx::gpu

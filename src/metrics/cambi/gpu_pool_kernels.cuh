// The CAMBI twin's pooling kernels: from a scale's values, their exact sum
// and the histogram of their buckets (values_kernel, gpu_kernels.cuh) to
// what the host needs to pool the scale as the CPU does (pooling.hpp,
// pool_path()):
//  * PoolPath::kAll (at most k values are not 0): nothing more; the host
//    divides the exact sum by k;
//  * PoolPath::kLargest: split_kernel finds the bucket holding the k-th
//    largest value and how many lie above it (the CPU's loop over the
//    buckets from the top, as one block: chunks of buckets per thread, the
//    counts above each chunk added in order by one thread, integers);
//    pass2_kernel adds the values above that bucket (integers, exact) and
//    counts the bucket's values by their low 16 bits; finish_kernel takes
//    the largest k - above of those from the top (the CPU's loop, chunked
//    the same way) and adds take * value (integers, exact). The result is
//    the exact sum of the k largest values, which is the CPU's
//    largest_sum() (exact too, below 2^29);
//  * PoolPath::kOrdered (the values sum to 2^29 or more): ordered_kernel
//    runs libvmaf's selection and ordered double sum (select.hpp) in one
//    thread, on the values in the CPU's order: sequential, and rare.
// Each kernel reads the path from the scale's sums and does nothing on the
// other paths, so the host queues them all without waiting. Integer counts
// and sums go through `Count` (gpu_kernels.cuh); free of the runtime, so
// the device-free test runs them too.
#pragma once

#include <cstdint>

#include "metrics/cambi/gpu_kernels.cuh"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/pointwise.hpp"
#include "metrics/cambi/select.hpp"

namespace vqx::cambi {

// The kernels are static: this header is compiled by its twin's .cu and, as
// host code, by the device-free kernel tests (tests/unit/gpu_on_host.hpp);
// internal linkage keeps the launch stubs of a CUDA build and the tests'
// host functions of the same names from meeting at link time.

inline constexpr unsigned kPoolThreads = 256;
inline constexpr unsigned kBucketsPerThread = kBucketCount / kPoolThreads;
inline constexpr unsigned kLowPerThread = kLowCounts / kPoolThreads;
static_assert(kBucketCount % kPoolThreads == 0 && kLowCounts % kPoolThreads == 0);
// pass2_kernel: pixels per block (a grid-stride loop).
inline constexpr unsigned kPass2Threads = 256;

struct PoolArgs {
  ScaleSums* sums;
  const unsigned* buckets;  // kBucketCount (bucket 0 not counted: n less the others)
  unsigned* low;            // kLowCounts
  float* values;            // n, the CPU's order (rows of the scale)
  unsigned long long n;
  unsigned long long k;
};

// In each thread of one block of kPoolThreads: how many of the counted
// things lie in the chunks of the threads above this one, from each
// thread's own total (`scratch`: kPoolThreads). Integers, in order.
__device__ inline unsigned long long counts_above(unsigned long long own,
                                                  unsigned long long* scratch) {
  const unsigned t = threadIdx.x;
  scratch[t] = own;
  __syncthreads();
  if (t == 0) {
    unsigned long long above = 0;
    for (unsigned i = kPoolThreads; i-- > 0;) {
      const unsigned long long here = scratch[i];
      scratch[i] = above;
      above += here;
    }
  }
  __syncthreads();
  return scratch[t];
}

static __global__ void __launch_bounds__(kPoolThreads) split_kernel(PoolArgs a) {
  __shared__ unsigned long long scratch[kPoolThreads];
  const auto path = pool_path(a.sums->units, a.sums->nonzero, a.k);
  const unsigned t = threadIdx.x;
  if (t == 0) a.sums->path = static_cast<std::uint32_t>(path);
  if (path != PoolPath::kLargest) return;  // the same for every thread
  // The counts of this thread's buckets (bucket 0 aside), and of those in
  // the chunks above; bucket 0's count, in thread 0's chunk, is n less all
  // the others.
  const unsigned first = t * kBucketsPerThread;
  unsigned long long own = 0;
  for (unsigned b = first; b < first + kBucketsPerThread; ++b) own += b == 0 ? 0U : a.buckets[b];
  unsigned long long above = counts_above(own, scratch);
  const unsigned long long zeros = t == 0 ? a.n - (above + own) : 0U;
  // The CPU's loop from the top: the split is the bucket where the count
  // above it is below k and, with the bucket, reaches k.
  for (unsigned b = first + kBucketsPerThread; b-- > first;) {
    const unsigned long long here = b == 0 ? zeros : a.buckets[b];
    if (above < a.k && above + here >= a.k) {
      a.sums->split = b;
      a.sums->above = above;
    }
    above += here;
  }
}

// A grid-stride loop over the values: those above the split bucket added
// (units), those in it counted by their low bits.
template <typename Count>
static __global__ void __launch_bounds__(kPass2Threads) pass2_kernel(PoolArgs a, Count count) {
  if (static_cast<PoolPath>(a.sums->path) != PoolPath::kLargest) return;  // every thread
  const std::uint32_t split = a.sums->split;
  unsigned long long units = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * kPass2Threads;
  for (unsigned long long i = blockIdx.x * kPass2Threads + threadIdx.x; i < a.n; i += stride) {
    const float v = a.values[i];
    const std::uint32_t b = bucket_of(v);
    if (b > split) {
      units += value_units(v);
    } else if (b == split && split != 0) {
      count.bump(a.low + low_bits_of(v));
    }
  }
  count.add(&a.sums->top_units, units);
}

// The largest k - above values of the split bucket, from its largest down.
template <typename Count>
static __global__ void __launch_bounds__(kPoolThreads) finish_kernel(PoolArgs a, Count count) {
  __shared__ unsigned long long scratch[kPoolThreads];
  if (static_cast<PoolPath>(a.sums->path) != PoolPath::kLargest || a.sums->split == 0) return;
  const std::uint32_t split = a.sums->split;
  const unsigned long long rest = a.k - a.sums->above;
  const unsigned t = threadIdx.x;
  const unsigned first = t * kLowPerThread;
  unsigned long long own = 0;
  for (unsigned bits = first; bits < first + kLowPerThread; ++bits) own += a.low[bits];
  unsigned long long taken = counts_above(own, scratch);  // values above this chunk
  unsigned long long units = 0;
  for (unsigned bits = first + kLowPerThread; bits-- > first;) {
    const unsigned long long here = a.low[bits];
    const unsigned long long left = rest > taken ? rest - taken : 0U;
    const unsigned long long take = here < left ? here : left;
    units += take * value_units(bucket_value(split, bits));
    taken += here;
  }
  count.add(&a.sums->top_units, units);
}

// libvmaf's selection and ordered sum, in one thread.
static __global__ void __launch_bounds__(1) ordered_kernel(PoolArgs a) {
  if (threadIdx.x != 0 || static_cast<PoolPath>(a.sums->path) != PoolPath::kOrdered) return;
  a.sums->ordered = ordered_largest_sum_in(a.values, static_cast<std::ptrdiff_t>(a.n),
                                           static_cast<std::ptrdiff_t>(a.k));
}

// The host's finish of a scale, after the readback: the pooled value as
// the CPU's Scorer::scale_score() returns it.
inline double pooled_value(const ScaleSums& s, unsigned long long k) {
  const auto kd = static_cast<double>(k);
  switch (pool_path(s.units, s.nonzero, k)) {
    case PoolPath::kOrdered:
      return s.ordered / kd;
    case PoolPath::kAll:
      return units_value(s.units) / kd;
    case PoolPath::kLargest:
      break;
  }
  return units_value(s.top_units) / kd;
}

}  // namespace vqx::cambi

// The GPU side of core/chain_sum.hpp: the exact result of libvmaf's
// sequential sums (s = s + t_i, in float or double, from the first term to
// the last), for terms that a twin's kernels wrote to device memory.
// Runtime-free, so that a device-free test runs these very kernels on the
// CPU (tests/unit/chain_sum_test.cpp); gpu/chain_sums.cuh allocates and
// launches them.
//
// The terms of a chain are cut into runs of kRun terms and chunks of
// kRunsPerChunk runs. Per frame:
//  1. chunk_totals_kernel: each chunk's terms summed in double by a fixed
//     tree (only to estimate where the running sum will be);
//  2. estimates_kernel: one thread per chain adds the chunk totals in order
//     and keeps, per chunk, the binade of the running sum before it;
//  3. run_steps_kernel: each run's Step (core/chain_sum.hpp) in each of the
//     kCandidates binades around its chunk's estimate, one thread per run
//     and binade, composing its terms' Steps in order;
//  4. chunk_steps_kernel: each chunk's Steps, composing its runs' in order;
//  5. walk_kernel: one thread per chain, from 0: a chunk's Step where it
//     applies (try_step), else its runs' Steps, else the run's terms one by
//     one (the chain's own additions). Composition is exact, so the result
//     is the sequential chain's, bit for bit, whatever the estimates were:
//     they decide only how often the walk adds terms one by one.
// No atomics; the only floating-point sums are the estimates' (a fixed
// tree) and the walk's term-by-term additions, in the chain's order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/chain_sum.hpp"

namespace vqx::chain {

inline constexpr unsigned kRun = 64;           // terms per run
inline constexpr unsigned kRunsPerChunk = 64;  // runs per chunk
inline constexpr unsigned kChunk = kRun * kRunsPerChunk;
inline constexpr unsigned kMaxChains = 4;       // chains per launch
inline constexpr unsigned kTotalThreads = 256;  // chunk_totals_kernel's block
inline constexpr unsigned kStepThreads = 256;   // run and chunk Steps: threads per block

// The chains of one launch: chain k's `length` terms are at
// terms + kChunk * first_chunk[k], its `chunks` chunks cover them (the
// terms past its length are taken as +0, never read).
struct Chains {
  const float* terms;
  unsigned count;
  unsigned first_chunk[kMaxChains];
  unsigned chunks[kMaxChains];
  std::size_t length[kMaxChains];
};

// The chain that chunk c belongs to.
__device__ inline unsigned chain_of(const Chains& ch, unsigned c) {
  unsigned k = 0;
  while (k + 1 < ch.count && c >= ch.first_chunk[k + 1]) ++k;
  return k;
}

// Term i of chunk c's chain, counted from the chain's start.
__device__ inline float term_at(const Chains& ch, unsigned k, std::size_t i) {
  return i < ch.length[k] ? ch.terms[std::size_t{kChunk} * ch.first_chunk[k] + i] : 0.0F;
}

// Position of chunk c's first term in its chain k.
__device__ inline std::size_t chunk_start(const Chains& ch, unsigned k, unsigned c) {
  return std::size_t{kChunk} * (c - ch.first_chunk[k]);
}

static __global__ void __launch_bounds__(kTotalThreads)
    chunk_totals_kernel(Chains ch, double* totals) {
  __shared__ double s_sum[kTotalThreads];
  const unsigned c = blockIdx.x;
  const unsigned t = threadIdx.x;
  const unsigned k = chain_of(ch, c);
  constexpr unsigned kPerThread = kChunk / kTotalThreads;
  const std::size_t first = chunk_start(ch, k, c) + std::size_t{kPerThread} * t;
  double sum = 0.0;
  for (unsigned i = 0; i < kPerThread; ++i) sum += static_cast<double>(term_at(ch, k, first + i));
  s_sum[t] = sum;
  __syncthreads();
  for (unsigned half = kTotalThreads / 2; half > 0; half /= 2) {
    if (t < half) s_sum[t] += s_sum[t + half];
    __syncthreads();
  }
  if (t == 0) totals[c] = s_sum[0];
}

// One thread per chain.
template <typename Acc>
static __global__ void estimates_kernel(Chains ch, const double* totals, int* estimates) {
  const unsigned k = blockIdx.x;
  double running = 0.0;
  for (unsigned c = ch.first_chunk[k]; c < ch.first_chunk[k] + ch.chunks[k]; ++c) {
    estimates[c] = estimate_exponent<Acc>(running);
    running += totals[c];
  }
}

// One thread per run and candidate binade: steps[run * kCandidates + i].
template <typename Acc>
static __global__ void __launch_bounds__(kStepThreads)
    run_steps_kernel(Chains ch, unsigned runs, const int* estimates, Step* steps) {
  const unsigned g = blockIdx.x * kStepThreads + threadIdx.x;
  const unsigned run = g / kCandidates;
  if (run >= runs) return;
  const int i = static_cast<int>(g % kCandidates);
  const unsigned c = run / kRunsPerChunk;
  const unsigned k = chain_of(ch, c);
  const int e = estimates[c] - kBelow + i;
  const std::size_t first = chunk_start(ch, k, c) + std::size_t{kRun} * (run % kRunsPerChunk);
  Step st{0U, 0U};
  for (unsigned j = 0; j < kRun; ++j) {
    st = compose<Acc>(st, term_step<Acc>(term_at(ch, k, first + j), e));
  }
  steps[g] = st;
}

// One thread per chunk and candidate binade.
template <typename Acc>
static __global__ void __launch_bounds__(kStepThreads)
    chunk_steps_kernel(unsigned chunks, const Step* run_steps, Step* chunk_steps) {
  const unsigned g = blockIdx.x * kStepThreads + threadIdx.x;
  const unsigned c = g / kCandidates;
  if (c >= chunks) return;
  const unsigned i = g % kCandidates;
  Step st{0U, 0U};
  for (unsigned r = 0; r < kRunsPerChunk; ++r) {
    st = compose<Acc>(st, run_steps[(std::size_t{c} * kRunsPerChunk + r) * kCandidates + i]);
  }
  chunk_steps[g] = st;
}

// One thread per chain: the chain's result in sums[k].
template <typename Acc>
static __global__ void walk_kernel(Chains ch, const int* estimates, const Step* run_steps,
                                   const Step* chunk_steps, Acc* sums) {
  const unsigned k = blockIdx.x;
  Acc s = 0;
  for (unsigned c = ch.first_chunk[k]; c < ch.first_chunk[k] + ch.chunks[k]; ++c) {
    const int e = estimates[c];
    if (try_step(s, chunk_steps + std::size_t{c} * kCandidates, e)) continue;
    for (unsigned r = 0; r < kRunsPerChunk; ++r) {
      const std::size_t run = std::size_t{c} * kRunsPerChunk + r;
      if (try_step(s, run_steps + run * kCandidates, e)) continue;
      const std::size_t first = chunk_start(ch, k, c) + std::size_t{kRun} * r;
      for (unsigned j = 0; j < kRun; ++j) s = add(s, term_at(ch, k, first + j));
    }
  }
  sums[k] = s;
}

}  // namespace vqx::chain

// The GPU side of core/chain_sum.hpp: the exact result of libvmaf's
// sequential sums (s = s + t_i, in float or double, from the first term to
// the last), for terms (float, or double for a double chain) that a twin's
// kernels wrote to device memory.
// Runtime-free, so that a device-free test runs these very kernels on the
// CPU (tests/unit/chain_sum_test.cpp); gpu/chain_sums.cuh allocates and
// launches them.
//
// The terms of a chain are cut into runs of kRun terms and chunks of
// kRunsPerChunk runs. Per frame:
//  1. totals_kernel: each run's terms summed in double, and each chunk's
//     runs by a fixed tree (only to estimate where the running sum will
//     be);
//  2. estimates_kernel: one block per chain adds the chunk totals into
//     prefix sums and keeps, per chunk, the binade of the sum before it
//     (its estimate) and the sum itself;
//  3. run_estimates_kernel: one thread per chunk adds its runs' totals to
//     the chunk's prefix sum and keeps, per run, the binade before it;
//  4. run_steps_kernel: each run's Step (core/chain_sum.hpp) in each of the
//     kCandidates binades around its estimate, one thread per run and
//     binade, composing its terms' Steps in order;
//  5. chunk_steps_kernel: each chunk's Steps in the binades around its
//     estimate, composing its terms' Steps in order;
//  6. walk_kernel: one block per chain, whose thread 0 walks from 0: a
//     chunk's Step where it applies (try_step), else its runs' Steps, else
//     the run's terms one by one (the chain's own additions).
// Composition is exact, so the result is the sequential chain's, bit for
// bit, whatever the estimates were: they decide only how often the walk
// adds terms one by one (about once a run where the sum crosses a power of
// two). No atomics; the only floating-point sums are the estimates' (fixed
// orders) and the walk's term-by-term additions, in the chain's order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/chain_sum.hpp"
#include "core/device_unroll.hpp"

namespace vqx::chain {

inline constexpr unsigned kRun = 64;           // terms per run
inline constexpr unsigned kRunsPerChunk = 64;  // runs per chunk
inline constexpr unsigned kChunk = kRun * kRunsPerChunk;
inline constexpr unsigned kMaxChains = 4;          // chains per launch
inline constexpr unsigned kTotalThreads = 256;     // chunk_totals_kernel's block
inline constexpr unsigned kStepThreads = 256;      // run and chunk Steps: threads per block
inline constexpr unsigned kEstimateThreads = 256;  // estimates_kernel's block
inline constexpr unsigned kWalkThreads = 256;      // walk_kernel's block
inline constexpr unsigned kWalkBatch = 256;        // chunks whose Steps the walk loads at once

// The chains of one launch: chain k's `length` terms are at
// terms + kChunk * first_chunk[k], its `chunks` chunks cover them (the
// terms past its length are taken as +0, never read).
template <typename Term>
struct Chains {
  const Term* terms;
  unsigned count;
  unsigned first_chunk[kMaxChains];
  unsigned chunks[kMaxChains];
  std::size_t length[kMaxChains];
};

// Entry k of one of Chains' per-chain arrays. Read with constant indices
// only (the loop is unrolled), so that the kernel argument stays in the
// argument space: an index known only at run time would make the compiler
// copy the whole argument to each thread's local memory.
template <typename T>
__device__ inline T chain_entry(const T (&a)[kMaxChains], unsigned k) {
  T v = a[0];
  VQX_UNROLL
  for (unsigned j = 1; j < kMaxChains; ++j) v = k == j ? a[j] : v;
  return v;
}

// The chain that chunk c belongs to (the chains' first chunks ascend).
template <typename Term>
__device__ inline unsigned chain_of(const Chains<Term>& ch, unsigned c) {
  unsigned k = 0;
  VQX_UNROLL
  for (unsigned j = 1; j < kMaxChains; ++j) k = j < ch.count && c >= ch.first_chunk[j] ? j : k;
  return k;
}

// Term i of chain k, counted from the chain's start.
template <typename Term>
__device__ inline Term term_at(const Chains<Term>& ch, unsigned k, std::size_t i) {
  return i < chain_entry(ch.length, k)
             ? ch.terms[std::size_t{kChunk} * chain_entry(ch.first_chunk, k) + i]
             : Term{0};
}

// Position of chunk c's first term in its chain k.
template <typename Term>
__device__ inline std::size_t chunk_start(const Chains<Term>& ch, unsigned k, unsigned c) {
  return std::size_t{kChunk} * (c - chain_entry(ch.first_chunk, k));
}

// One block per chunk, one thread per run: the run's terms in double from
// 0, then the chunk's runs by a fixed tree.
template <typename Term>
static __global__ void __launch_bounds__(kRunsPerChunk)
    totals_kernel(Chains<Term> ch, double* run_totals, double* totals) {
  __shared__ double s_sum[kRunsPerChunk];
  const unsigned c = blockIdx.x;
  const unsigned t = threadIdx.x;
  const unsigned k = chain_of(ch, c);
  const std::size_t first = chunk_start(ch, k, c) + std::size_t{kRun} * t;
  double sum = 0.0;
  for (unsigned i = 0; i < kRun; ++i) sum += static_cast<double>(term_at(ch, k, first + i));
  run_totals[std::size_t{c} * kRunsPerChunk + t] = sum;
  s_sum[t] = sum;
  __syncthreads();
  for (unsigned half = kRunsPerChunk / 2; half > 0; half /= 2) {
    if (t < half) s_sum[t] += s_sum[t + half];
    __syncthreads();
  }
  if (t == 0) totals[c] = s_sum[0];
}

// One block per chain: each thread adds the totals of a segment of the
// chain's chunks in order, the block adds the segments' sums into prefix
// sums by a fixed tree (Hillis and Steele), and each thread then keeps its
// chunks' estimates. Any fixed order does: an estimate only decides how
// often the walk adds terms one by one, never the result.
template <typename Acc, typename Term>
static __global__ void __launch_bounds__(kEstimateThreads)
    estimates_kernel(Chains<Term> ch, const double* totals, int* estimates, double* prefixes) {
  __shared__ double s_part[kEstimateThreads];
  const unsigned k = blockIdx.x;
  const unsigned t = threadIdx.x;
  const unsigned count = chain_entry(ch.chunks, k);
  const unsigned first = chain_entry(ch.first_chunk, k);
  const unsigned per = (count + kEstimateThreads - 1) / kEstimateThreads;
  const unsigned lo = first + (t * per < count ? t * per : count);
  const unsigned hi = first + ((t + 1) * per < count ? (t + 1) * per : count);
  double part = 0.0;
  for (unsigned c = lo; c < hi; ++c) part += totals[c];
  s_part[t] = part;
  __syncthreads();
  for (unsigned offset = 1; offset < kEstimateThreads; offset *= 2) {
    const double before = t >= offset ? s_part[t - offset] : 0.0;
    __syncthreads();
    s_part[t] += before;
    __syncthreads();
  }
  double running = t == 0 ? 0.0 : s_part[t - 1];
  for (unsigned c = lo; c < hi; ++c) {
    estimates[c] = estimate_exponent<Acc>(running);
    prefixes[c] = running;
    running += totals[c];
  }
}

// One thread per chunk: its runs' estimates.
template <typename Acc>
static __global__ void __launch_bounds__(kStepThreads)
    run_estimates_kernel(unsigned chunks, const double* prefixes, const double* run_totals,
                         int* run_estimates) {
  const unsigned c = blockIdx.x * kStepThreads + threadIdx.x;
  if (c >= chunks) return;
  double running = prefixes[c];
  for (unsigned r = 0; r < kRunsPerChunk; ++r) {
    const std::size_t run = std::size_t{c} * kRunsPerChunk + r;
    run_estimates[run] = estimate_exponent<Acc>(running);
    running += run_totals[run];
  }
}

// A run's Steps come in two sets: around its chunk's estimate (set 0,
// which chunk_steps_kernel composes into the chunk's) and around its own
// (set 1, which the walk uses within a chunk whose Step did not apply: the
// sum may have left the chunk's binades there). Each kCandidates Steps.
inline constexpr unsigned kRunSets = 2;
inline constexpr unsigned kRunStepCount = kRunSets * kCandidates;  // Steps per run

// The Step of the `kRun` terms from `first` of chain k for binade e, formed
// in the chain's narrowest counts (RunStep). A run wholly inside its chain
// (all but a chain's last) reads its terms from one pointer, unguarded.
template <typename Acc, typename Term>
__device__ inline Step run_step(const Chains<Term>& ch, unsigned k, std::size_t first, int e) {
  using U = RunCount<Acc>;
  RunStep<Acc> st{0U, 0U};
  if (first + kRun <= chain_entry(ch.length, k)) {
    const Term* t = ch.terms + std::size_t{kChunk} * chain_entry(ch.first_chunk, k) + first;
    for (unsigned j = 0; j < kRun; ++j) st = compose<Acc>(st, term_step<Acc, Term, U>(t[j], e));
  } else {
    for (unsigned j = 0; j < kRun; ++j) {
      st = compose<Acc>(st, term_step<Acc, Term, U>(term_at(ch, k, first + j), e));
    }
  }
  return widened(st);
}

// One thread per run and candidate binade i: both sets' Steps i,
// steps[run * kRunStepCount + set * kCandidates + i]. A run's estimate is
// mostly its chunk's (the sum crosses a power of two in few runs), and then
// its two sets are the same binades: formed once.
template <typename Acc, typename Term>
static __global__ void __launch_bounds__(kStepThreads)
    run_steps_kernel(Chains<Term> ch, unsigned runs, const int* estimates, const int* run_estimates,
                     Step* steps) {
  const unsigned g = blockIdx.x * kStepThreads + threadIdx.x;
  const unsigned run = g / kCandidates;
  if (run >= runs) return;
  const int i = static_cast<int>(g % kCandidates);
  const unsigned c = run / kRunsPerChunk;
  const unsigned k = chain_of(ch, c);
  const int e0 = estimates[c] - kBelow + i;
  const int e1 = run_estimates[run] - kBelow + i;
  const std::size_t first = chunk_start(ch, k, c) + std::size_t{kRun} * (run % kRunsPerChunk);
  const Step st0 = run_step<Acc, Term>(ch, k, first, e0);
  Step* out = steps + std::size_t{run} * kRunStepCount + i;
  out[0] = st0;
  out[kCandidates] = e1 == e0 ? st0 : run_step<Acc, Term>(ch, k, first, e1);
}

// One thread per chunk and candidate binade: its runs' set-0 Steps composed.
template <typename Acc>
static __global__ void __launch_bounds__(kStepThreads)
    chunk_steps_kernel(unsigned chunks, const Step* run_steps, Step* chunk_steps) {
  const unsigned g = blockIdx.x * kStepThreads + threadIdx.x;
  const unsigned c = g / kCandidates;
  if (c >= chunks) return;
  const unsigned i = g % kCandidates;
  Step st{0U, 0U};
  for (unsigned r = 0; r < kRunsPerChunk; ++r) {
    st = compose<Acc>(st, run_steps[(std::size_t{c} * kRunsPerChunk + r) * kRunStepCount + i]);
  }
  chunk_steps[g] = st;
}

// The walk brings a chunk's terms into shared memory in pieces of 16 KiB:
// the whole chunk of floats, half a chunk of doubles (the walk's shared
// arrays stay within the 48 KiB a block may declare).
template <typename Term>
inline constexpr unsigned kWalkTerms = kChunk * sizeof(float) / sizeof(Term);
static_assert(kWalkTerms<double> % kRun == 0 && kChunk % kWalkTerms<double> == 0);

// One block per chain: the chain's result in sums[k]. The walk itself is
// sequential, one thread's (thread 0); the block's threads bring what it
// reads into shared memory first, so that each step waits for shared
// memory, not for a global load: the Steps and estimates of kWalkBatch
// chunks at a time, and, for a chunk whose Step does not apply, its runs'
// set-1 Steps and estimates and its terms (kWalkTerms at a time).
template <typename Acc, typename Term>
static __global__ void __launch_bounds__(kWalkThreads)
    walk_kernel(Chains<Term> ch, const int* estimates, const int* run_estimates,
                const Step* run_steps, const Step* chunk_steps, Acc* sums) {
  constexpr unsigned kPiece = kWalkTerms<Term>;
  __shared__ Step s_chunks[kWalkBatch * kCandidates];
  __shared__ int s_estimates[kWalkBatch];
  __shared__ Step s_runs[kRunsPerChunk * kCandidates];  // a chunk's runs' set-1 Steps
  __shared__ int s_run_estimates[kRunsPerChunk];
  __shared__ Term s_terms[kPiece];
  __shared__ unsigned s_detail;  // thread 0's word: the batch's chunk to add in detail, or n
  const unsigned k = blockIdx.x;
  const unsigned t = threadIdx.x;
  const unsigned end = chain_entry(ch.first_chunk, k) + chain_entry(ch.chunks, k);
  Acc s = 0;  // thread 0's running sum
  for (unsigned base = chain_entry(ch.first_chunk, k); base < end; base += kWalkBatch) {
    const unsigned n = end - base < kWalkBatch ? end - base : kWalkBatch;
    for (unsigned i = t; i < n * kCandidates; i += kWalkThreads) {
      s_chunks[i] = chunk_steps[std::size_t{base} * kCandidates + i];
    }
    for (unsigned i = t; i < n; i += kWalkThreads) s_estimates[i] = estimates[base + i];
    __syncthreads();
    unsigned next = 0;  // thread 0's next chunk of the batch
    for (;;) {
      if (t == 0) {
        while (next < n && try_step(s, s_chunks + next * kCandidates, s_estimates[next])) ++next;
        s_detail = next;
      }
      __syncthreads();
      const unsigned j = s_detail;
      if (j >= n) break;  // the same for every thread
      const unsigned c = base + j;
      for (unsigned i = t; i < kRunsPerChunk * kCandidates; i += kWalkThreads) {
        const std::size_t run = std::size_t{c} * kRunsPerChunk + i / kCandidates;
        s_runs[i] = run_steps[run * kRunStepCount + kCandidates + i % kCandidates];
      }
      for (unsigned i = t; i < kRunsPerChunk; i += kWalkThreads) {
        s_run_estimates[i] = run_estimates[std::size_t{c} * kRunsPerChunk + i];
      }
      const std::size_t first = chunk_start(ch, k, c);
      for (unsigned piece = 0; piece < kChunk; piece += kPiece) {
        for (unsigned i = t; i < kPiece; i += kWalkThreads) {
          s_terms[i] = term_at(ch, k, first + piece + i);
        }
        __syncthreads();
        if (t == 0) {
          for (unsigned r = piece / kRun; r < (piece + kPiece) / kRun; ++r) {
            if (try_step(s, s_runs + r * kCandidates, s_run_estimates[r])) continue;
            for (unsigned i = 0; i < kRun; ++i) s = add(s, s_terms[r * kRun - piece + i]);
          }
        }
        // The piece (after the last, the detail's arrays and s_detail) is
        // read before it is written again.
        __syncthreads();
      }
      if (t == 0) next = j + 1;
    }
  }
  if (t == 0) sums[k] = s;
}

}  // namespace vqx::chain

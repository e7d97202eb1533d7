// The launches of gpu/chain_sum.cuh's kernels (gpu/chain_sums.cuh) on the
// host, for the device-free tests: include gpu_on_host.hpp first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/chain_sum.cuh"

namespace vqx::chain_on_host {

// How the walk went: the chunks whose Step did not apply (added in detail)
// and, of their runs, those added term by term.
struct WalkCounts {
  unsigned chunks = 0;
  unsigned detailed_chunks = 0;
  unsigned term_runs = 0;
};

// The kernels' launches (gpu/chain_sums.cuh) on the host (those without
// barriers thread by thread), for the given chains of `Term`s (float, or
// double for a double chain); with `estimate_override`, every estimate is
// replaced by it before the Steps are formed; with `counts`, the walk is
// retraced on the host to count its detours.
template <typename Acc, typename Term = float>
inline std::vector<Acc> kernel_sums(const std::vector<std::vector<Term>>& chains,
                                    const int* estimate_override = nullptr,
                                    WalkCounts* counts = nullptr) {
  chain::Chains<Term> ch{};
  ch.count = static_cast<unsigned>(chains.size());
  unsigned chunks = 0;
  for (std::size_t k = 0; k < chains.size(); ++k) {
    ch.first_chunk[k] = chunks;
    ch.chunks[k] = static_cast<unsigned>(ceil_div(chains[k].size(), std::size_t{chain::kChunk}));
    ch.length[k] = chains[k].size();
    chunks += ch.chunks[k];
  }
  // Past each chain's terms: values that must never be read.
  std::vector<Term> terms(std::size_t{chunks} * chain::kChunk,
                          std::numeric_limits<Term>::quiet_NaN());
  for (std::size_t k = 0; k < chains.size(); ++k) {
    // (std::copy: an empty chain's data() may be null, which memcpy must
    // not be given even for no bytes.)
    std::copy(chains[k].begin(), chains[k].end(),
              terms.begin() + std::ptrdiff_t{chain::kChunk} * ch.first_chunk[k]);
  }
  ch.terms = terms.data();
  const unsigned runs = chunks * chain::kRunsPerChunk;
  std::vector<double> run_totals(runs);
  std::vector<double> totals(chunks);
  std::vector<int> estimates(chunks);
  std::vector<double> prefixes(chunks);
  std::vector<int> run_estimates(runs);
  std::vector<chain::Step> run_steps(std::size_t{runs} * chain::kRunStepCount);
  std::vector<chain::Step> chunk_steps(std::size_t{chunks} * chain::kCandidates);
  std::vector<Acc> sums(chains.size());
  gpu_on_host::run_grid({chunks}, {chain::kRunsPerChunk},
                        [&] { chain::totals_kernel<Term>(ch, run_totals.data(), totals.data()); });
  gpu_on_host::run_grid({ch.count}, {chain::kEstimateThreads}, [&] {
    chain::estimates_kernel<Acc, Term>(ch, totals.data(), estimates.data(), prefixes.data());
  });
  gpu_on_host::run_each({ceil_div(chunks, chain::kStepThreads)}, {chain::kStepThreads}, [&] {
    chain::run_estimates_kernel<Acc>(chunks, prefixes.data(), run_totals.data(),
                                     run_estimates.data());
  });
  if (estimate_override != nullptr) {
    for (int& e : estimates) e = *estimate_override;
    for (int& e : run_estimates) e = *estimate_override;
  }
  gpu_on_host::run_each({ceil_div(runs * chain::kCandidates, chain::kStepThreads)},
                        {chain::kStepThreads}, [&] {
                          chain::run_steps_kernel<Acc, Term>(
                              ch, runs, estimates.data(), run_estimates.data(), run_steps.data());
                        });
  gpu_on_host::run_each(
      {ceil_div(chunks * chain::kCandidates, chain::kStepThreads)}, {chain::kStepThreads},
      [&] { chain::chunk_steps_kernel<Acc>(chunks, run_steps.data(), chunk_steps.data()); });
  gpu_on_host::run_grid({ch.count}, {chain::kWalkThreads}, [&] {
    chain::walk_kernel<Acc, Term>(ch, estimates.data(), run_estimates.data(), run_steps.data(),
                                  chunk_steps.data(), sums.data());
  });
  if (counts != nullptr) {
    for (unsigned k = 0; k < ch.count; ++k) {
      Acc sum = 0;
      for (unsigned c = ch.first_chunk[k]; c < ch.first_chunk[k] + ch.chunks[k]; ++c) {
        ++counts->chunks;
        if (chain::try_step(sum, chunk_steps.data() + std::size_t{c} * chain::kCandidates,
                            estimates[c])) {
          continue;
        }
        ++counts->detailed_chunks;
        for (unsigned r = 0; r < chain::kRunsPerChunk; ++r) {
          const std::size_t run = std::size_t{c} * chain::kRunsPerChunk + r;
          if (chain::try_step(sum,
                              run_steps.data() + run * chain::kRunStepCount + chain::kCandidates,
                              run_estimates[run])) {
            continue;
          }
          ++counts->term_runs;
          for (unsigned i = 0; i < chain::kRun; ++i)
            sum = chain::add(sum, terms[run * chain::kRun + i]);
        }
      }
    }
  }
  return sums;
}

}  // namespace vqx::chain_on_host

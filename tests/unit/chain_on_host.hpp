// The launches of gpu/chain_sum.cuh's kernels (gpu/chain_sums.cuh) on the
// host, for the device-free tests: include gpu_on_host.hpp first.
#pragma once

#include <cstring>
#include <limits>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/chain_sum.cuh"

namespace vqx::chain_on_host {

// The kernels' launches (gpu/chain_sums.cuh) on the host (those without
// barriers thread by thread), for the given
// chains; with `estimate_override`, every estimate is replaced by it
// before the Steps are formed.
template <typename Acc>
inline std::vector<Acc> kernel_sums(const std::vector<std::vector<float>>& chains,
                                    const int* estimate_override = nullptr) {
  chain::Chains ch{};
  ch.count = static_cast<unsigned>(chains.size());
  unsigned chunks = 0;
  for (std::size_t k = 0; k < chains.size(); ++k) {
    ch.first_chunk[k] = chunks;
    ch.chunks[k] = static_cast<unsigned>(ceil_div(chains[k].size(), std::size_t{chain::kChunk}));
    ch.length[k] = chains[k].size();
    chunks += ch.chunks[k];
  }
  // Past each chain's terms: values that must never be read.
  std::vector<float> terms(std::size_t{chunks} * chain::kChunk,
                           std::numeric_limits<float>::quiet_NaN());
  for (std::size_t k = 0; k < chains.size(); ++k) {
    std::memcpy(terms.data() + std::size_t{chain::kChunk} * ch.first_chunk[k], chains[k].data(),
                chains[k].size() * sizeof(float));
  }
  ch.terms = terms.data();
  std::vector<double> totals(chunks);
  std::vector<int> estimates(chunks);
  const unsigned runs = chunks * chain::kRunsPerChunk;
  std::vector<chain::Step> run_steps(std::size_t{runs} * chain::kCandidates);
  std::vector<chain::Step> chunk_steps(std::size_t{chunks} * chain::kCandidates);
  std::vector<Acc> sums(chains.size());
  gpu_on_host::run_grid({chunks}, {chain::kTotalThreads},
                        [&] { chain::chunk_totals_kernel(ch, totals.data()); });
  gpu_on_host::run_each({ch.count}, {1},
                        [&] { chain::estimates_kernel<Acc>(ch, totals.data(), estimates.data()); });
  if (estimate_override != nullptr) {
    for (int& e : estimates) e = *estimate_override;
  }
  gpu_on_host::run_each(
      {ceil_div(runs * chain::kCandidates, chain::kStepThreads)}, {chain::kStepThreads},
      [&] { chain::run_steps_kernel<Acc>(ch, runs, estimates.data(), run_steps.data()); });
  gpu_on_host::run_each(
      {ceil_div(chunks * chain::kCandidates, chain::kStepThreads)}, {chain::kStepThreads},
      [&] { chain::chunk_steps_kernel<Acc>(chunks, run_steps.data(), chunk_steps.data()); });
  gpu_on_host::run_each({ch.count}, {1}, [&] {
    chain::walk_kernel<Acc>(ch, estimates.data(), run_steps.data(), chunk_steps.data(),
                            sums.data());
  });
  return sums;
}

}  // namespace vqx::chain_on_host

// Buffers and launches of gpu/chain_sum.cuh's kernels: up to kMaxChains
// chains of `Term`s (float, or double for a double chain), each summed as
// libvmaf's sequential chain into an `Acc` (float or double), with the
// chain's exact result. A twin's kernels write chain k's terms at
// terms(k) (in the chain's order), then the twin calls launch(); the
// results are at sums(), one Acc per chain. Every buffer is written in full
// by a kernel before it is read: nothing to clear.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
// The kernels after the runtime: with HIP, __launch_bounds__ comes with
// hip_runtime.h (nvcc defines it before any header).
#include "gpu/chain_sum.cuh"

namespace vqx::chain {

template <typename Acc, typename Term = float>
class ChainSums {
  static_assert(sizeof(Term) <= sizeof(Acc), "a chain's terms are at most as wide as its sum");

 public:
  // Chains of the given lengths (terms); `family` names the launches.
  Status allocate(std::span<const std::size_t> lengths, const std::string& family) {
    if (lengths.empty() || lengths.size() > kMaxChains) {
      return Error(Errc::kInternal, family + ": " + std::to_string(lengths.size()) +
                                        " chains of sums (1 to 4 are possible)");
    }
    for (std::size_t i = 0; i < kKernels; ++i) names_[i] = family + " " + kKernelNames[i];
    chains_ = Chains<Term>{};
    chains_.count = static_cast<unsigned>(lengths.size());
    unsigned chunks = 0;
    for (std::size_t k = 0; k < lengths.size(); ++k) {
      chains_.first_chunk[k] = chunks;
      chains_.chunks[k] = static_cast<unsigned>(ceil_div(lengths[k], std::size_t{kChunk}));
      chains_.length[k] = lengths[k];
      chunks += chains_.chunks[k];
    }
    chunks_ = chunks;
    const std::size_t runs = std::size_t{chunks} * kRunsPerChunk;
    VQX_ASSIGN_OR_RETURN(terms_, gpu::DeviceBuffer<Term>::allocate(std::size_t{chunks} * kChunk));
    VQX_ASSIGN_OR_RETURN(run_totals_, gpu::DeviceBuffer<double>::allocate(runs));
    VQX_ASSIGN_OR_RETURN(totals_, gpu::DeviceBuffer<double>::allocate(chunks));
    VQX_ASSIGN_OR_RETURN(estimates_, gpu::DeviceBuffer<int>::allocate(chunks));
    VQX_ASSIGN_OR_RETURN(prefixes_, gpu::DeviceBuffer<double>::allocate(chunks));
    VQX_ASSIGN_OR_RETURN(run_estimates_, gpu::DeviceBuffer<int>::allocate(runs));
    VQX_ASSIGN_OR_RETURN(run_steps_, gpu::DeviceBuffer<Step>::allocate(runs * kRunStepCount));
    VQX_ASSIGN_OR_RETURN(chunk_steps_,
                         gpu::DeviceBuffer<Step>::allocate(std::size_t{chunks} * kCandidates));
    VQX_ASSIGN_OR_RETURN(sums_, gpu::DeviceBuffer<Acc>::allocate(lengths.size()));
    chains_.terms = terms_.get();
    return Status::Ok();
  }

  // Where chain k's terms go.
  [[nodiscard]] Term* terms(unsigned k) const {
    return terms_.get() + std::size_t{kChunk} * chains_.first_chunk[k];
  }

  // Queues the sums of every chain (after the kernels that write the terms).
  Status launch(const gpu::Stream& s) const {
    totals_kernel<Term>
        <<<chunks_, kRunsPerChunk, 0, s.handle()>>>(chains_, run_totals_.get(), totals_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch(names_[0].c_str()));
    estimates_kernel<Acc, Term><<<chains_.count, kEstimateThreads, 0, s.handle()>>>(
        chains_, totals_.get(), estimates_.get(), prefixes_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch(names_[1].c_str()));
    run_estimates_kernel<Acc><<<ceil_div(chunks_, kStepThreads), kStepThreads, 0, s.handle()>>>(
        chunks_, prefixes_.get(), run_totals_.get(), run_estimates_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch(names_[2].c_str()));
    const unsigned runs = chunks_ * kRunsPerChunk;
    run_steps_kernel<Acc, Term>
        <<<ceil_div(runs * kCandidates, kStepThreads), kStepThreads, 0, s.handle()>>>(
            chains_, runs, estimates_.get(), run_estimates_.get(), run_steps_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch(names_[3].c_str()));
    chunk_steps_kernel<Acc>
        <<<ceil_div(chunks_ * kCandidates, kStepThreads), kStepThreads, 0, s.handle()>>>(
            chunks_, run_steps_.get(), chunk_steps_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch(names_[4].c_str()));
    walk_kernel<Acc, Term><<<chains_.count, kWalkThreads, 0, s.handle()>>>(
        chains_, estimates_.get(), run_estimates_.get(), run_steps_.get(), chunk_steps_.get(),
        sums_.get());
    return gpu::check_launch(names_[5].c_str());
  }

  // The chains' results, one per chain, once launch()'s kernels have run.
  [[nodiscard]] const gpu::DeviceBuffer<Acc>& sums() const { return sums_; }

 private:
  static constexpr std::size_t kKernels = 6;
  static constexpr const char* kKernelNames[kKernels] = {"totals_kernel",        "estimates_kernel",
                                                         "run_estimates_kernel", "run_steps_kernel",
                                                         "chunk_steps_kernel",   "walk_kernel"};
  std::string names_[kKernels];  // for the launch errors
  Chains<Term> chains_{};
  unsigned chunks_ = 0;
  gpu::DeviceBuffer<Term> terms_;
  gpu::DeviceBuffer<double> run_totals_;
  gpu::DeviceBuffer<double> totals_;
  gpu::DeviceBuffer<int> estimates_;
  gpu::DeviceBuffer<double> prefixes_;
  gpu::DeviceBuffer<int> run_estimates_;
  gpu::DeviceBuffer<Step> run_steps_;
  gpu::DeviceBuffer<Step> chunk_steps_;
  gpu::DeviceBuffer<Acc> sums_;
};

}  // namespace vqx::chain

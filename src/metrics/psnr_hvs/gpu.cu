// psnr_hvs on the GPU, bit for bit the CPU twin (cpu.cpp): each plane's
// blocks' terms (gpu_kernels.cuh), their sum as libvmaf's float chain
// (gpu/chain_sums.cuh: the chain's exact result), read back; the host
// finishes the errors and writes the values with the CPU's own code
// (pointwise.hpp's plane_error_of, scores.cpp). docs/gpu.md, "The
// psnr_hvs twin", says why every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>

#include "core/index_math.hpp"
#include "gpu/chain_sums.cuh"
#include "gpu/runtime.hpp"
#include "metrics/psnr_hvs/cpu.hpp"
#include "metrics/psnr_hvs/gpu.hpp"
#include "metrics/psnr_hvs/gpu_kernels.cuh"
#include "metrics/psnr_hvs/scores.hpp"

namespace vqx::psnr_hvs {

namespace {

constexpr unsigned kPlanes = 3;

BlockWeights block_weights(const Table& csf) {
  const Weights w = make_weights(csf);
  return {w.csf, w.mask};
}

class PsnrHvsTwin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: its chain sums are walked by one thread per chain: 4K 838 -> 1237 fps
  // side by side (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  [[nodiscard]] unsigned planes_needed(const PictureFormat& fmt) const override {
    return fmt.plane_count();
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_RETURN_IF_ERROR(check_format(fmt));
    fmt_ = fmt;
    weights_ = {block_weights(kCsfY), block_weights(kCsfCb), block_weights(kCsfCr)};
    std::array<std::size_t, kPlanes> lengths{};
    for (unsigned p = 0; p < kPlanes; ++p) {
      blocks_x_[p] = blocks_along(fmt.plane_width(p));
      blocks_[p] = blocks_x_[p] * blocks_along(fmt.plane_height(p));
      lengths[p] = std::size_t{blocks_[p]} * kBlockArea;
    }
    VQX_RETURN_IF_ERROR(sums_.allocate(lengths, "psnr_hvs"));
    VQX_ASSIGN_OR_RETURN(results_,
                         gpu::PinnedBuffer<float>::allocate(std::size_t{slots} * kPlanes));
    return Status::Ok();
  }

  // No accumulator: the terms and every buffer of the sums are written in
  // full every frame before they are read.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    for (unsigned p = 0; p < kPlanes; ++p) {
      if (fmt_.bpc == 8) {
        VQX_RETURN_IF_ERROR(terms_of<std::uint8_t>(f, p, s));
      } else {
        VQX_RETURN_IF_ERROR(terms_of<std::uint16_t>(f, p, s));
      }
    }
    VQX_RETURN_IF_ERROR(sums_.launch(s));
    return gpu::copy_to_host_async(results_.get() + std::size_t{kPlanes} * slot, sums_.sums().get(),
                                   kPlanes * sizeof(float), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const float* sums = results_.get() + std::size_t{kPlanes} * slot;
    std::array<float, kPlanes> errors{};
    for (unsigned p = 0; p < kPlanes; ++p)
      errors[p] = plane_error_of(sums[p], blocks_[p], fmt_.bpc);
    write_scores(errors, index, out);
    return Status::Ok();
  }

 private:
  template <typename Sample>
  Status terms_of(const gpu::DeviceFrame& f, unsigned p, const gpu::Stream& s) {
    const SampleView<Sample> ref{static_cast<const std::uint8_t*>(f.ref[p].data), f.ref[p].pitch};
    const SampleView<Sample> dist{static_cast<const std::uint8_t*>(f.dist[p].data),
                                  f.dist[p].pitch};
    terms_kernel<Sample><<<ceil_div(blocks_[p], kBlocksPerCta), kBlockThreads, 0, s.handle()>>>(
        ref, dist, blocks_x_[p], blocks_[p], weights_[p], sums_.terms(p));
    return gpu::check_launch("psnr_hvs terms_kernel");
  }

  PictureFormat fmt_;
  std::array<BlockWeights, kPlanes> weights_{};
  std::array<unsigned, kPlanes> blocks_x_{};
  std::array<unsigned, kPlanes> blocks_{};
  chain::ChainSums<float> sums_;
  gpu::PinnedBuffer<float> results_;  // per result slot: the planes' sums
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<PsnrHvsTwin>(); }

}  // namespace vqx::psnr_hvs

// Integer SSIM on the GPU, bit for bit the CPU twin (family.cpp, cpu.cpp):
// the window sums (exact integers) and every pixel's term W * ssim (one
// constexpr function for both twins) on the device, gpu_kernels.cuh; the
// terms' sum as the reference's one chain of double additions in
// row-major order from 0.0 (gpu/chain_sums.cuh: the chain's exact result,
// the CPU's add_in_order's bits), read back, one double per frame; the
// host writes the score with the CPU's own function (score.hpp). docs/gpu.md
// says why every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>

#include "core/index_math.hpp"
#include "gpu/chain_sums.cuh"
#include "gpu/runtime.hpp"
#include "metrics/integer_ssim/gpu.hpp"
#include "metrics/integer_ssim/gpu_kernels.cuh"
#include "metrics/integer_ssim/score.hpp"

namespace vqx::integer_ssim {

namespace {

class IntegerSsimTwin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: its frame ends in chain sums of one thread each: 4K 750 -> 898 fps
  // side by side (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    pixels_ = std::size_t{fmt.width} * fmt.height;
    VQX_ASSIGN_OR_RETURN(maps_, gpu::DeviceBuffer<std::int64_t>::allocate(kSumMaps * pixels_));
    const std::array<std::size_t, 1> lengths = {pixels_};
    VQX_RETURN_IF_ERROR(sums_.allocate(lengths, "ssim"));
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<double>::allocate(slots));
    return Status::Ok();
  }

  // Nothing accumulates on the device: the maps, the terms and every buffer
  // of the chain sum are written in full every frame before they are read.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    const SumMaps maps{maps_.get(), pixels_, static_cast<int>(fmt_.width),
                       static_cast<int>(fmt_.height)};
    const dim3 grid(ceil_div(fmt_.width, kBlockX), ceil_div(fmt_.height, kBlockY));
    const dim3 block(kBlockX, kBlockY);
    const WindowTaps taps = window_taps();
    if (fmt_.bpc == 8) {
      horizontal_kernel<std::uint8_t><<<grid, block, 0, s.handle()>>>(
          luma<std::uint8_t>(f.ref[0]), luma<std::uint8_t>(f.dist[0]), taps, maps);
    } else {
      horizontal_kernel<std::uint16_t><<<grid, block, 0, s.handle()>>>(
          luma<std::uint16_t>(f.ref[0]), luma<std::uint16_t>(f.dist[0]), taps, maps);
    }
    VQX_RETURN_IF_ERROR(gpu::check_launch("ssim horizontal_kernel"));
    terms_kernel<<<grid, block, 0, s.handle()>>>(maps, taps, peak_squared(fmt_.bpc),
                                                 sums_.terms(0));
    VQX_RETURN_IF_ERROR(gpu::check_launch("ssim terms_kernel"));
    VQX_RETURN_IF_ERROR(sums_.launch(s));
    return gpu::copy_to_host_async(&results_[slot], sums_.sums().get(), sizeof(double), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    out.write(
        0, index,
        frame_score(results_[slot], static_cast<int>(fmt_.width), static_cast<int>(fmt_.height)));
    return Status::Ok();
  }

 private:
  template <typename Sample>
  static LumaRows<Sample> luma(const gpu::DevicePlane& p) {
    return {static_cast<const std::uint8_t*>(p.data), p.pitch};
  }

  PictureFormat fmt_;
  std::size_t pixels_ = 0;
  gpu::DeviceBuffer<std::int64_t> maps_;  // the five maps of window sums
  // Each pixel's W * ssim, row-major (terms(0)), and their chain's sum.
  chain::ChainSums<double, double> sums_;
  gpu::PinnedBuffer<double> results_;  // per result slot: the frame's sum
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<IntegerSsimTwin>(); }

}  // namespace vqx::integer_ssim

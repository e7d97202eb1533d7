// Integer SSIM on the GPU, bit for bit the CPU twin (family.cpp, cpu.cpp):
// the window sums (exact integers) and every pixel's term W * ssim (one
// constexpr function for both twins) on the device, gpu_kernels.cuh; the
// terms read back, one double per pixel, and added on the host in
// row-major order by the CPU's own function (score.hpp), since only that
// one chain of double additions gives the reference's bits. docs/gpu.md
// says why every step gives the CPU's bits.
#include <cstdint>
#include <memory>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/integer_ssim/gpu.hpp"
#include "metrics/integer_ssim/gpu_kernels.cuh"
#include "metrics/integer_ssim/score.hpp"

namespace vqx::integer_ssim {

namespace {

class IntegerSsimTwin final : public gpu::Twin {
 public:
  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    pixels_ = std::size_t{fmt.width} * fmt.height;
    VQX_ASSIGN_OR_RETURN(sums_, gpu::DeviceBuffer<std::int64_t>::allocate(kSumMaps * pixels_));
    VQX_ASSIGN_OR_RETURN(terms_, gpu::DeviceBuffer<double>::allocate(pixels_));
    VQX_ASSIGN_OR_RETURN(host_terms_, gpu::PinnedBuffer<double>::allocate(slots * pixels_));
    return Status::Ok();
  }

  // Nothing accumulates on the device: the maps and the terms are written
  // in full every frame before they are read.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    const SumMaps maps{sums_.get(), pixels_, static_cast<int>(fmt_.width),
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
    terms_kernel<<<grid, block, 0, s.handle()>>>(maps, taps, peak_squared(fmt_.bpc), terms_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch("ssim terms_kernel"));
    return gpu::copy_to_host_async(host_terms_.get() + pixels_ * slot, terms_.get(), terms_.bytes(),
                                   s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const double sum = add_in_order(0.0, host_terms_.get() + pixels_ * slot, pixels_);
    out.write(0, index,
              frame_score(sum, static_cast<int>(fmt_.width), static_cast<int>(fmt_.height)));
    return Status::Ok();
  }

 private:
  template <typename Sample>
  static LumaRows<Sample> luma(const gpu::DevicePlane& p) {
    return {static_cast<const std::uint8_t*>(p.data), p.pitch};
  }

  PictureFormat fmt_;
  std::size_t pixels_ = 0;
  gpu::DeviceBuffer<std::int64_t> sums_;  // the five maps of window sums
  gpu::DeviceBuffer<double> terms_;       // each pixel's W * ssim, row-major
  gpu::PinnedBuffer<double> host_terms_;  // the same, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<IntegerSsimTwin>(); }

}  // namespace vqx::integer_ssim

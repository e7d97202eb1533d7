// float_psnr on the GPU. Up to kMaxExactBpc bits the sum is the integer SSE
// scaled (exact, as on the CPU: bit-identical); deeper, the reference's
// per-sample float squares summed in double, per block in a fixed tree and
// over the blocks in order on the host (within the float table's 1e-6).
#include <vector>

#include "gpu/plane_sums.cuh"
#include "gpu/runtime.hpp"
#include "metrics/float_psnr/gpu.hpp"
#include "metrics/float_psnr/params.hpp"
#include "metrics/float_psnr/score.hpp"

namespace vqx::float_psnr {

namespace {

class FloatPsnrTwin final : public gpu::Twin {
 public:
  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    exact_ = fmt.bpc <= kMaxExactBpc;
    const dim3 g = gpu::sums_grid(fmt.width, fmt.height);
    blocks_ = g.x * g.y;
    per_slot_ = exact_ ? sizeof(unsigned long long) : blocks_ * gpu::kFloatSums * sizeof(double);
    VQX_ASSIGN_OR_RETURN(sums_, gpu::DeviceBuffer<unsigned long long>::allocate(gpu::kIntegerSums));
    if (!exact_) {
      VQX_ASSIGN_OR_RETURN(partials_, gpu::DeviceBuffer<double>::allocate(blocks_ * gpu::kFloatSums));
    }
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<std::uint8_t>::allocate(per_slot_ * slots));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return gpu::clear_async(sums_, s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    const dim3 grid = gpu::sums_grid(fmt_.width, fmt_.height);
    void* dst = results_.get() + per_slot_ * slot;
    if (exact_) {
      if (fmt_.bpc == 8) {
        gpu::integer_sums_kernel<std::uint8_t>
            <<<grid, gpu::kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], sums_.get());
      } else {
        gpu::integer_sums_kernel<std::uint16_t>
            <<<grid, gpu::kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], sums_.get());
      }
      VQX_RETURN_IF_ERROR(gpu::check_launch("float_psnr integer_sums_kernel"));
      return gpu::copy_to_host_async(dst, sums_.get() + gpu::kSse, sizeof(unsigned long long), s);
    }
    const float inv_scale = 1.0F / sample_scale(fmt_.bpc);
    gpu::float_square_sums_kernel<std::uint16_t>
        <<<grid, gpu::kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], inv_scale, partials_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch("float_psnr float_square_sums_kernel"));
    return gpu::copy_to_host_async(dst, partials_.get(), partials_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::uint8_t* r = results_.get() + per_slot_ * slot;
    double sum = 0;
    if (exact_) {
      const double scale = sample_scale(fmt_.bpc);
      sum = static_cast<double>(*reinterpret_cast<const unsigned long long*>(r)) / (scale * scale);
    } else {
      const auto* p = reinterpret_cast<const double*>(r);
      for (unsigned b = 0; b < blocks_; ++b) sum += p[b * gpu::kFloatSums + gpu::kFloatDiffSquares];
    }
    out.write(0, index, score(sum, fmt_));
    return Status::Ok();
  }

 private:
  PictureFormat fmt_;
  bool exact_ = true;
  unsigned blocks_ = 0;
  std::size_t per_slot_ = 0;
  gpu::DeviceBuffer<unsigned long long> sums_;
  gpu::DeviceBuffer<double> partials_;
  gpu::PinnedBuffer<std::uint8_t> results_;
};

}  // namespace

std::function<std::unique_ptr<gpu::Twin>()> twin_factory() {
  return []() -> std::unique_ptr<gpu::Twin> { return std::make_unique<FloatPsnrTwin>(); };
}

}  // namespace vqx::float_psnr

// float_moment on the GPU. The first moments are integer sums at every
// depth, and up to float_psnr::kMaxExactBpc bits so are the second (exact,
// as on the CPU: bit-identical); deeper, the second moments are the
// reference's per-sample float squares summed in double, per block in a
// fixed tree and over the blocks in order on the host (within 1e-6).
#include "gpu/plane_sums.cuh"
#include "gpu/runtime.hpp"
#include "metrics/float_psnr/params.hpp"
#include "metrics/moment/gpu.hpp"
#include "metrics/moment/score.hpp"

namespace vqx::moment {

namespace {

class MomentTwin final : public gpu::Twin {
 public:
  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    exact_ = fmt.bpc <= float_psnr::kMaxExactBpc;
    const dim3 g = gpu::sums_grid(fmt.width, fmt.height);
    blocks_ = g.x * g.y;
    partial_bytes_ = exact_ ? 0 : blocks_ * gpu::kFloatSums * sizeof(double);
    per_slot_ = gpu::kIntegerSums * sizeof(unsigned long long) + partial_bytes_;
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
    std::uint8_t* dst = results_.get() + per_slot_ * slot;
    if (fmt_.bpc == 8) {
      gpu::integer_sums_kernel<std::uint8_t>
          <<<grid, gpu::kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], sums_.get());
    } else {
      gpu::integer_sums_kernel<std::uint16_t>
          <<<grid, gpu::kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], sums_.get());
    }
    VQX_RETURN_IF_ERROR(gpu::check_launch("float_moment integer_sums_kernel"));
    VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(dst, sums_.get(), sums_.bytes(), s));
    if (exact_) return Status::Ok();
    const float inv_scale = 1.0F / float_psnr::sample_scale(fmt_.bpc);
    gpu::float_square_sums_kernel<std::uint16_t>
        <<<grid, gpu::kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], inv_scale, partials_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch("float_moment float_square_sums_kernel"));
    return gpu::copy_to_host_async(dst + sums_.bytes(), partials_.get(), partials_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::uint8_t* r = results_.get() + per_slot_ * slot;
    const auto* ints = reinterpret_cast<const unsigned long long*>(r);
    Sums ref{};
    Sums dist{};
    const double scale = float_psnr::sample_scale(fmt_.bpc);
    if (exact_) {  // cpu.cpp plane_sums: integer sums over powers of two
      ref = {static_cast<double>(ints[gpu::kSumA]) / scale,
             static_cast<double>(ints[gpu::kSquaresA]) / (scale * scale)};
      dist = {static_cast<double>(ints[gpu::kSumB]) / scale,
              static_cast<double>(ints[gpu::kSquaresB]) / (scale * scale)};
    } else {  // cpu.cpp deep_sums: integer first moment, float squares
      const float inv_scale = 1.0F / float_psnr::sample_scale(fmt_.bpc);
      const auto* p = reinterpret_cast<const double*>(r + gpu::kIntegerSums * sizeof(unsigned long long));
      double sa = 0;
      double sb = 0;
      for (unsigned b = 0; b < blocks_; ++b) {
        sa += p[b * gpu::kFloatSums + gpu::kFloatSquaresA];
        sb += p[b * gpu::kFloatSums + gpu::kFloatSquaresB];
      }
      ref = {static_cast<double>(ints[gpu::kSumA]) * inv_scale, sa};
      dist = {static_cast<double>(ints[gpu::kSumB]) * inv_scale, sb};
    }
    write_scores(ref, dist, fmt_, index, out);
    return Status::Ok();
  }

 private:
  PictureFormat fmt_;
  bool exact_ = true;
  unsigned blocks_ = 0;
  std::size_t partial_bytes_ = 0;
  std::size_t per_slot_ = 0;
  gpu::DeviceBuffer<unsigned long long> sums_;
  gpu::DeviceBuffer<double> partials_;
  gpu::PinnedBuffer<std::uint8_t> results_;
};

}  // namespace

std::function<std::unique_ptr<gpu::Twin>()> twin_factory() {
  return []() -> std::unique_ptr<gpu::Twin> { return std::make_unique<MomentTwin>(); };
}

}  // namespace vqx::moment

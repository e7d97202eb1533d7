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
    VQX_RETURN_IF_ERROR(sums_.allocate(fmt, exact_, !exact_, "float_psnr"));
    per_slot_ = exact_ ? sizeof(unsigned long long) : sums_.float_partials().bytes();
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<std::uint8_t>::allocate(per_slot_ * slots));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return sums_.clear(s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    void* dst = results_.get() + per_slot_ * slot;
    VQX_RETURN_IF_ERROR(sums_.launch(f, inv_sample_scale(fmt_.bpc), s));
    if (exact_) {
      return gpu::copy_to_host_async(dst, sums_.integer_sums().get() + gpu::kSse,
                                     sizeof(unsigned long long), s);
    }
    const gpu::DeviceBuffer<double>& partials = sums_.float_partials();
    return gpu::copy_to_host_async(dst, partials.get(), partials.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::uint8_t* r = results_.get() + per_slot_ * slot;
    double sum = 0;
    if (exact_) {
      sum = scaled_square_sum(*reinterpret_cast<const unsigned long long*>(r), fmt_.bpc);
    } else {
      const auto* p = reinterpret_cast<const double*>(r);
      for (unsigned b = 0; b < sums_.blocks(); ++b)
        sum += p[b * gpu::kFloatSums + gpu::kFloatDiffSquares];
    }
    out.write(0, index, score(sum, fmt_));
    return Status::Ok();
  }

 private:
  PictureFormat fmt_;
  bool exact_ = true;
  std::size_t per_slot_ = 0;
  gpu::PlaneSums sums_;
  gpu::PinnedBuffer<std::uint8_t> results_;
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<FloatPsnrTwin>(); }

}  // namespace vqx::float_psnr

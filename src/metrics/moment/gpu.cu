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
    VQX_RETURN_IF_ERROR(sums_.allocate(fmt, true, !exact_, "float_moment"));
    per_slot_ = sums_.integer_sums().bytes() + sums_.float_partials().bytes();
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<std::uint8_t>::allocate(per_slot_ * slots));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return sums_.clear(s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    std::uint8_t* dst = results_.get() + per_slot_ * slot;
    VQX_RETURN_IF_ERROR(sums_.launch(f, float_psnr::inv_sample_scale(fmt_.bpc), s));
    const gpu::DeviceBuffer<unsigned long long>& ints = sums_.integer_sums();
    VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(dst, ints.get(), ints.bytes(), s));
    if (exact_) return Status::Ok();
    const gpu::DeviceBuffer<double>& partials = sums_.float_partials();
    return gpu::copy_to_host_async(dst + ints.bytes(), partials.get(), partials.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::uint8_t* r = results_.get() + per_slot_ * slot;
    const auto* ints = reinterpret_cast<const unsigned long long*>(r);
    Sums ref{};
    Sums dist{};
    const unsigned bpc = fmt_.bpc;
    if (exact_) {  // cpu.cpp plane_sums: integer sums over powers of two
      ref = {float_psnr::scaled_sum(ints[gpu::kSumA], bpc),
             float_psnr::scaled_square_sum(ints[gpu::kSquaresA], bpc)};
      dist = {float_psnr::scaled_sum(ints[gpu::kSumB], bpc),
              float_psnr::scaled_square_sum(ints[gpu::kSquaresB], bpc)};
    } else {  // cpu.cpp deep_sums: integer first moment, float squares
      const float inv_scale = float_psnr::inv_sample_scale(bpc);
      const auto* p =
          reinterpret_cast<const double*>(r + gpu::kIntegerSums * sizeof(unsigned long long));
      double sa = 0;
      double sb = 0;
      for (unsigned b = 0; b < sums_.blocks(); ++b) {
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
  std::size_t per_slot_ = 0;
  gpu::PlaneSums sums_;
  gpu::PinnedBuffer<std::uint8_t> results_;
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin() { return std::make_unique<MomentTwin>(); }

}  // namespace vqx::moment

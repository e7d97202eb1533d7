// float_ssim on the GPU, bit for bit the CPU twin (ssim_family.cpp): the
// luma compared (equal pictures score exactly 1), subsampled by the box
// filter when the factor is above 1 (gpu_decimate.cuh), then the window
// (gpu_window.cuh) with its row sums read back; the host adds the rows in
// order and writes the values with the CPU's own code (scores.cpp).
// docs/gpu.md says why every step gives the CPU's bits.
#include <cstdint>
#include <memory>

#include "gpu/runtime.hpp"
#include "metrics/ssim/db.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/gpu.hpp"
#include "metrics/ssim/gpu_decimate.cuh"
#include "metrics/ssim/gpu_images.cuh"
#include "metrics/ssim/gpu_kernels.cuh"
#include "metrics/ssim/gpu_window.cuh"
#include "metrics/ssim/scores.hpp"

namespace vqx::ssim {

namespace {

constexpr const char* kFamily = "float_ssim";

class FloatSsimTwin final : public gpu::Twin {
 public:
  explicit FloatSsimTwin(const SsimConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_ASSIGN_OR_RETURN(geometry_, ssim_geometry(config_.scale, fmt.width, fmt.height));
    fmt_ = fmt;
    max_db_ = max_db(config_.clip_db, fmt.bpc, fmt.width, fmt.height);
    rows_ = window_positions(geometry_.window.height);
    if (geometry_.factor > 1) {
      taps_ = box_taps(geometry_.factor);
      VQX_RETURN_IF_ERROR(ref_small_.allocate(geometry_.window));
      VQX_RETURN_IF_ERROR(cmp_small_.allocate(geometry_.window));
    }
    VQX_RETURN_IF_ERROR(window_.allocate(geometry_.window, rows_, kFamily));
    VQX_RETURN_IF_ERROR(comparison_.allocate(kFamily));
    VQX_ASSIGN_OR_RETURN(
        row_sums_, gpu::PinnedBuffer<double>::allocate(std::size_t{slots} *
                                                       static_cast<std::size_t>(rows_) * kTerms));
    VQX_ASSIGN_OR_RETURN(differences_, gpu::PinnedBuffer<unsigned long long>::allocate(slots));
    return Status::Ok();
  }

  // The only accumulator is the count of differing samples; the images,
  // maps and row sums are written in full every frame before they are read.
  Status clear(const gpu::Stream& s) override { return comparison_.clear(s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    VQX_RETURN_IF_ERROR(comparison_.launch(f, fmt_.bpc, s));
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(window_of<std::uint8_t>(f, s));
    } else {
      VQX_RETURN_IF_ERROR(window_of<std::uint16_t>(f, s));
    }
    const std::size_t per_slot = static_cast<std::size_t>(rows_) * kTerms;
    VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(
        row_sums_.get() + per_slot * slot, window_.row_sums().get(), per_slot * sizeof(double), s));
    return gpu::copy_to_host_async(&differences_[slot], comparison_.count().get(),
                                   sizeof(unsigned long long), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const std::size_t per_slot = static_cast<std::size_t>(rows_) * kTerms;
    const WindowMeans means = differences_[slot] == 0
                                  ? kEqualPictures
                                  : window_means(add_rows(row_sums_.get() + per_slot * slot, rows_),
                                                 window_positions(geometry_.window.width) * rows_);
    write_ssim(config_, max_db_, means, index, out);
    return Status::Ok();
  }

 private:
  // The window over the luma, or over its subsampled images.
  template <typename Sample>
  Status window_of(const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const LumaView<Sample> ref = luma_view<Sample>(f.ref[0], fmt_.bpc);
    const LumaView<Sample> cmp = luma_view<Sample>(f.dist[0], fmt_.bpc);
    if (geometry_.factor == 1) return window_.launch(ref, cmp, geometry_.window, 0, s);
    const Size in{static_cast<int>(fmt_.width), static_cast<int>(fmt_.height)};
    VQX_RETURN_IF_ERROR(
        decimate(ref, cmp, in, taps_, ref_small_, cmp_small_, "float_ssim decimate_kernel", s));
    return window_.launch(ref_small_.view(), cmp_small_.view(), geometry_.window, 0, s);
  }

  SsimConfig config_;
  PictureFormat fmt_;
  SsimGeometry geometry_;
  double max_db_ = 0.0;
  int rows_ = 0;  // rows of window positions
  SquareTaps taps_{};
  DeviceImage ref_small_;  // subsampled, when the factor is above 1
  DeviceImage cmp_small_;
  GpuWindow window_;
  LumaComparison comparison_;
  gpu::PinnedBuffer<double> row_sums_;                 // per result slot
  gpu::PinnedBuffer<unsigned long long> differences_;  // per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_ssim_twin(const SsimConfig& config) {
  return std::make_unique<FloatSsimTwin>(config);
}

}  // namespace vqx::ssim

// float_ms_ssim on the GPU, bit for bit the CPU twin (ms_ssim_family.cpp):
// the luma compared (equal pictures score exactly 1); scales 1 to 4, each
// the previous one low-passed and subsampled by 2 (gpu_decimate.cuh); the
// window on each of the five scales (gpu_window.cuh), every scale's row
// sums read back together; the host adds each scale's rows in order and
// finishes with the CPU's own code (scores.cpp: the product over scales,
// dB). docs/gpu.md says why every step gives the CPU's bits.
#include <array>
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

constexpr const char* kFamily = "float_ms_ssim";

class FloatMsSsimTwin final : public gpu::Twin {
 public:
  explicit FloatMsSsimTwin(const MsSsimConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_RETURN_IF_ERROR(check_ms_ssim_size(fmt.width, fmt.height));
    fmt_ = fmt;
    max_db_ = max_db(config_.clip_db, fmt.bpc, fmt.width, fmt.height);
    scales_ = ms_ssim_scales(fmt.width, fmt.height);
    rows_ = 0;
    for (int k = 0; k < kScales; ++k) {
      first_row_[k] = rows_;
      rows_ += window_positions(scales_[k].height);
      if (k == 0) continue;
      VQX_RETURN_IF_ERROR(ref_[k].allocate(scales_[k]));
      VQX_RETURN_IF_ERROR(cmp_[k].allocate(scales_[k]));
    }
    taps_ = low_pass_taps();
    VQX_RETURN_IF_ERROR(window_.allocate(scales_[0], rows_, kFamily));
    VQX_RETURN_IF_ERROR(comparison_.allocate(kFamily));
    VQX_ASSIGN_OR_RETURN(
        row_sums_, gpu::PinnedBuffer<double>::allocate(std::size_t{slots} *
                                                       static_cast<std::size_t>(rows_) * kTerms));
    VQX_ASSIGN_OR_RETURN(differences_, gpu::PinnedBuffer<unsigned long long>::allocate(slots));
    return Status::Ok();
  }

  // The only accumulator is the count of differing samples; the scales,
  // maps and row sums are written in full every frame before they are read.
  Status clear(const gpu::Stream& s) override { return comparison_.clear(s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    VQX_RETURN_IF_ERROR(comparison_.launch(f, fmt_.bpc, s));
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(scale0_of<std::uint8_t>(f, s));
    } else {
      VQX_RETURN_IF_ERROR(scale0_of<std::uint16_t>(f, s));
    }
    for (int k = 1; k < kScales; ++k) {
      if (k + 1 < kScales) {
        VQX_RETURN_IF_ERROR(low_pass(ref_[k].view(), cmp_[k].view(), scales_[k], taps_, ref_[k + 1],
                                     cmp_[k + 1], "float_ms_ssim low_pass_kernel", s));
      }
      VQX_RETURN_IF_ERROR(
          window_.launch(ref_[k].view(), cmp_[k].view(), scales_[k], first_row_[k], s));
    }
    const std::size_t per_slot = static_cast<std::size_t>(rows_) * kTerms;
    VQX_RETURN_IF_ERROR(gpu::copy_to_host_async(
        row_sums_.get() + per_slot * slot, window_.row_sums().get(), per_slot * sizeof(double), s));
    return gpu::copy_to_host_async(&differences_[slot], comparison_.count().get(),
                                   sizeof(unsigned long long), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    std::array<WindowMeans, kScales> means;
    means.fill(kEqualPictures);
    double score = 1.0;
    if (differences_[slot] != 0) {
      const double* rows = row_sums_.get() + static_cast<std::size_t>(rows_) * kTerms * slot;
      for (int k = 0; k < kScales; ++k) {
        const int oh = window_positions(scales_[k].height);
        means[k] =
            window_means(add_rows(rows + static_cast<std::size_t>(first_row_[k]) * kTerms, oh),
                         window_positions(scales_[k].width) * oh);
      }
      score = ms_ssim_score(means);
    }
    write_ms_ssim(config_, max_db_, score, means, index, out);
    return Status::Ok();
  }

 private:
  // Scale 0 (the luma itself): its window, and scale 1 made from it.
  template <typename Sample>
  Status scale0_of(const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const LumaView<Sample> ref = luma_view<Sample>(f.ref[0], fmt_.bpc);
    const LumaView<Sample> cmp = luma_view<Sample>(f.dist[0], fmt_.bpc);
    VQX_RETURN_IF_ERROR(low_pass(ref, cmp, scales_[0], taps_, ref_[1], cmp_[1],
                                 "float_ms_ssim low_pass_kernel", s));
    return window_.launch(ref, cmp, scales_[0], first_row_[0], s);
  }

  MsSsimConfig config_;
  PictureFormat fmt_;
  double max_db_ = 0.0;
  std::array<Size, kScales> scales_{};
  std::array<int, kScales> first_row_{};  // each scale's first row in the row sums
  int rows_ = 0;                          // rows of window positions, every scale
  SquareTaps taps_{};
  // Scales 1..4 (scale k is 2^k times smaller); [0] stays empty: scale 0
  // is the uploaded luma.
  std::array<DeviceImage, kScales> ref_;
  std::array<DeviceImage, kScales> cmp_;
  GpuWindow window_;
  LumaComparison comparison_;
  gpu::PinnedBuffer<double> row_sums_;                 // per result slot
  gpu::PinnedBuffer<unsigned long long> differences_;  // per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_ms_ssim_twin(const MsSsimConfig& config) {
  return std::make_unique<FloatMsSsimTwin>(config);
}

}  // namespace vqx::ssim

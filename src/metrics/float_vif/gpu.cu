// float_vif on the GPU, bit for bit the CPU twin (family.cpp, cpu.cpp): the
// luma, prescaled when vif_prescale changes its size (resample_kernel, the
// resampler's tables uploaded once by the pipeline), then per scale the
// decimation of the scale above (filter_kernel<2>) and the statistics
// (stats_kernel) with their rows' sums read back; the host adds the rows in
// order and writes the values with the CPU's own code (scores.cpp).
// docs/gpu.md says why every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/float_common/gpu_images.cuh"
#include "metrics/float_common/gpu_kernels.cuh"
#include "metrics/float_vif/gaussian.hpp"
#include "metrics/float_vif/gpu.hpp"
#include "metrics/float_vif/gpu_kernels.cuh"
#include "metrics/float_vif/scores.hpp"
#include "metrics/float_vif/statistic.hpp"

namespace vqx::float_vif {

namespace {

// The default filters (kernel scale 1: params.hpp) take the unrolled kernels.
constexpr bool default_filters_unrolled() {
  for (int s = 0; s < kScales; ++s) {
    if (!float_common::unrolled_tap_count((std::size_t{1} << (kFilterBaseExponent - s)) + 1)) {
      return false;
    }
  }
  return true;
}
static_assert(default_filters_unrolled(), "float_common::kUnrolledTapCounts lacks a VIF filter");

using float_common::DeviceImage;
using float_common::FilterTaps;
using float_common::ImageSource;

class FloatVifTwin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: each row's chain of terms is one thread: 4K 939 -> 986 fps side by
  // side (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  explicit FloatVifTwin(const Config& config) : config_(config) {}

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& fmt) override {
    const Expected<Prescale> scaled = prescaled_size(fmt, config_);
    if (!scaled.ok() || !scaled->rescale) return {};  // init() refuses, or nothing to scale
    resampler_ = float_common::resampler_for(config_.method, fmt.width, fmt.height, scaled->width,
                                             scaled->height);
    return {table_.table(resampler_, fmt.width, fmt.height, scaled->width, scaled->height)};
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    const Params& p = config_.params;
    VQX_ASSIGN_OR_RETURN(scaled_, prescaled_size(fmt, config_));
    const auto kernelscale = static_cast<float>(p.kernelscale);
    if (!valid_kernelscale(kernelscale)) {
      return Error(Errc::kInvalidArgument, "float_vif: vif_kernelscale " +
                                               std::to_string(kernelscale) +
                                               " is not one libvmaf accepts");
    }
    VQX_ASSIGN_OR_RETURN(scales_,
                         scale_sizes(scaled_.width, scaled_.height, kernelscale, p.skip_scale0));
    fmt_ = fmt;
    stat_ = make_stat_params(p.gain_limit, p.sigma_nsq);
    first_ = p.skip_scale0 ? 1 : 0;
    if (scaled_.rescale) {
      resampler_ = float_common::resampler_for(config_.method, fmt.width, fmt.height, scaled_.width,
                                               scaled_.height);
      VQX_RETURN_IF_ERROR(
          table_.bind(resampler_, fmt.width, fmt.height, scaled_.width, scaled_.height, res));
      VQX_RETURN_IF_ERROR(ref_[0].allocate(scaled_.width, scaled_.height));
      VQX_RETURN_IF_ERROR(dist_[0].allocate(scaled_.width, scaled_.height));
    }
    rows_ = 0;
    for (int s = 0; s < kScales; ++s) {
      taps_[s] = float_common::filter_taps(scales_.filters[s]);
      if (s > 0) {
        VQX_RETURN_IF_ERROR(ref_[s].allocate(scales_.w[s], scales_.h[s]));
        VQX_RETURN_IF_ERROR(dist_[s].allocate(scales_.w[s], scales_.h[s]));
      }
      first_row_[s] = rows_;
      if (s >= first_) rows_ += scales_.h[s];
    }
    // Per row: the numerator's sum, then (rows_ later) the denominator's.
    VQX_ASSIGN_OR_RETURN(row_sums_, gpu::DeviceBuffer<float>::allocate(2 * std::size_t{rows_}));
    VQX_ASSIGN_OR_RETURN(results_,
                         gpu::PinnedBuffer<float>::allocate(std::size_t{slots} * 2 * rows_));
    return Status::Ok();
  }

  // Nothing accumulates: every image and every row sum is written in full
  // by its kernel every frame before any kernel reads it.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(run<std::uint8_t>(f, s));
    } else {
      VQX_RETURN_IF_ERROR(run<std::uint16_t>(f, s));
    }
    const std::size_t per_slot = 2 * std::size_t{rows_};
    return gpu::copy_to_host_async(results_.get() + per_slot * slot, row_sums_.get(),
                                   per_slot * sizeof(float), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const float* sums = results_.get() + 2 * std::size_t{rows_} * slot;
    FrameSums frame{};
    for (int s = first_; s < kScales; ++s) {
      frame[s] = add_rows(sums + first_row_[s], sums + rows_ + first_row_[s],
                          static_cast<int>(scales_.h[s]));
    }
    write_scores(frame, config_.params, index, out);
    return Status::Ok();
  }

 private:
  template <typename Sample>
  Status run(const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const auto ref = float_common::plane_source<Sample>(f.ref[0], fmt_.bpc);
    const auto dist = float_common::plane_source<Sample>(f.dist[0], fmt_.bpc);
    if (!scaled_.rescale) return scales_from(ref, dist, s);
    VQX_RETURN_IF_ERROR(float_common::launch_resample(ref, config_.method, table_, ref_[0].target(),
                                                      s, "float_vif resample_kernel"));
    VQX_RETURN_IF_ERROR(float_common::launch_resample(
        dist, config_.method, table_, dist_[0].target(), s, "float_vif resample_kernel"));
    return scales_from(ref_[0].source(), dist_[0].source(), s);
  }

  // Scale 0 from `ref` and `dist` (the luma or its prescaled images), then
  // each scale decimated from the one above.
  template <typename Source>
  Status scales_from(const Source& ref, const Source& dist, const gpu::Stream& s) {
    if (first_ == 0) VQX_RETURN_IF_ERROR(stats(0, ref, dist, s));
    VQX_RETURN_IF_ERROR(decimate(1, ref, dist, s));
    for (int k = 1; k < kScales; ++k) {
      if (k > 1) VQX_RETURN_IF_ERROR(decimate(k, ref_[k - 1].source(), dist_[k - 1].source(), s));
      VQX_RETURN_IF_ERROR(stats(k, ref_[k].source(), dist_[k].source(), s));
    }
    return Status::Ok();
  }

  template <typename Source>
  Status decimate(int scale, const Source& ref, const Source& dist, const gpu::Stream& s) {
    const unsigned w = scales_.w[scale - 1];
    const unsigned h = scales_.h[scale - 1];
    VQX_RETURN_IF_ERROR(float_common::launch_filter<2>(
        ref, w, h, taps_[scale], ref_[scale].target(), s, "float_vif filter_kernel"));
    return float_common::launch_filter<2>(dist, w, h, taps_[scale], dist_[scale].target(), s,
                                          "float_vif filter_kernel");
  }

  template <typename Source>
  Status stats(int scale, const Source& ref, const Source& dist, const gpu::Stream& s) {
    const unsigned h = scales_.h[scale];
    float* num = row_sums_.get() + first_row_[scale];
    float* den = row_sums_.get() + rows_ + first_row_[scale];
    const auto launch = [&]<int kCount>() {
      stats_kernel<Source, kCount>
          <<<ceil_div(h, static_cast<unsigned>(kStatRows)), kStatThreads, 0, s.handle()>>>(
              ref, dist, static_cast<int>(scales_.w[scale]), static_cast<int>(h), taps_[scale],
              stat_, num, den);
    };
    float_common::with_tap_count(taps_[scale].count, launch);
    return gpu::check_launch("float_vif stats_kernel");
  }

  Config config_;
  PictureFormat fmt_;
  Prescale scaled_;
  Scales scales_;
  StatParams stat_;
  int first_ = 0;  // the first scale computed (1 with vif_skip_scale0)
  std::array<FilterTaps, kScales> taps_{};
  float_common::Resampler resampler_;
  float_common::ResampleTable table_;
  // Index 0: the prescaled luma (when it is rescaled); 1..3 the scales.
  std::array<DeviceImage, kScales> ref_;
  std::array<DeviceImage, kScales> dist_;
  std::array<unsigned, kScales> first_row_{};  // each scale's first row in row_sums_
  unsigned rows_ = 0;                          // rows of the computed scales
  gpu::DeviceBuffer<float> row_sums_;
  gpu::PinnedBuffer<float> results_;  // per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Config& config) {
  return std::make_unique<FloatVifTwin>(config);
}

}  // namespace vqx::float_vif

// float_adm on the GPU, bit for bit the CPU twin (family.cpp, cpu.cpp): per
// scale the wavelet level of both pictures (dwt_kernel; scale 0 reads the
// luma, scale s + 1 the a band of scale s), then the decoupling, masking
// and the terms' sums over the region (masking_kernel) with their rows'
// sums read back; the host adds the rows in order and finishes each scale
// and the frame with the CPU's own code (scores.cpp). docs/gpu.md says why
// every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/csf.hpp"
#include "metrics/float_adm/decouple.hpp"
#include "metrics/float_adm/gpu.hpp"
#include "metrics/float_adm/gpu_kernels.cuh"
#include "metrics/float_adm/scores.hpp"
#include "metrics/float_common/gpu_images.cuh"

namespace vqx::float_adm {

namespace {

using float_common::DeviceImage;

// The pictures' h, v, d bands of one scale.
enum Band { kH, kV, kD };

class FloatAdmTwin final : public gpu::Twin {
 public:
  explicit FloatAdmTwin(const Params& p) : params_(p) {}

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_RETURN_IF_ERROR(check_picture_size(fmt.width, fmt.height));
    fmt_ = fmt;
    weights_ = csf_weights(params_);
    cos_1deg_sq_ = cos_1deg_squared();
    unsigned w = fmt.width;
    unsigned h = fmt.height;
    rows_ = 0;
    for (int s = 0; s < kScales; ++s) {
      in_w_[s] = w;
      in_h_[s] = h;
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      geometry_[s] = scale_geometry(w, h);
      if (s < kScales - 1) {
        VQX_RETURN_IF_ERROR(ref_a_[s].allocate(w, h));
        VQX_RETURN_IF_ERROR(dist_a_[s].allocate(w, h));
      }
      first_row_[s] = rows_;
      if (!skipped(s)) {
        rows_ += static_cast<unsigned>(geometry_[s].sums.bottom - geometry_[s].sums.top);
      }
    }
    // The h, v, d bands of the scale at hand: scale 0's size, reused.
    for (int b = 0; b < kBands; ++b) {
      VQX_RETURN_IF_ERROR(ref_hvd_[b].allocate(geometry_[0].w, geometry_[0].h));
      VQX_RETURN_IF_ERROR(dist_hvd_[b].allocate(geometry_[0].w, geometry_[0].h));
    }
    const std::size_t floats = std::size_t{rows_ == 0 ? 1U : rows_} * kRowSums;
    VQX_ASSIGN_OR_RETURN(row_sums_, gpu::DeviceBuffer<float>::allocate(floats));
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<float>::allocate(std::size_t{slots} * floats));
    return Status::Ok();
  }

  // Nothing accumulates: every band and every row sum is written in full by
  // its kernel every frame before any kernel reads it.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(scale(0, float_common::plane_source<std::uint8_t>(f.ref[0], fmt_.bpc),
                                float_common::plane_source<std::uint8_t>(f.dist[0], fmt_.bpc), s));
    } else {
      VQX_RETURN_IF_ERROR(scale(0, float_common::plane_source<std::uint16_t>(f.ref[0], fmt_.bpc),
                                float_common::plane_source<std::uint16_t>(f.dist[0], fmt_.bpc), s));
    }
    for (int k = 1; k < kScales; ++k) {
      VQX_RETURN_IF_ERROR(scale(k, ref_a_[k - 1].source(), dist_a_[k - 1].source(), s));
    }
    const std::size_t per_slot = std::size_t{rows_} * kRowSums;
    if (per_slot == 0) return Status::Ok();
    return gpu::copy_to_host_async(results_.get() + per_slot * slot, row_sums_.get(),
                                   per_slot * sizeof(float), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const float* sums = results_.get() + std::size_t{rows_} * kRowSums * slot;
    FrameSums frame{};
    for (int s = 0; s < kScales; ++s) {
      if (skipped(s)) {
        frame[s] = {0.0f, kSkippedScaleDen, 0.0f};
        continue;
      }
      const ScaleGeometry& g = geometry_[s];
      const ScaleBandSums b =
          add_rows(sums + std::size_t{first_row_[s]} * kRowSums, g.sums.bottom - g.sums.top);
      frame[s] = finish_scale(b.num, b.den, b.aim, g, params_);
    }
    write_scores(frame, params_, fmt_.width, fmt_.height, index, out);
    return Status::Ok();
  }

 private:
  [[nodiscard]] bool skipped(int s) const { return s == 0 && params_.skip_scale0; }

  // Scale s: the wavelet level of `ref` and `dist`, then (unless skipped)
  // the masking and its sums.
  template <typename Source>
  Status scale(int s, const Source& ref, const Source& dist, const gpu::Stream& st) {
    const ScaleGeometry& g = geometry_[s];
    const bool keep_a = s < kScales - 1;
    const BandTargets ref_out = {keep_a ? ref_a_[s].data() : nullptr,
                                 keep_a ? ref_a_[s].pitch() : 0,
                                 ref_hvd_[kH].data(),
                                 ref_hvd_[kV].data(),
                                 ref_hvd_[kD].data(),
                                 ref_hvd_[kH].pitch()};
    const BandTargets dist_out = {keep_a ? dist_a_[s].data() : nullptr,
                                  keep_a ? dist_a_[s].pitch() : 0,
                                  dist_hvd_[kH].data(),
                                  dist_hvd_[kV].data(),
                                  dist_hvd_[kD].data(),
                                  dist_hvd_[kH].pitch()};
    const dim3 grid(ceil_div(g.w, kDwtX), ceil_div(g.h, kDwtY));
    dwt_kernel<Source><<<grid, dim3(kDwtX, kDwtY), 0, st.handle()>>>(
        ref, dist, static_cast<int>(in_w_[s]), static_cast<int>(in_h_[s]), dwt_taps(), skipped(s),
        ref_out, dist_out, static_cast<int>(g.w), static_cast<int>(g.h));
    VQX_RETURN_IF_ERROR(gpu::check_launch("float_adm dwt_kernel"));
    if (skipped(s)) return Status::Ok();

    BandSources bands{};
    for (int b = 0; b < kBands; ++b) {
      bands.ref[b] = ref_hvd_[b].data();
      bands.dist[b] = dist_hvd_[b].data();
    }
    bands.pitch = ref_hvd_[kH].pitch();
    MaskArgs args{};
    args.w = static_cast<int>(g.w);
    args.h = static_cast<int>(g.h);
    args.sums = g.sums;
    args.weights = weights_[s];
    args.gain_limit = params_.enhn_gain_limit;
    args.cos_1deg_sq = cos_1deg_sq_;
    args.bypass = params_.bypass_cm != 0;
    args.cubes = Norm{params_.p_norm}.cubes();
    args.p_float = static_cast<float>(params_.p_norm);
    const auto rows = static_cast<unsigned>(g.sums.bottom - g.sums.top);
    masking_kernel<<<ceil_div(rows, static_cast<unsigned>(kMaskRows)), kMaskThreads, 0,
                     st.handle()>>>(bands, args,
                                    row_sums_.get() + std::size_t{first_row_[s]} * kRowSums);
    return gpu::check_launch("float_adm masking_kernel");
  }

  Params params_;
  PictureFormat fmt_;
  std::array<BandWeights, kScales> weights_{};
  std::array<ScaleGeometry, kScales> geometry_{};
  std::array<unsigned, kScales> in_w_{};  // each scale's input size
  std::array<unsigned, kScales> in_h_{};
  float cos_1deg_sq_ = 0.0f;
  // The a bands of scales 0..2 (the inputs of scales 1..3).
  std::array<DeviceImage, kScales - 1> ref_a_;
  std::array<DeviceImage, kScales - 1> dist_a_;
  std::array<DeviceImage, kBands> ref_hvd_;  // the scale at hand's h, v, d
  std::array<DeviceImage, kBands> dist_hvd_;
  std::array<unsigned, kScales> first_row_{};  // each scale's first row in row_sums_
  unsigned rows_ = 0;                          // summed rows of the computed scales
  gpu::DeviceBuffer<float> row_sums_;
  gpu::PinnedBuffer<float> results_;  // per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Params& params) {
  return std::make_unique<FloatAdmTwin>(params);
}

}  // namespace vqx::float_adm

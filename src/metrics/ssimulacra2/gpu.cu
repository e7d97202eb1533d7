// ssimulacra2 on the GPU, bit for bit the CPU twin (cpu.cpp): the samples to
// linear RGB and XYB with the pyramid of scales, then per scale the blur and
// the error maps' sums, all in gpu_kernels.cuh; the host turns the sums into
// the score with the CPU's own functions (score.hpp). The transfer curve's
// table is the CPU's (colour.cpp's TransferCurve), uploaded by the pipeline.
// docs/gpu.md says why every step gives the CPU's bits.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/ssimulacra2/colour.hpp"
#include "metrics/ssimulacra2/cpu.hpp"
#include "metrics/ssimulacra2/gpu.hpp"
#include "metrics/ssimulacra2/gpu_kernels.cuh"
#include "metrics/ssimulacra2/score.hpp"
#include "metrics/ssimulacra2/xyb.hpp"

namespace vqx::ssimulacra2 {

namespace {

constexpr unsigned kSumsPerScale = kChannels * kMapSums;

// The table's name stands for its content, which depends on the curve only
// (twins naming the same table share it).
const char* curve_table_name(Transfer t) {
  switch (t) {
    case Transfer::kSrgb:
      return "ssimulacra2 srgb curve";
    case Transfer::kBt709:
      return "ssimulacra2 bt709 curve";
    case Transfer::kBt1886:
      return "ssimulacra2 bt1886 curve";
    case Transfer::kLinear:
      break;
  }
  return "ssimulacra2 linear curve";
}

class Ssimulacra2Twin final : public gpu::Twin {
 public:
  // Latency-bound also at 4K: its recursive blurs are one thread per row and scale: 4K 320 -> 462
  // fps side by side (docs/gpu.md).
  [[nodiscard]] bool overlaps_large_frames() const override { return true; }

  explicit Ssimulacra2Twin(const Params& params)
      : params_(params), curve_(transfer_curve(params.transfer)) {}

  [[nodiscard]] unsigned planes_needed(const PictureFormat& fmt) const override {
    return fmt.chroma == ChromaFormat::k400 ? 1 : 3;
  }

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& /*fmt*/) override {
    return {{curve_table_name(params_.transfer), curve_.table.data(),
             curve_.table.size() * sizeof(float)}};
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_RETURN_IF_ERROR(check_format(fmt));
    fmt_ = fmt;
    levels_ = gpu_levels(fmt.width, fmt.height, scale_count(fmt.width, fmt.height));
    VQX_ASSIGN_OR_RETURN(const void* table, res.constant(curve_table_name(params_.transfer)));
    args_.coef = ycbcr_coefficients(params_, fmt.bpc);
    args_.curve = {static_cast<const float*>(table), curve_.threshold, curve_.inv_slope};
    args_.neg_cbrt_bias = neg_cbrt_bias();
    blur_ = blur_coefficients(kBlurSigma);
    std::size_t xyb_floats = 0;
    std::size_t lin_floats = 0;
    for (std::size_t s = 0; s < levels_.size(); ++s) {
      xyb_offset_.push_back(xyb_floats);
      lin_offset_.push_back(lin_floats);
      xyb_floats += kPictures * kChannels * levels_[s].plane();
      if (s > 0) lin_floats += kPictures * kChannels * levels_[s].plane();
    }
    const Level& top = levels_.front();
    VQX_ASSIGN_OR_RETURN(xyb_, gpu::DeviceBuffer<float>::allocate(xyb_floats));
    VQX_ASSIGN_OR_RETURN(lin_, gpu::DeviceBuffer<float>::allocate(lin_floats));
    const std::size_t blurred = std::size_t{kChannels} * kQuantities * top.plane();
    VQX_ASSIGN_OR_RETURN(horizontal_, gpu::DeviceBuffer<float>::allocate(blurred));
    VQX_ASSIGN_OR_RETURN(column_sums_,
                         gpu::DeviceBuffer<double>::allocate(std::size_t{kChannels} * kMapSums *
                                                             static_cast<std::size_t>(top.width)));
    const std::size_t per_slot = levels_.size() * kSumsPerScale;
    VQX_ASSIGN_OR_RETURN(sums_, gpu::DeviceBuffer<double>::allocate(per_slot));
    VQX_ASSIGN_OR_RETURN(results_, gpu::PinnedBuffer<double>::allocate(slots * per_slot));
    return Status::Ok();
  }

  // Nothing accumulates: every plane and every sum is written in full by its
  // kernel every frame before any kernel reads it.
  Status clear(const gpu::Stream& /*s*/) override { return Status::Ok(); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    if (fmt_.bpc == 8) {
      VQX_RETURN_IF_ERROR(first_level<std::uint8_t>(f, s));
    } else {
      VQX_RETURN_IF_ERROR(first_level<std::uint16_t>(f, s));
    }
    for (std::size_t l = 1; l + 1 < levels_.size(); ++l) {
      const Level& next = levels_[l + 1];
      next_level_kernel<<<pixel_grid(next), pixel_block(), 0, s.handle()>>>(
          lin(l), lin(l + 1), xyb(l + 1), args_.neg_cbrt_bias);
      VQX_RETURN_IF_ERROR(gpu::check_launch("ssimulacra2 next_level_kernel"));
    }
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      VQX_RETURN_IF_ERROR(scale(l, s));
    }
    const std::size_t per_slot = levels_.size() * kSumsPerScale;
    return gpu::copy_to_host_async(results_.get() + per_slot * slot, sums_.get(),
                                   per_slot * sizeof(double), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const double* r = results_.get() + levels_.size() * kSumsPerScale * slot;
    std::vector<ScaleNorms> norms;
    for (std::size_t l = 0; l < levels_.size(); ++l) {
      double sums[kChannels][kMapSums];
      for (unsigned c = 0; c < kChannels; ++c) {
        for (unsigned m = 0; m < kMapSums; ++m)
          sums[c][m] = r[l * kSumsPerScale + c * kMapSums + m];
      }
      norms.push_back(scale_norms(sums, static_cast<unsigned>(levels_[l].width),
                                  static_cast<unsigned>(levels_[l].height)));
    }
    out.write(0, index, final_score(norms));
    return Status::Ok();
  }

 private:
  [[nodiscard]] Planes xyb(std::size_t l) const {
    const Level& v = levels_[l];
    return {xyb_.get() + xyb_offset_[l], v.pitch, v.plane(), v.width, v.height};
  }
  [[nodiscard]] Planes lin(std::size_t l) const {
    const Level& v = levels_[l];
    return {lin_.get() + lin_offset_[l], v.pitch, v.plane(), v.width, v.height};
  }
  // The horizontal pass's planes at scale l's size (the scale-0 layout,
  // reused).
  [[nodiscard]] Planes horizontal(std::size_t l) const {
    const Level& top = levels_.front();
    return {horizontal_.get(), top.pitch, top.plane(), levels_[l].width, levels_[l].height};
  }
  static dim3 pixel_block() { return {kPixelsX, kPixelsY, 1}; }
  static dim3 pixel_grid(const Level& v) {
    return {ceil_div(static_cast<unsigned>(v.width), kPixelsX),
            ceil_div(static_cast<unsigned>(v.height), kPixelsY), kPictures};
  }

  template <typename Sample>
  YcbcrView<Sample> view(const std::array<gpu::DevicePlane, 3>& planes) const {
    YcbcrView<Sample> v{};
    const bool grey = fmt_.chroma == ChromaFormat::k400;
    for (unsigned p = 0; p < (grey ? 1U : 3U); ++p) {
      v.plane[p] = static_cast<const std::uint8_t*>(planes[p].data);
      v.pitch[p] = planes[p].pitch;
    }
    v.shift_x = fmt_.chroma == ChromaFormat::k420 || fmt_.chroma == ChromaFormat::k422 ? 1 : 0;
    v.shift_y = fmt_.chroma == ChromaFormat::k420 ? 1 : 0;
    v.grey = grey;
    return v;
  }

  // Scale 0's XYB, scale 1's linear RGB and XYB (there are always two
  // scales: check_format asks for 8x8).
  template <typename Sample>
  Status first_level(const gpu::DeviceFrame& f, const gpu::Stream& s) {
    first_level_kernel<Sample><<<pixel_grid(levels_[1]), pixel_block(), 0, s.handle()>>>(
        view<Sample>(f.ref), view<Sample>(f.dist), args_, xyb(0), lin(1), xyb(1));
    return gpu::check_launch("ssimulacra2 first_level_kernel");
  }

  // Scale l: the blur's horizontal pass, its vertical pass with the maps'
  // column sums, the columns' sums into sums_.
  Status scale(std::size_t l, const gpu::Stream& s) {
    const Level& v = levels_[l];
    const Planes h = horizontal(l);
    const dim3 rows(ceil_div(static_cast<unsigned>(v.height), static_cast<unsigned>(kBlurRows)),
                    kChannels);
    horizontal_kernel<<<rows, dim3(kBlurRows, kQuantities), 0, s.handle()>>>(
        xyb(l), blur_, blocks_end(v.width), h);
    VQX_RETURN_IF_ERROR(gpu::check_launch("ssimulacra2 horizontal_kernel"));
    const dim3 columns(ceil_div(static_cast<unsigned>(v.width), kColumnThreads), kChannels);
    columns_kernel<<<columns, kColumnThreads, 0, s.handle()>>>(xyb(l), h, blur_,
                                                               column_sums_.get());
    VQX_RETURN_IF_ERROR(gpu::check_launch("ssimulacra2 columns_kernel"));
    finish_kernel<<<1, kFinishThreads, 0, s.handle()>>>(column_sums_.get(), v.width,
                                                        sums_.get() + l * kSumsPerScale);
    return gpu::check_launch("ssimulacra2 finish_kernel");
  }

  Params params_;
  PictureFormat fmt_;
  TransferCurve curve_;  // the CPU's table (colour.cpp), uploaded by the pipeline
  ColourArgs args_{};
  BlurCoefficients blur_{};
  std::vector<Level> levels_;
  std::vector<std::size_t> xyb_offset_;    // floats, per scale
  std::vector<std::size_t> lin_offset_;    // floats, per scale (none for scale 0)
  gpu::DeviceBuffer<float> xyb_;           // every scale's XYB, both pictures
  gpu::DeviceBuffer<float> lin_;           // scales 1 and up: linear RGB
  gpu::DeviceBuffer<float> horizontal_;    // the blur's horizontal pass (kQuantities per channel)
  gpu::DeviceBuffer<double> column_sums_;  // kMapSums per column and channel, one scale at a time
  gpu::DeviceBuffer<double> sums_;         // kSumsPerScale per scale
  gpu::PinnedBuffer<double> results_;      // sums_, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Params& params) {
  return std::make_unique<Ssimulacra2Twin>(params);
}

}  // namespace vqx::ssimulacra2

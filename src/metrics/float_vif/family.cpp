// The "float_vif" extractor family: libvmaf's float VIF
// (feature/float_vif.c): the four scale scores, plus, with debug=true, the
// combined score and every numerator and denominator.
#include <memory>
#include <string>
#include <vector>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/float_common/convert.hpp"
#include "metrics/float_common/image.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_common/rows.hpp"
#include "metrics/float_vif/cpu.hpp"
#include "metrics/float_vif/gaussian.hpp"
#include "metrics/float_vif/geometry.hpp"
#include "metrics/float_vif/gpu.hpp"
#include "metrics/float_vif/params.hpp"
#include "metrics/float_vif/scores.hpp"

namespace vqx {

namespace {

using float_common::FloatImage;
using float_common::FloatRows;
using float_common::ScaleMethod;
using float_vif::Params;

using VifConfig = float_vif::Config;

class FloatVifExtractor final : public Extractor {
 public:
  explicit FloatVifExtractor(const VifConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    fmt_ = fmt;
    const Params& p = config_.params;
    VQX_ASSIGN_OR_RETURN(const float_vif::Prescale scaled, float_vif::prescaled_size(fmt, config_));
    const unsigned sw = scaled.width;
    const unsigned sh = scaled.height;
    float_vif::PipelineConfig pc;
    pc.kernelscale = static_cast<float>(p.kernelscale);
    pc.skip_scale0 = p.skip_scale0;
    pc.stat = float_vif::make_stat_params(p.gain_limit, p.sigma_nsq);
    VQX_RETURN_IF_ERROR(pipeline_.init(sw, sh, pc));
    resampler_.init(config_.method, fmt.width, fmt.height, sw, sh);
    if (resampler_.identity()) {
      // The pipeline reads the luma planes' rows, converted as it goes.
      for (FloatRows* rows : {&ref_rows_, &dist_rows_}) {
        rows->reserve(fmt.width, pipeline_.input_window());
      }
    } else {
      for (FloatImage* img : {&ref_, &dist_}) img->resize(fmt.width, fmt.height);
      for (FloatImage* img : {&ref_scaled_, &dist_scaled_}) img->resize(sw, sh);
    }
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    for (const Picture* pic : {&ref, &dist}) {
      if (pic->width() != fmt_.width || pic->height() != fmt_.height || pic->bpc() != fmt_.bpc) {
        return Error(Errc::kMismatch, "float_vif: picture format differs from the initialised one");
      }
    }
    if (resampler_.identity()) {
      ref_rows_.read_plane(ref.plane(0), fmt_.bpc, fmt_.width, fmt_.height);
      dist_rows_.read_plane(dist.plane(0), fmt_.bpc, fmt_.width, fmt_.height);
    } else {
      float_common::plane_to_float(ref.plane(0), fmt_.bpc, ref_);
      float_common::plane_to_float(dist.plane(0), fmt_.bpc, dist_);
      resampler_.run(ref_, ref_scaled_);
      resampler_.run(dist_, dist_scaled_);
      ref_rows_.read_image(ref_scaled_);
      dist_rows_.read_image(dist_scaled_);
    }
    float_vif::FrameSums sums;
    pipeline_.compute(ref_rows_, dist_rows_, sums);
    float_vif::write_scores(sums, config_.params, index, out);
    return Status::Ok();
  }

 private:
  VifConfig config_;
  PictureFormat fmt_;
  // What the pipeline reads: the luma planes' rows, or, when vif_prescale
  // rescales, the rescaled images of the luma as float.
  FloatRows ref_rows_, dist_rows_;
  FloatImage ref_, dist_;                // luma as float, when rescaled
  FloatImage ref_scaled_, dist_scaled_;  // after vif_prescale, when it rescales
  float_common::Resampler resampler_;
  float_vif::VifPipeline pipeline_;
};

Expected<VifConfig> read_config(const OptionSet& opts) {
  VifConfig config;
  Params& p = config.params;
  p.debug = opts.get_bool(float_vif::kOptDebug);
  p.gain_limit = opts.get_double(float_vif::kOptGainLimit);
  p.kernelscale = opts.get_double(float_vif::kOptKernelScale);
  p.prescale = opts.get_double(float_vif::kOptPrescale);
  p.min_val = {opts.get_double(float_vif::kOptScale1MinVal),
               opts.get_double(float_vif::kOptScale2MinVal),
               opts.get_double(float_vif::kOptScale3MinVal)};
  p.prescale_method = opts.get_string(float_vif::kOptPrescaleMethod);
  p.sigma_nsq = opts.get_double(float_vif::kOptSigmaNsq);
  p.skip_scale0 = opts.get_bool(float_vif::kOptSkipScale0);

  const auto method = float_common::parse_scale_method(p.prescale_method);
  if (!method) {
    return Error(Errc::kInvalidArgument,
                 "float_vif: option vif_prescale_method=" + p.prescale_method +
                     ": expected nearest, bilinear, bicubic or lanczos4");
  }
  config.method = *method;
  if (!float_vif::valid_kernelscale(static_cast<float>(p.kernelscale))) {
    return Error(Errc::kInvalidArgument,
                 "float_vif: option vif_kernelscale=" + format_g(p.kernelscale) +
                     ": not one of the kernel scales libvmaf accepts (1, 0.5, 1.5, 2, 2/3, "
                     "2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, "
                     "1.6, 1.06667, 0.711111, 0.74074, 1.111111)");
  }
  return config;
}

}  // namespace

const ExtractorFamily& float_vif_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_vif",
      .options = float_vif::option_defs(),
      .outputs = float_vif::kOutputs,
      .provides = float_vif::kProvides,
      .luma_only = true,
      .bind =
          bind_family<VifConfig, read_config, FloatVifExtractor, VQX_TWIN(&float_vif::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

// The "float_vif" extractor family: libvmaf's float VIF
// (feature/float_vif.c): the four scale scores, plus, with debug=true, the
// combined score and every numerator and denominator.
#include <memory>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/float_common/convert.hpp"
#include "metrics/float_common/image.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_vif/cpu.hpp"
#include "metrics/float_vif/gaussian.hpp"
#include "metrics/float_vif/params.hpp"

namespace vqx {

namespace {

using float_common::FloatImage;
using float_common::ScaleMethod;
using float_vif::Params;

// Slots: the four scale scores, then with debug float_vif::kDebugNames.
enum Slot : std::size_t {
  kSlotScore = 4,  // vif
  kSlotNum,
  kSlotDen,
  kSlotScaleNumDen,  // num_scale0, den_scale0, num_scale1, ...
};

struct VifConfig {
  Params params;
  ScaleMethod method = ScaleMethod::kNearest;
};

class FloatVifExtractor final : public Extractor {
 public:
  explicit FloatVifExtractor(const VifConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    fmt_ = fmt;
    const Params& p = config_.params;
    // libvmaf float_vif.c init(): (int)(w * vif_prescale + 0.5).
    const auto sw = static_cast<unsigned>(static_cast<int>(fmt.width * p.prescale + 0.5));
    const auto sh = static_cast<unsigned>(static_cast<int>(fmt.height * p.prescale + 0.5));
    if (config_.method == ScaleMethod::kBilinear && sw > float_common::kBilinearMaxWidth) {
      return Error(Errc::kUnsupported, "float_vif: bilinear prescaling to " + std::to_string(sw) +
                                           " columns is over libvmaf's limit of " +
                                           std::to_string(float_common::kBilinearMaxWidth));
    }
    const bool rescale = sw != fmt.width || sh != fmt.height;
    const unsigned need = float_common::min_source_side(config_.method);
    if (rescale && (fmt.width < need || fmt.height < need)) {
      return Error(Errc::kUnsupported, "float_vif: prescaling needs a picture of at least " +
                                           std::to_string(need) + "x" + std::to_string(need) +
                                           " with vif_prescale_method=" + p.prescale_method);
    }
    float_vif::PipelineConfig pc;
    pc.kernelscale = static_cast<float>(p.kernelscale);
    pc.skip_scale0 = p.skip_scale0;
    pc.stat = float_vif::make_stat_params(p.gain_limit, p.sigma_nsq);
    VQX_RETURN_IF_ERROR(pipeline_.init(sw, sh, pc));
    for (FloatImage* img : {&ref_, &dist_}) img->resize(fmt.width, fmt.height);
    resampler_.init(config_.method, fmt.width, fmt.height, sw, sh);
    if (!resampler_.identity()) {
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
    float_common::plane_to_float(ref.plane(0), fmt_.bpc, ref_);
    float_common::plane_to_float(dist.plane(0), fmt_.bpc, dist_);
    const FloatImage* r = &ref_;
    const FloatImage* d = &dist_;
    if (!resampler_.identity()) {
      resampler_.run(ref_, ref_scaled_);
      resampler_.run(dist_, dist_scaled_);
      r = &ref_scaled_;
      d = &dist_scaled_;
    }
    float_vif::FrameSums sums;
    pipeline_.compute(*r, *d, sums);
    write(sums, index, out);
    return Status::Ok();
  }

 private:
  // The values libvmaf writes (float_vif.c extract(), vif.c compute_vif()):
  // scale scores are double quotients of the float sums, scales 1..3
  // raised to their minimum values; the debug sums add the floats in double.
  void write(const float_vif::FrameSums& s, unsigned index, FeatureWriter& out) const {
    const Params& p = config_.params;
    const bool skip0 = p.skip_scale0;
    auto ratio = [&](int k) {
      return static_cast<double>(s[k].num) / static_cast<double>(s[k].den);
    };
    out.write(0, index, skip0 ? 0.0 : ratio(0));
    for (int k = 1; k < float_vif::kScales; ++k) {
      const double v = ratio(k);
      const double floor = p.min_val[k - 1];
      out.write(k, index, v > floor ? v : floor);
    }
    if (!p.debug) return;

    double num = 0.0;
    double den = 0.0;
    for (int k = skip0 ? 1 : 0; k < float_vif::kScales; ++k) {
      num += static_cast<double>(s[k].num);
      den += static_cast<double>(s[k].den);
    }
    out.write(kSlotScore, index, den == 0.0 ? 1.0 : num / den);
    out.write(kSlotNum, index, num);
    out.write(kSlotDen, index, den);
    for (int k = 0; k < float_vif::kScales; ++k) {
      // A skipped scale 0 reports 0 / -1, as libvmaf does.
      const bool skipped = k == 0 && skip0;
      out.write(kSlotScaleNumDen + 2 * k, index, skipped ? 0.0 : static_cast<double>(s[k].num));
      out.write(kSlotScaleNumDen + 2 * k + 1, index,
                skipped ? -1.0 : static_cast<double>(s[k].den));
    }
  }

  VifConfig config_;
  PictureFormat fmt_;
  FloatImage ref_, dist_;                // luma as float
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
      .bind = bind_family<VifConfig, read_config, FloatVifExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

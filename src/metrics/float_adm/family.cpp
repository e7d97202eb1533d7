// The "float_adm" extractor family: libvmaf's float ADM
// (feature/float_adm.c): adm2, aim, adm3 and the four scale scores, plus,
// with debug=true, the combined score with its numerator and denominator
// and those of each scale.
#include <memory>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_common/convert.hpp"
#include "metrics/float_common/image.hpp"

namespace vqx {

namespace {

using float_adm::Params;

// The frame's values as libvmaf combines them (adm.c compute_adm(),
// float_adm.c extract()).
struct AdmScores {
  double adm2 = 0, aim = 0, adm3 = 0;
  double num = 0, den = 0;
};

AdmScores combine(const float_adm::FrameSums& s, const Params& p, unsigned width, unsigned height) {
  double num = 0;
  double den = 0;
  double aim_num = 0;
  double aim_den = 0;
  for (int k = 0; k < float_adm::kScales; ++k) {
    num += static_cast<double>(s[k].num);
    den += static_cast<double>(s[k].den);
    if (p.skip_aim_scale != k) {
      aim_den += static_cast<double>(s[k].den);
      aim_num += static_cast<double>(s[k].aim);
    }
  }
  // Sums below a size-relative floor count as 0 (w * h an int product).
  const double limit =
      float_adm::kNumDenLimit * static_cast<int>(width * height) / float_adm::kNumDenLimitPixels;
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;

  AdmScores out;
  if (den == 0.0) {
    // libvmaf leaves AIM unset here (an uninitialised variable); no
    // reference detail means nothing was added either: VQX reports 0.
    out.adm2 = 1.0;
    out.aim = 0.0;
  } else {
    const double aim = aim_num / aim_den;
    out.aim = aim < 1.0 ? aim : 1.0;
    out.adm2 = num / den;
  }
  out.num = num;
  out.den = den;
  const double adm3 = p.adm3_apply_hm
                          ? 2 * out.adm2 * out.aim / (out.adm2 + out.aim)
                          : out.adm2 * p.dlm_weight + (1 - out.aim) * (1 - p.dlm_weight);
  out.adm3 = adm3 > p.min_val ? adm3 : p.min_val;
  return out;
}

class FloatAdmExtractor final : public Extractor {
 public:
  explicit FloatAdmExtractor(const Params& params) : params_(params) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(pipeline_.init(fmt.width, fmt.height, params_));
    fmt_ = fmt;
    ref_.resize(fmt.width, fmt.height);
    dist_.resize(fmt.width, fmt.height);
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("float_adm", initialised_, fmt_, FormatMatch::kLuma, ref, dist, index));
    float_common::plane_to_float(ref.plane(0), fmt_.bpc, ref_);
    float_common::plane_to_float(dist.plane(0), fmt_.bpc, dist_);
    float_adm::FrameSums sums;
    pipeline_.compute(ref_, dist_, sums);
    const AdmScores s = combine(sums, params_, fmt_.width, fmt_.height);

    // Slot order: kScoreNames, then kDebugScoreName and kDebugNames.
    std::size_t slot = 0;
    out.write(slot++, index, s.adm2);
    out.write(slot++, index, s.aim);
    out.write(slot++, index, s.adm3);
    for (const float_adm::ScaleSums& k : sums) {
      out.write(slot++, index, static_cast<double>(k.num) / static_cast<double>(k.den));
    }
    if (!params_.debug) return Status::Ok();
    out.write(slot++, index, s.adm2);
    out.write(slot++, index, s.num);
    out.write(slot++, index, s.den);
    for (const float_adm::ScaleSums& k : sums) {
      out.write(slot++, index, static_cast<double>(k.num));
      out.write(slot++, index, static_cast<double>(k.den));
    }
    return Status::Ok();
  }

 private:
  Params params_;
  PictureFormat fmt_;
  float_common::FloatImage ref_, dist_;
  float_adm::AdmPipeline pipeline_;
  bool initialised_ = false;
};

Expected<Params> read_params(const OptionSet& opts) {
  Params p;
  p.debug = opts.get_bool(float_adm::kOptDebug);
  p.enhn_gain_limit = opts.get_double(float_adm::kOptEnhnGainLimit);
  p.norm_view_dist = opts.get_double(float_adm::kOptNormViewDist);
  p.noise_weight = opts.get_double(float_adm::kOptNoiseWeight);
  p.csf_scale = opts.get_double(float_adm::kOptCsfScale);
  p.csf_diag_scale = opts.get_double(float_adm::kOptCsfDiagScale);
  p.ref_display_height = opts.get_int(float_adm::kOptRefDisplayHeight);
  p.csf_mode = opts.get_int(float_adm::kOptCsfMode);
  p.bypass_cm = opts.get_int(float_adm::kOptBypassCm);
  p.adm3_apply_hm = opts.get_bool(float_adm::kOptAdm3ApplyHm);
  p.p_norm = opts.get_double(float_adm::kOptPNorm);
  p.dlm_weight = opts.get_double(float_adm::kOptDlmWeight);
  p.min_val = opts.get_double(float_adm::kOptMinVal);
  for (int k = 0; k < float_adm::kScales; ++k) {
    p.f1[k] = opts.get_double(float_adm::kOptF1[k]);
    p.f2[k] = opts.get_double(float_adm::kOptF2[k]);
  }
  p.skip_aim_scale = opts.get_int(float_adm::kOptSkipAimScale);
  p.skip_scale0 = opts.get_bool(float_adm::kOptSkipScale0);
  return p;
}

}  // namespace

const ExtractorFamily& float_adm_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_adm",
      .options = float_adm::option_defs(),
      .outputs = float_adm::kOutputs,
      .provides = float_adm::kProvides,
      .luma_only = true,
      .bind = bind_family<Params, read_params, FloatAdmExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

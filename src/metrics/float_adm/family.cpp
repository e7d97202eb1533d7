// The "float_adm" extractor family: libvmaf's float ADM
// (feature/float_adm.c): adm2, aim, adm3 and the four scale scores, plus,
// with debug=true, the combined score with its numerator and denominator
// and those of each scale.
#include <memory>
#include <string>
#include <vector>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/dwt.hpp"
#include "metrics/float_adm/gpu.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/scores.hpp"
#include "metrics/float_common/rows.hpp"

namespace vqx {

namespace {

using float_adm::Params;

class FloatAdmExtractor final : public Extractor {
 public:
  explicit FloatAdmExtractor(const Params& params) : params_(params) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(pipeline_.init(fmt.width, fmt.height, params_));
    fmt_ = fmt;
    ref_.reserve(fmt.width, float_adm::kDwtInputRows);
    dist_.reserve(fmt.width, float_adm::kDwtInputRows);
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("float_adm", initialised_, fmt_, FormatMatch::kLuma, ref, dist, index));
    ref_.read_plane(ref.plane(0), fmt_.bpc, fmt_.width, fmt_.height);
    dist_.read_plane(dist.plane(0), fmt_.bpc, fmt_.width, fmt_.height);
    float_adm::FrameSums sums;
    pipeline_.compute(ref_, dist_, sums);
    float_adm::write_scores(sums, params_, fmt_.width, fmt_.height, index, out);
    return Status::Ok();
  }

 private:
  Params params_;
  PictureFormat fmt_;
  // The luma planes' rows as float, converted as the pipeline reads them.
  float_common::FloatRows ref_, dist_;
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
      .bind = bind_family<Params, read_params, FloatAdmExtractor, VQX_TWIN(&float_adm::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

// The "adm" extractor family: libvmaf's integer ADM (feature/integer_adm.c):
// integer_adm2, integer_aim, integer_adm3 and the four scale scores, plus,
// with debug=true, the combined score with its numerator and denominator
// and those of each scale.
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/twin_ref.hpp"
#include "metrics/adm/cpu.hpp"
#include "metrics/adm/gpu.hpp"
#include "metrics/adm/params.hpp"
#include "metrics/adm/scores.hpp"
#include "metrics/families.hpp"

namespace vqx {

namespace {

using adm::AdmParams;
using adm::AdmScores;

class IntegerAdmExtractor final : public Extractor {
 public:
  explicit IntegerAdmExtractor(const AdmParams& params) : params_(params) {}

  Status init(const PictureFormat& fmt) override {
    VQX_ASSIGN_OR_RETURN(adm::AdmCpu cpu,
                         adm::AdmCpu::create(params_, fmt.width, fmt.height, fmt.bpc));
    cpu_.emplace(std::move(cpu));
    fmt_ = fmt;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("adm", cpu_.has_value(), fmt_, FormatMatch::kLuma, ref, dist, index));
    AdmScores s;
    cpu_->compute(ref.plane(0), dist.plane(0), s);

    adm::write_scores(s, params_.debug, index, out);
    return Status::Ok();
  }

 private:
  AdmParams params_;
  PictureFormat fmt_;
  std::optional<adm::AdmCpu> cpu_;
};

Expected<AdmParams> read_params(const OptionSet& opts) {
  AdmParams p;
  p.debug = opts.get_bool(adm::kOptDebug);
  p.csf_scale = opts.get_double(adm::kOptCsfScale);
  p.csf_diag_scale = opts.get_double(adm::kOptCsfDiagScale);
  p.dlm_weight = opts.get_double(adm::kOptDlmWeight);
  p.enhn_gain_limit = opts.get_double(adm::kOptEnhnGainLimit);
  p.norm_view_dist = opts.get_double(adm::kOptNormViewDist);
  p.ref_display_height = opts.get_int(adm::kOptRefDisplayHeight);
  p.csf_mode = static_cast<adm::CsfMode>(opts.get_int(adm::kOptCsfMode));
  p.noise_weight = opts.get_double(adm::kOptNoiseWeight);
  p.skip_aim = opts.get_bool(adm::kOptSkipAim);
  p.skip_scale0 = opts.get_bool(adm::kOptSkipScale0);
  p.min_val = opts.get_double(adm::kOptMinVal);
  // Refuse what libvmaf cannot compute before any picture is read (the
  // picture size is checked by init()).
  VQX_RETURN_IF_ERROR(adm::AdmCpu::create(p, adm::kMinSize, adm::kMinSize, 8).status());
  return p;
}

}  // namespace

const ExtractorFamily& integer_adm_family() {
  static const ExtractorFamily kFamily = {
      .name = "adm",
      .options = adm::option_defs(),
      .outputs = adm::kOutputs,
      .provides = adm::kProvides,
      .luma_only = true,
      .bind = bind_family<AdmParams, read_params, IntegerAdmExtractor, VQX_TWIN(&adm::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

// The CAMBI feature extractor ("cambi", libvmaf's cambi.c): options,
// picture-size rules, output names and the per-frame outputs.
//
// Outputs, in this order: "cambi" (libvmaf's Cambi_feature_cambi_score, of
// the distorted picture) with the option suffix; with full_ref also
// "cambi_source" (the same score of the reference picture, at the source
// size) and "cambi_full_reference" (max(0, distorted - source)), both
// without suffix as in libvmaf. Every value is clipped to cambi_max_val.
//
// CAMBI keeps nothing from frame to frame, so it is a plain extractor; with
// heatmaps_path it is made temporal, so that one instance owns the heatmap
// files. Its GPU twin is gpu.cu (docs/gpu.md).
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/twin_ref.hpp"
#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/gpu.hpp"
#include "metrics/cambi/heatmap.hpp"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/scorer.hpp"
#include "metrics/cambi/setup.hpp"
#include "metrics/families.hpp"

namespace vqx {

namespace {

using cambi::Params;

class CambiExtractor final : public Extractor {
 public:
  // The heatmaps are files of the context's set (env.output_files).
  CambiExtractor(const Params& params, const ExtractorEnv& env)
      : params_(params), output_files_(env.output_files) {}

  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    VQX_ASSIGN_OR_RETURN(setup_, cambi::make_setup(params_, fmt));
    const cambi::ContrastTables& t = setup_.tables;
    VQX_RETURN_IF_ERROR(scorer_.allocate(setup_.max_width, setup_.max_height, setup_.max_radius,
                                         t.band_size, t.num_diffs));
    heatmaps_.reset();
    if (!params_.heatmaps_path.empty()) {
      heatmaps_ = std::make_unique<cambi::HeatmapWriter>(output_files_);
      VQX_RETURN_IF_ERROR(heatmaps_->open(params_.heatmaps_path, setup_.enc.width,
                                          setup_.enc.height, setup_.enc.window, setup_.max_weight));
    }
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("cambi", initialised_, fmt_, FormatMatch::kLuma, ref, dist, index));
    cambi::ScoreSetup setup;
    setup.bpc = fmt_.bpc;
    setup.anti_dither = setup_.anti_dither;
    setup.topk = params_.topk;
    setup.heatmaps = heatmaps_.get();
    setup.frame = index;
    VQX_ASSIGN_OR_RETURN(const double dist_score,
                         scorer_.score(dist.plane(0), setup_.enc, setup_.tables, setup));
    double src_score = 0;
    if (params_.full_ref) {
      setup.heatmaps = nullptr;  // libvmaf writes heatmaps of the distorted picture only
      VQX_ASSIGN_OR_RETURN(src_score,
                           scorer_.score(ref.plane(0), setup_.src, setup_.tables, setup));
    }
    cambi::write_scores(params_, index, dist_score, src_score, out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& /*out*/) override {
    return heatmaps_ ? heatmaps_->close() : Status::Ok();
  }

 private:
  Params params_;
  std::shared_ptr<OutputFiles> output_files_;
  PictureFormat fmt_;
  cambi::Setup setup_;
  cambi::Scorer scorer_;
  std::unique_ptr<cambi::HeatmapWriter> heatmaps_;
  bool initialised_ = false;
};

constexpr std::array<FeatureAlias, 1> kProvides = {{
    // libvmaf feature/alias.c, and cambi.c's provided_features.
    {"Cambi_feature_cambi_score", "cambi"},
}};

// Outputs in slot order: the score, and with full_ref the source's score
// and the full-reference score (bare names, as libvmaf writes them).
constexpr std::array<OutputDef, 3> kOutputs = {{
    {"cambi"},
    {.base = "cambi_source", .when = {"full_ref"}, .suffixed = false},
    {.base = "cambi_full_reference", .when = {"full_ref"}, .suffixed = false},
}};

}  // namespace

const ExtractorFamily& cambi_family() {
  static const ExtractorFamily kFamily = {
      .name = "cambi",
      .options = cambi::option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      // Heatmaps are written frame after frame, in order.
      .temporal = {TemporalRule::kWhenSet, "heatmaps_path"},
      .luma_only = true,
      .bind = bind_family<Params, cambi::read_params, CambiExtractor, VQX_TWIN(&cambi::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

// The "speed_chroma" extractor family (libvmaf speed.c, vmaf_fex_speed_chroma):
// SpEED of the U plane and of the V plane, and their combination.
#include <array>
#include <memory>
#include <new>
#include <string>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gpu.hpp"
#include "metrics/speed/outputs.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/rows.hpp"
#include "metrics/speed/score.hpp"

namespace vqx {

namespace {

using speed::Params;

class SpeedChromaExtractor final : public Extractor {
 public:
  explicit SpeedChromaExtractor(const Params& p) : params_(p) {}

  Status init(const PictureFormat& fmt) override {
    VQX_ASSIGN_OR_RETURN(const speed::Geometry g, speed::chroma_geometry(fmt, params_));
    const unsigned w = g.width;
    const unsigned h = g.height;
    try {
      scorer_.init(g, params_, params_.weight_var_mode);
      ref_rows_.init(w, fmt.bpc);
      dis_rows_.init(w, fmt.bpc);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "speed_chroma: out of memory for " + std::to_string(w) + "x" +
                                     std::to_string(h) + " chroma planes");
    }
    fmt_ = fmt;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("speed_chroma", initialised_, fmt_, FormatMatch::kExact,
                                            ref, dist, index));
    const speed::ScoreResult u = channel(ref, dist, 1);
    const speed::ScoreResult v = channel(ref, dist, 2);
    speed::write_chroma(u, v, params_.max_val, index, out);
    return Status::Ok();
  }

 private:
  speed::ScoreResult channel(const Picture& ref, const Picture& dist, unsigned p) {
    ref_rows_.set({ref.plane(p).data(), ref.plane(p).stride_bytes()});
    dis_rows_.set({dist.plane(p).data(), dist.plane(p).stride_bytes()});
    return scorer_.score(ref_rows_, dis_rows_);
  }

  Params params_;
  PictureFormat fmt_;
  speed::SpeedScorer scorer_;
  speed::PlaneRows ref_rows_;
  speed::PlaneRows dis_rows_;
  bool initialised_ = false;
};

constexpr std::array<OutputDef, 3> kOutputs = {{
    {"speed_chroma_u"},
    {"speed_chroma_v"},
    {"speed_chroma_uv"},
}};

constexpr std::array<FeatureAlias, 3> kProvides = {{
    // libvmaf feature/alias.c and speed.c, provided_features_chroma[].
    {"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
    {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"},
}};

Expected<Params> read_params(const OptionSet& set) {
  VQX_ASSIGN_OR_RETURN(Params p, speed::read_common(set, "speed_chroma"));
  p.weight_var_mode = set.get_int("speed_weight_var_mode");
  return p;
}

}  // namespace

const ExtractorFamily& speed_chroma_family() {
  static const ExtractorFamily kFamily = {
      .name = "speed_chroma",
      .options = speed::chroma_option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      .chroma = {ChromaRule::kAlways},
      .bind = bind_family<Params, read_params, SpeedChromaExtractor,
                          VQX_TWIN(&speed::make_chroma_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

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
// files.
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/heatmap.hpp"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/scorer.hpp"
#include "metrics/families.hpp"

namespace vqx {

namespace {

using cambi::Geometry;
using cambi::Params;

std::string size_text(unsigned w, unsigned h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// Whether the high-resolution speed-up applies to an encode of enc_pixels.
bool speedup_applies(unsigned hrs, long enc_pixels) {
  switch (hrs) {
    case 1080:
      return enc_pixels >= cambi::kHrsPixels1080;
    case 1440:
      return enc_pixels >= cambi::kHrsPixels1440;
    case 2160:
      return enc_pixels >= cambi::kHrsPixels2160;
    default:
      return false;
  }
}

// libvmaf reads outside the picture of a scale when half the window exceeds
// one of its sides (calculate_c_values() fills the first window rows and
// columns unconditionally), so VQX refuses those sizes.
Status check_window_fits(const Geometry& g, const char* what) {
  const unsigned radius = g.window / 2;
  const unsigned last = cambi::kScaleCount - 1;
  const unsigned w = g.scale_width[last];
  const unsigned h = g.scale_height[last];
  if (radius > w || radius > h) {
    return Error(Errc::kUnsupported, "cambi: the " + std::string(what) + " size " +
                                         size_text(g.width, g.height) +
                                         " is too narrow: its smallest scale (" + size_text(w, h) +
                                         ") is smaller than half the " + std::to_string(g.window) +
                                         "-pixel window, where libvmaf reads outside the picture");
  }
  return Status::Ok();
}

// The sizes CAMBI works at, as libvmaf's init() settles them.
struct Sizes {
  unsigned enc_w = 0;
  unsigned enc_h = 0;
  unsigned src_w = 0;
  unsigned src_h = 0;
  bool half_first = false;  // the high-resolution speed-up applies
  unsigned window = 0;      // adjusted to the encoding size
  unsigned src_window = 0;  // adjusted to the source size
};

Status too_small(const char* what, unsigned w, unsigned h) {
  return Error(Errc::kUnsupported, "cambi: the " + std::string(what) + " size " + size_text(w, h) +
                                       " is too small: CAMBI needs a width or a height of at "
                                       "least " +
                                       std::to_string(cambi::kMinDimension) +
                                       " (libvmaf refuses it too)");
}

Expected<Sizes> settle_sizes(const Params& p, unsigned w, unsigned h) {
  Sizes s;
  // Sizes left at 0 (either side) are the picture's.
  s.enc_w = p.enc_width != 0 && p.enc_height != 0 ? p.enc_width : w;
  s.enc_h = p.enc_width != 0 && p.enc_height != 0 ? p.enc_height : h;
  s.src_w = p.src_width != 0 && p.src_height != 0 ? p.src_width : w;
  s.src_h = p.src_width != 0 && p.src_height != 0 ? p.src_height : h;
  // A downscaled encode is not upscaled back to its encoding size.
  if (s.enc_w > w || s.enc_h > h) {
    s.enc_w = w;
    s.enc_h = h;
  }
  if (s.enc_w < cambi::kMinDimension && s.enc_h < cambi::kMinDimension) {
    return too_small("encoding", s.enc_w, s.enc_h);
  }
  if (s.src_w < cambi::kMinDimension && s.src_h < cambi::kMinDimension) {
    return too_small("source", s.src_w, s.src_h);
  }
  if ((s.src_w > s.enc_w && s.src_h < s.enc_h) || (s.src_w < s.enc_w && s.src_h > s.enc_h)) {
    return Error(Errc::kInvalidArgument, "cambi: the source size " + size_text(s.src_w, s.src_h) +
                                             " is larger than the encoding size " +
                                             size_text(s.enc_w, s.enc_h) +
                                             " on one side and smaller on the other");
  }
  s.half_first = speedup_applies(p.high_res_speedup, static_cast<long>(s.enc_w) * s.enc_h);
  s.window = cambi::adjusted_window(p.window_size, s.enc_w, s.enc_h, s.half_first);
  s.src_window = cambi::adjusted_window(p.window_size, s.src_w, s.src_h, s.half_first);
  const unsigned widest = std::max(s.window, s.src_window);
  if (widest * widest >= static_cast<unsigned>(cambi::kReciprocalLutSize)) {
    return Error(Errc::kUnsupported,
                 "cambi: window_size " + std::to_string(p.window_size) + " becomes " +
                     std::to_string(widest) +
                     " pixels at this size, too large for libvmaf's reciprocal table (at most "
                     "65; cambi_high_res_speedup halves it)");
  }
  return s;
}

class CambiExtractor final : public Extractor {
 public:
  // The heatmaps are files of the context's set (env.output_files).
  CambiExtractor(const Params& params, const ExtractorEnv& env)
      : params_(params), output_files_(env.output_files) {}

  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    const unsigned w = fmt.width;
    const unsigned h = fmt.height;
    VQX_ASSIGN_OR_RETURN(const Sizes s, settle_sizes(params_, w, h));
    enc_ = cambi::make_geometry(w, h, s.enc_w, s.enc_h, s.window, s.half_first);
    VQX_RETURN_IF_ERROR(check_window_fits(enc_, "encoding"));
    unsigned max_w = s.enc_w;
    unsigned max_h = s.enc_h;
    if (params_.full_ref) {
      src_ = cambi::make_geometry(w, h, s.src_w, s.src_h, s.src_window, s.half_first);
      VQX_RETURN_IF_ERROR(check_window_fits(src_, "source"));
      max_w = std::max(max_w, s.src_w);
      max_h = std::max(max_h, s.src_h);
    }
    anti_dither_ = (params_.enc_bitdepth != 0 ? params_.enc_bitdepth : fmt.bpc) <
                   cambi::kAntiDitherBelowBitDepth;

    VQX_ASSIGN_OR_RETURN(tables_, cambi::make_contrast_tables(params_));
    VQX_RETURN_IF_ERROR(scorer_.allocate(max_w, max_h, std::max(s.window, s.src_window) / 2,
                                         tables_.band_size, tables_.num_diffs));
    heatmaps_.reset();
    if (!params_.heatmaps_path.empty()) {
      int max_weight = 0;
      for (unsigned d = 0; d < tables_.num_diffs; ++d) {
        max_weight = std::max(max_weight, tables_.weights[d]);
      }
      heatmaps_ = std::make_unique<cambi::HeatmapWriter>(output_files_);
      VQX_RETURN_IF_ERROR(
          heatmaps_->open(params_.heatmaps_path, s.enc_w, s.enc_h, s.window, max_weight));
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
    setup.anti_dither = anti_dither_;
    setup.topk = params_.topk;
    setup.heatmaps = heatmaps_.get();
    setup.frame = index;
    VQX_ASSIGN_OR_RETURN(const double dist_score,
                         scorer_.score(dist.plane(0), enc_, tables_, setup));
    out.write(0, index, clip(dist_score));
    if (params_.full_ref) {
      setup.heatmaps = nullptr;  // libvmaf writes heatmaps of the distorted picture only
      VQX_ASSIGN_OR_RETURN(const double src_score,
                           scorer_.score(ref.plane(0), src_, tables_, setup));
      out.write(1, index, clip(src_score));
      out.write(2, index, clip(std::max(0.0, dist_score - src_score)));
    }
    return Status::Ok();
  }

  Status flush(FeatureWriter& /*out*/) override {
    return heatmaps_ ? heatmaps_->close() : Status::Ok();
  }

 private:
  [[nodiscard]] double clip(double v) const { return std::min(v, params_.max_val); }

  Params params_;
  std::shared_ptr<OutputFiles> output_files_;
  PictureFormat fmt_;
  Geometry enc_;
  Geometry src_;
  bool anti_dither_ = false;
  cambi::ContrastTables tables_;
  cambi::Scorer scorer_;
  std::unique_ptr<cambi::HeatmapWriter> heatmaps_;
  bool initialised_ = false;
};

constexpr std::array<FeatureAlias, 1> kProvides = {{
    // libvmaf feature/alias.c, and cambi.c's provided_features.
    {"Cambi_feature_cambi_score", "cambi"},
}};

Expected<cambi::Eotf> parse_eotf(const std::string& name) {
  if (name == "bt1886") return cambi::Eotf::kBt1886;
  if (name == "pq") return cambi::Eotf::kPq;
  return Error(Errc::kInvalidArgument,
               "cambi: unknown EOTF '" + name + "' (expected bt1886 or pq)");
}

Expected<Params> read_params(const OptionSet& set) {
  Params p;
  p.max_val = set.get_double("cambi_max_val");
  p.enc_width = static_cast<unsigned>(set.get_int("enc_width"));
  p.enc_height = static_cast<unsigned>(set.get_int("enc_height"));
  p.enc_bitdepth = static_cast<unsigned>(set.get_int("enc_bitdepth"));
  p.src_width = static_cast<unsigned>(set.get_int("src_width"));
  p.src_height = static_cast<unsigned>(set.get_int("src_height"));
  p.window_size = static_cast<unsigned>(set.get_int("window_size"));
  // A non-default topk wins over cambi_topk (libvmaf, preprocess_and_extract_cambi()).
  const double topk = set.get_double("topk");
  p.topk = topk != cambi::kDefaultTopk ? topk : set.get_double("cambi_topk");
  p.tvi_threshold = set.get_double("tvi_threshold");
  p.vis_lum_threshold = set.get_double("cambi_vis_lum_threshold");
  p.max_log_contrast = static_cast<unsigned>(set.get_int("max_log_contrast"));
  p.heatmaps_path = set.get_string("heatmaps_path");
  p.full_ref = set.get_bool("full_ref");
  // A non-default cambi_eotf wins over eotf (libvmaf, init()).
  const std::string& cambi_eotf = set.get_string("cambi_eotf");
  VQX_ASSIGN_OR_RETURN(
      p.eotf, parse_eotf(cambi_eotf != cambi::kDefaultEotf ? cambi_eotf : set.get_string("eotf")));
  p.high_res_speedup = static_cast<unsigned>(set.get_int("cambi_high_res_speedup"));
  return p;
}

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
      .bind = bind_family<Params, read_params, CambiExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

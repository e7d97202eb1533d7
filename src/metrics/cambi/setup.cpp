#include "metrics/cambi/setup.hpp"

#include <algorithm>
#include <string>

namespace vqx::cambi {

namespace {

std::string size_text(unsigned w, unsigned h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

// Whether the high-resolution speed-up applies to an encode of enc_pixels.
bool speedup_applies(unsigned hrs, long enc_pixels) {
  switch (hrs) {
    case 1080:
      return enc_pixels >= kHrsPixels1080;
    case 1440:
      return enc_pixels >= kHrsPixels1440;
    case 2160:
      return enc_pixels >= kHrsPixels2160;
    default:
      return false;
  }
}

// libvmaf reads outside the picture of a scale when half the window exceeds
// one of its sides (calculate_c_values() fills the first window rows and
// columns unconditionally), so VQX refuses those sizes.
Status check_window_fits(const Geometry& g, const char* what) {
  const unsigned radius = g.window / 2;
  const unsigned last = kScaleCount - 1;
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
                                       std::to_string(kMinDimension) + " (libvmaf refuses it too)");
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
  if (s.enc_w < kMinDimension && s.enc_h < kMinDimension) {
    return too_small("encoding", s.enc_w, s.enc_h);
  }
  if (s.src_w < kMinDimension && s.src_h < kMinDimension) {
    return too_small("source", s.src_w, s.src_h);
  }
  if ((s.src_w > s.enc_w && s.src_h < s.enc_h) || (s.src_w < s.enc_w && s.src_h > s.enc_h)) {
    return Error(Errc::kInvalidArgument, "cambi: the source size " + size_text(s.src_w, s.src_h) +
                                             " is larger than the encoding size " +
                                             size_text(s.enc_w, s.enc_h) +
                                             " on one side and smaller on the other");
  }
  s.half_first = speedup_applies(p.high_res_speedup, static_cast<long>(s.enc_w) * s.enc_h);
  s.window = adjusted_window(p.window_size, s.enc_w, s.enc_h, s.half_first);
  s.src_window = adjusted_window(p.window_size, s.src_w, s.src_h, s.half_first);
  const unsigned widest = std::max(s.window, s.src_window);
  if (widest * widest >= static_cast<unsigned>(kReciprocalLutSize)) {
    return Error(Errc::kUnsupported,
                 "cambi: window_size " + std::to_string(p.window_size) + " becomes " +
                     std::to_string(widest) +
                     " pixels at this size, too large for libvmaf's reciprocal table (at most "
                     "65; cambi_high_res_speedup halves it)");
  }
  return s;
}

Expected<Eotf> parse_eotf(const std::string& name) {
  if (name == "bt1886") return Eotf::kBt1886;
  if (name == "pq") return Eotf::kPq;
  return Error(Errc::kInvalidArgument,
               "cambi: unknown EOTF '" + name + "' (expected bt1886 or pq)");
}

}  // namespace

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
  p.topk = topk != kDefaultTopk ? topk : set.get_double("cambi_topk");
  p.tvi_threshold = set.get_double("tvi_threshold");
  p.vis_lum_threshold = set.get_double("cambi_vis_lum_threshold");
  p.max_log_contrast = static_cast<unsigned>(set.get_int("max_log_contrast"));
  p.heatmaps_path = set.get_string("heatmaps_path");
  p.full_ref = set.get_bool("full_ref");
  // A non-default cambi_eotf wins over eotf (libvmaf, init()).
  const std::string& cambi_eotf = set.get_string("cambi_eotf");
  VQX_ASSIGN_OR_RETURN(
      p.eotf, parse_eotf(cambi_eotf != kDefaultEotf ? cambi_eotf : set.get_string("eotf")));
  p.high_res_speedup = static_cast<unsigned>(set.get_int("cambi_high_res_speedup"));
  return p;
}

Expected<Setup> make_setup(const Params& params, const PictureFormat& fmt) {
  const unsigned w = fmt.width;
  const unsigned h = fmt.height;
  VQX_ASSIGN_OR_RETURN(const Sizes s, settle_sizes(params, w, h));
  Setup out;
  out.enc = make_geometry(w, h, s.enc_w, s.enc_h, s.window, s.half_first);
  VQX_RETURN_IF_ERROR(check_window_fits(out.enc, "encoding"));
  out.max_width = s.enc_w;
  out.max_height = s.enc_h;
  if (params.full_ref) {
    out.src = make_geometry(w, h, s.src_w, s.src_h, s.src_window, s.half_first);
    VQX_RETURN_IF_ERROR(check_window_fits(out.src, "source"));
    out.max_width = std::max(out.max_width, s.src_w);
    out.max_height = std::max(out.max_height, s.src_h);
  }
  out.max_radius = std::max(s.window, s.src_window) / 2;
  out.anti_dither =
      (params.enc_bitdepth != 0 ? params.enc_bitdepth : fmt.bpc) < kAntiDitherBelowBitDepth;
  VQX_ASSIGN_OR_RETURN(out.tables, make_contrast_tables(params));
  for (unsigned d = 0; d < out.tables.num_diffs; ++d) {
    out.max_weight = std::max(out.max_weight, out.tables.weights[d]);
  }
  return out;
}

void write_scores(const Params& params, unsigned index, double dist_score, double src_score,
                  FeatureWriter& out) {
  const auto clip = [&](double v) { return std::min(v, params.max_val); };
  out.write(0, index, clip(dist_score));
  if (params.full_ref) {
    out.write(1, index, clip(src_score));
    out.write(2, index, clip(std::max(0.0, dist_score - src_score)));
  }
}

}  // namespace vqx::cambi

// The "float_ssim" extractor family (libvmaf feature/float_ssim.c and
// feature/ssim.c): SSIM of the luma, after subsampling large pictures.
// Its GPU twin is ssim_gpu.cu (docs/gpu.md).
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/ssim/config.hpp"
#include "metrics/ssim/db.hpp"
#include "metrics/ssim/decimate.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/gpu.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/scores.hpp"
#include "metrics/ssim/window.hpp"

namespace vqx {

namespace {

using ssim::SsimConfig;

std::string size_text(unsigned w, unsigned h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

class FloatSsimExtractor final : public Extractor {
 public:
  explicit FloatSsimExtractor(const SsimConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_ASSIGN_OR_RETURN(const ssim::SsimGeometry g,
                         ssim::ssim_geometry(config_.scale, fmt.width, fmt.height));
    factor_ = g.factor;
    try {
      if (factor_ > 1) {
        ref_small_ = ssim::FloatImage(g.window.width, g.window.height);
        cmp_small_ = ssim::FloatImage(g.window.width, g.window.height);
        box_.assign(static_cast<std::size_t>(factor_ * factor_), ssim::box_tap(factor_));
        decimator_.init(static_cast<int>(fmt.width), factor_, factor_);
      }
      window_.init(g.window.width);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "float_ssim: out of memory for a " +
                                     size_text(fmt.width, fmt.height) + " picture");
    }
    fmt_ = fmt;
    max_db_ = ssim::max_db(config_.clip_db, fmt.bpc, fmt.width, fmt.height);
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_ssim", initialised_, fmt_, FormatMatch::kLuma,
                                            ref, dist, index));
    // Equal pictures score exactly 1. (libvmaf's rounding leaves many of
    // them within 2^-23 of 1, e.g. 0.99999994 for a flat 8-bit picture of
    // 3, 1.0000001 for one of 25.)
    const ssim::WindowMeans means = ssim::same_luma(ref, dist, fmt_.width, fmt_.height)
                                        ? ssim::kEqualPictures
                                        : compute(ref, dist);
    ssim::write_ssim(config_, max_db_, means, index, out);
    return Status::Ok();
  }

 private:
  ssim::WindowMeans compute(const Picture& ref, const Picture& dist) {
    const int w = static_cast<int>(fmt_.width);
    const int h = static_cast<int>(fmt_.height);
    const ssim::RowSource ref_luma(ref.plane(0), fmt_.bpc, w, h);
    const ssim::RowSource dist_luma(dist.plane(0), fmt_.bpc, w, h);
    if (factor_ == 1) return window_.compute(ref_luma, dist_luma);
    decimator_.run(ref_luma, box_, ref_small_);
    decimator_.run(dist_luma, box_, cmp_small_);
    return window_.compute(ssim::RowSource(ref_small_), ssim::RowSource(cmp_small_));
  }

  SsimConfig config_;
  PictureFormat fmt_;
  int factor_ = 1;
  double max_db_ = 0.0;
  ssim::FloatImage ref_small_;  // subsampled, when factor_ > 1
  ssim::FloatImage cmp_small_;
  std::vector<float> box_;  // libvmaf's box filter: every tap 1 / factor^2, rounded to float
  ssim::Decimator decimator_;
  ssim::SsimWindow window_;
  bool initialised_ = false;
};

Expected<SsimConfig> read_config(const OptionSet& opts) {
  SsimConfig config;
  config.enable_lcs = opts.get_bool(ssim::kOptEnableLcs);
  config.enable_db = opts.get_bool(ssim::kOptEnableDb);
  config.clip_db = opts.get_bool(ssim::kOptClipDb);
  config.scale = opts.get_int(ssim::kOptScale);
  return config;
}

}  // namespace

const ExtractorFamily& float_ssim_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_ssim",
      .options = ssim::ssim_option_defs(),
      .outputs = ssim::kSsimOutputs,
      .provides = ssim::kSsimProvides,
      .luma_only = true,
      .bind =
          bind_family<SsimConfig, read_config, FloatSsimExtractor, VQX_TWIN(&ssim::make_ssim_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

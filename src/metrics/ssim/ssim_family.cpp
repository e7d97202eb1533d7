// The "float_ssim" extractor family (libvmaf feature/float_ssim.c and
// feature/ssim.c): SSIM of the luma, after subsampling large pictures.
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/ssim/db.hpp"
#include "metrics/ssim/decimate.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/window.hpp"

namespace vqx {

namespace {

struct SsimConfig {
  bool enable_lcs = false;
  bool enable_db = false;
  bool clip_db = false;
  int scale = 0;  // 0: automatic
};

// Slots: the score, then with enable_lcs the l, c and s means.
enum Slot : std::size_t { kSlotScore, kSlotL, kSlotC, kSlotS };

// The subsampling factor libvmaf uses: the option if given, else
// max(1, round(min(w, h) / 256)) with halves rounded up (ssim.c).
int scale_factor(int option, unsigned width, unsigned height) {
  if (option > 0) return option;
  const unsigned shorter = width < height ? width : height;
  const unsigned rounded = (shorter + ssim::kAutoScaleDivisor / 2) / ssim::kAutoScaleDivisor;
  return rounded > 1 ? static_cast<int>(rounded) : 1;
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

class FloatSsimExtractor final : public Extractor {
 public:
  explicit FloatSsimExtractor(const SsimConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    const int w = static_cast<int>(fmt.width);
    const int h = static_cast<int>(fmt.height);
    factor_ = scale_factor(config_.scale, fmt.width, fmt.height);
    const int sw = factor_ > 1 ? ssim::decimated_size(w, factor_) : w;
    const int sh = factor_ > 1 ? ssim::decimated_size(h, factor_) : h;
    // Below the window size libvmaf divides by zero or a negative count.
    if (sw < ssim::kWindow || sh < ssim::kWindow) {
      std::string what = "picture " + size_text(w, h);
      if (factor_ > 1) {
        what += ", subsampled by " + std::to_string(factor_) + " to " + size_text(sw, sh) + ",";
      }
      return Error(Errc::kUnsupported, "float_ssim: " + what + " is smaller than the " +
                                           std::to_string(ssim::kWindow) + "x" +
                                           std::to_string(ssim::kWindow) + " SSIM window");
    }
    try {
      if (factor_ > 1) {
        ref_small_ = ssim::FloatImage(sw, sh);
        cmp_small_ = ssim::FloatImage(sw, sh);
        // libvmaf's box filter: every tap 1 / factor^2, rounded to float.
        box_.assign(static_cast<std::size_t>(factor_ * factor_),
                    1.0f / static_cast<float>(factor_ * factor_));
        decimator_.init(w, factor_, factor_);
      }
      window_.init(sw);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "float_ssim: out of memory for a " + size_text(w, h) + " picture");
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
    ssim::WindowMeans means{1.0f, 1.0f, 1.0f, 1.0f};
    // Equal pictures score exactly 1. (libvmaf's rounding leaves many of
    // them within 2^-23 of 1, e.g. 0.99999994 for a flat 8-bit picture of
    // 3, 1.0000001 for one of 25.)
    if (!ssim::same_luma(ref, dist, fmt_.width, fmt_.height)) means = compute(ref, dist);

    double score = static_cast<double>(means.ssim);
    if (config_.enable_db) score = ssim::to_db(score, max_db_);
    out.write(kSlotScore, index, score);
    if (config_.enable_lcs) {
      out.write(kSlotL, index, static_cast<double>(means.l));
      out.write(kSlotC, index, static_cast<double>(means.c));
      out.write(kSlotS, index, static_cast<double>(means.s));
    }
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
  std::vector<float> box_;
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
      .bind = bind_family<SsimConfig, read_config, FloatSsimExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

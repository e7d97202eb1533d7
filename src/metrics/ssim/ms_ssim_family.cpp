// The "float_ms_ssim" extractor family (libvmaf feature/float_ms_ssim.c and
// feature/ms_ssim.c): multi-scale SSIM of the luma (Wang, Simoncelli and
// Bovik 2003) over five scales, each the previous one low-passed and
// subsampled by 2. Its GPU twin is ms_ssim_gpu.cu (docs/gpu.md).
#include <array>
#include <memory>
#include <new>
#include <string>

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

using ssim::kScales;
using ssim::MsSsimConfig;

std::string size_text(unsigned w, unsigned h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

class FloatMsSsimExtractor final : public Extractor {
 public:
  explicit FloatMsSsimExtractor(const MsSsimConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_RETURN_IF_ERROR(ssim::check_ms_ssim_size(fmt.width, fmt.height));
    try {
      const auto sizes = ssim::ms_ssim_scales(fmt.width, fmt.height);
      for (int k = 1; k < kScales; ++k) {
        ref_[k] = ssim::FloatImage(sizes[k].width, sizes[k].height);
        cmp_[k] = ssim::FloatImage(sizes[k].width, sizes[k].height);
      }
      decimator_.init(static_cast<int>(fmt.width), ssim::kLpfSize, ssim::kLpfFactor);
      window_.init(static_cast<int>(fmt.width));
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "float_ms_ssim: out of memory for a " +
                                     size_text(fmt.width, fmt.height) + " picture");
    }
    fmt_ = fmt;
    max_db_ = ssim::max_db(config_.clip_db, fmt.bpc, fmt.width, fmt.height);
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_ms_ssim", initialised_, fmt_, FormatMatch::kLuma,
                                            ref, dist, index));
    std::array<ssim::WindowMeans, kScales> means;
    means.fill(ssim::kEqualPictures);
    double score = 1.0;
    // Equal pictures score exactly 1. (libvmaf's rounding leaves many of
    // them within 2^-23 of 1, e.g. 0.999999992 for a flat 8-bit picture of
    // 3, 1.000000016 for one of 23.)
    if (!ssim::same_luma(ref, dist, fmt_.width, fmt_.height)) {
      compute(ref, dist, means);
      score = ssim::ms_ssim_score(means);
    }
    ssim::write_ms_ssim(config_, max_db_, score, means, index, out);
    return Status::Ok();
  }

 private:
  // The means of every scale.
  void compute(const Picture& ref, const Picture& dist,
               std::array<ssim::WindowMeans, kScales>& means) {
    // Scale 0 is read from the pictures themselves; scales 1..4 are built.
    const int w = static_cast<int>(fmt_.width);
    const int h = static_cast<int>(fmt_.height);
    const ssim::RowSource ref_luma(ref.plane(0), fmt_.bpc, w, h);
    const ssim::RowSource dist_luma(dist.plane(0), fmt_.bpc, w, h);
    auto ref_scale = [&](int k) { return k == 0 ? ref_luma : ssim::RowSource(ref_[k]); };
    auto cmp_scale = [&](int k) { return k == 0 ? dist_luma : ssim::RowSource(cmp_[k]); };
    for (int k = 1; k < kScales; ++k) {
      decimator_.run(ref_scale(k - 1), ssim::kLowPass, ref_[k]);
      decimator_.run(cmp_scale(k - 1), ssim::kLowPass, cmp_[k]);
    }
    for (int k = 0; k < kScales; ++k) means[k] = window_.compute(ref_scale(k), cmp_scale(k));
  }

  MsSsimConfig config_;
  PictureFormat fmt_;
  double max_db_ = 0.0;
  // Scales 1..4 (scale k is 2^k times smaller); [0] stays empty.
  std::array<ssim::FloatImage, kScales> ref_;
  std::array<ssim::FloatImage, kScales> cmp_;
  ssim::Decimator decimator_;
  ssim::SsimWindow window_;
  bool initialised_ = false;
};

Expected<MsSsimConfig> read_config(const OptionSet& opts) {
  MsSsimConfig config;
  config.enable_lcs = opts.get_bool(ssim::kOptEnableLcs);
  config.enable_db = opts.get_bool(ssim::kOptEnableDb);
  config.clip_db = opts.get_bool(ssim::kOptClipDb);
  return config;
}

}  // namespace

const ExtractorFamily& float_ms_ssim_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_ms_ssim",
      .options = ssim::ms_ssim_option_defs(),
      .outputs = ssim::kMsSsimOutputs,
      .provides = ssim::kMsSsimProvides,
      .luma_only = true,
      .bind = bind_family<MsSsimConfig, read_config, FloatMsSsimExtractor,
                          VQX_TWIN(&ssim::make_ms_ssim_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

// The "float_ms_ssim" extractor family (libvmaf feature/float_ms_ssim.c and
// feature/ms_ssim.c): multi-scale SSIM of the luma (Wang, Simoncelli and
// Bovik 2003) over five scales, each the previous one low-passed and
// subsampled by 2.
#include <array>
#include <cmath>
#include <memory>
#include <new>
#include <string>

#include "metrics/families.hpp"
#include "metrics/ssim/db.hpp"
#include "metrics/ssim/decimate.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/window.hpp"

namespace vqx {

namespace {

using ssim::kScales;

struct MsSsimConfig {
  bool enable_lcs = false;
  bool enable_db = false;
  bool clip_db = false;
};

// Slots: the score, then with enable_lcs l of scales 0..4, c of scales
// 0..4, s of scales 0..4 (the order of ssim::kMsSsimOutputs).
constexpr std::size_t kSlotScore = 0;
constexpr std::size_t slot_l(int scale) { return 1 + static_cast<std::size_t>(scale); }
constexpr std::size_t slot_c(int scale) { return 1 + kScales + static_cast<std::size_t>(scale); }
constexpr std::size_t slot_s(int scale) {
  return 1 + 2 * kScales + static_cast<std::size_t>(scale);
}

std::string size_text(unsigned w, unsigned h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

class FloatMsSsimExtractor final : public Extractor {
 public:
  explicit FloatMsSsimExtractor(const MsSsimConfig& config) : config_(config) {}

  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    // libvmaf fails every frame of such a picture ("scale below 1x1!") and
    // writes nothing. Five scales with fewer of them, or a window smaller
    // than 11x11, would be another measure, so VQX refuses the picture.
    if (fmt.width < ssim::kMsSsimMinSide || fmt.height < ssim::kMsSsimMinSide) {
      return Error(
          Errc::kUnsupported,
          "float_ms_ssim: picture " + size_text(fmt.width, fmt.height) + " is too small: its " +
              std::to_string(kScales) + " scales (each side halved 4 times) need at least " +
              size_text(ssim::kMsSsimMinSide, ssim::kMsSsimMinSide) + " for the " +
              std::to_string(ssim::kWindow) + "x" + std::to_string(ssim::kWindow) + " window");
    }
    try {
      int w = static_cast<int>(fmt.width);
      int h = static_cast<int>(fmt.height);
      for (int k = 1; k < kScales; ++k) {
        w = ssim::decimated_size(w, 2);
        h = ssim::decimated_size(h, 2);
        ref_[k] = ssim::FloatImage(w, h);
        cmp_[k] = ssim::FloatImage(w, h);
      }
      decimator_.init(static_cast<int>(fmt.width), ssim::kLpfSize, 2);
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
    means.fill({1.0f, 1.0f, 1.0f, 1.0f});
    double score = 1.0;
    // Equal pictures score exactly 1. (libvmaf's rounding leaves many of
    // them within 2^-23 of 1, e.g. 0.999999992 for a flat 8-bit picture of
    // 3, 1.000000016 for one of 23.)
    if (!ssim::same_luma(ref, dist, fmt_.width, fmt_.height)) score = compute(ref, dist, means);

    if (config_.enable_db) score = ssim::to_db(score, max_db_);
    out.write(kSlotScore, index, score);
    if (config_.enable_lcs) {
      for (int k = 0; k < kScales; ++k) {
        out.write(slot_l(k), index, static_cast<double>(means[k].l));
        out.write(slot_c(k), index, static_cast<double>(means[k].c));
        out.write(slot_s(k), index, static_cast<double>(means[k].s));
      }
    }
    return Status::Ok();
  }

 private:
  // The score and the means of every scale.
  double compute(const Picture& ref, const Picture& dist,
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

    // ms_ssim.c: the product over scales of l^alpha * c^beta * s^gamma,
    // each factor from the float means, in double. (It cannot overflow: the
    // terms are bounded, so libvmaf's check for an infinite product never
    // fires.)
    double score = 1.0;
    for (int k = 0; k < kScales; ++k) {
      means[k] = window_.compute(ref_scale(k), cmp_scale(k));
      const auto l = static_cast<double>(means[k].l);
      const auto c = static_cast<double>(means[k].c);
      const auto s = static_cast<double>(means[k].s);
      score *= std::pow(l, static_cast<double>(ssim::kAlphas[k])) *
               std::pow(c, static_cast<double>(ssim::kBetas[k])) *
               std::pow(s, static_cast<double>(ssim::kGammas[k]));
    }
    return score;
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
      .bind = bind_family<MsSsimConfig, read_config, FloatMsSsimExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

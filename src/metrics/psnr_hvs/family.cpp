// The "psnr_hvs" extractor family (libvmaf's
// feature/third_party/xiph/psnr_hvs.c): psnr_hvs_y, psnr_hvs_cb,
// psnr_hvs_cr and the weighted psnr_hvs per frame. No options.
//
// Accepted pictures, as libvmaf: 4:2:0, 4:2:2 and 4:4:4 at 8 to 12 bits.
// 4:0:0 is refused (libvmaf's init refuses it too, and psnr_hvs itself
// weighs in both chroma planes). Every plane must hold at least one 8x8
// block: libvmaf would divide 0 by 0 and report NaN. Planes are taken at
// their own sizes; for odd sizes VQX's chroma planes round up where
// libvmaf's round down (its Y4M reader cannot read such files anyway).
#include <array>
#include <cmath>
#include <memory>
#include <new>
#include <string>

#include "metrics/families.hpp"
#include "metrics/psnr_hvs/cpu.hpp"
#include "metrics/psnr_hvs/params.hpp"

namespace vqx {

namespace {

using psnr_hvs::PlaneView;

// libvmaf convert_score_db(score, 1.0): 10 * (-1 * log10(1.0 * score)).
double to_db(double error) { return 10.0 * (-1.0 * std::log10(1.0 * error)); }

template <typename Sample>
PlaneView<Sample> view(const Plane& p) {
  return {p.row<Sample>(0), static_cast<std::ptrdiff_t>(p.stride_bytes() / sizeof(Sample)),
          p.width(), p.height()};
}

class PsnrHvsExtractor final : public Extractor {
 public:
  PsnrHvsExtractor()
      : weights_{psnr_hvs::make_weights(psnr_hvs::kCsfY), psnr_hvs::make_weights(psnr_hvs::kCsfCb),
                 psnr_hvs::make_weights(psnr_hvs::kCsfCr)} {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    if (fmt.chroma == ChromaFormat::k400) {
      return Error(Errc::kUnsupported,
                   "psnr_hvs: a 4:0:0 (luma-only) picture is not supported (psnr_hvs weighs in "
                   "both chroma planes; libvmaf refuses it too)");
    }
    if (fmt.bpc > psnr_hvs::kMaxBpc) {
      return Error(Errc::kUnsupported, "psnr_hvs: bit depth " + std::to_string(fmt.bpc) +
                                           " is not supported (at most " +
                                           std::to_string(psnr_hvs::kMaxBpc) +
                                           ", as in libvmaf: its integer DCT is sized for it)");
    }
    for (unsigned p = 0; p < fmt.plane_count(); ++p) {
      if (fmt.plane_width(p) < psnr_hvs::kBlock || fmt.plane_height(p) < psnr_hvs::kBlock) {
        return Error(Errc::kUnsupported,
                     "psnr_hvs: picture " + std::to_string(fmt.width) + "x" +
                         std::to_string(fmt.height) + " " + to_string(fmt.chroma) +
                         " is too small: plane " + std::to_string(p) + " is " +
                         std::to_string(fmt.plane_width(p)) + "x" +
                         std::to_string(fmt.plane_height(p)) + ", smaller than one 8x8 block");
      }
    }
    try {
      scratch_ = psnr_hvs::make_scratch();
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "psnr_hvs: out of memory for the block buffers");
    }
    fmt_ = fmt;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("psnr_hvs", scratch_ != nullptr, fmt_,
                                            FormatMatch::kExact, ref, dist, index));
    double error[3];
    for (unsigned p = 0; p < 3; ++p) {
      const float e = fmt_.bpc == 8 ? psnr_hvs::plane_error(view<std::uint8_t>(ref.plane(p)),
                                                            view<std::uint8_t>(dist.plane(p)),
                                                            weights_[p], *scratch_)
                                    : psnr_hvs::plane_error(view<std::uint16_t>(ref.plane(p)),
                                                            view<std::uint16_t>(dist.plane(p)),
                                                            fmt_.bpc, weights_[p], *scratch_);
      error[p] = static_cast<double>(e);
      out.write(p, index, to_db(error[p]));
    }
    const double combined =
        error[0] * psnr_hvs::kWeightY + psnr_hvs::kWeightC * (error[1] + error[2]);
    out.write(3, index, to_db(combined));
    return Status::Ok();
  }

 private:
  psnr_hvs::Weights weights_[3];  // Y, Cb, Cr
  psnr_hvs::ScratchPtr scratch_;
  PictureFormat fmt_;
};

// libvmaf provided_features, in slot order; no aliases in feature/alias.c.
constexpr std::array<FeatureAlias, 4> kProvides = {{
    {"psnr_hvs_y", "psnr_hvs_y"},
    {"psnr_hvs_cb", "psnr_hvs_cb"},
    {"psnr_hvs_cr", "psnr_hvs_cr"},
    {"psnr_hvs", "psnr_hvs"},
}};

// Outputs in slot order.
constexpr std::array<OutputDef, 4> kOutputs = {{
    {"psnr_hvs_y"},
    {"psnr_hvs_cb"},
    {"psnr_hvs_cr"},
    {"psnr_hvs"},
}};

}  // namespace

const ExtractorFamily& psnr_hvs_family() {
  static const ExtractorFamily kFamily = {
      .name = "psnr_hvs",
      .outputs = kOutputs,
      .provides = kProvides,
      .chroma = {ChromaRule::kAlways},
      // libvmaf's psnr_hvs has no options: any key given is refused.
      .bind = bind_family<NoParams, read_no_params, PsnrHvsExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

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
#include <memory>
#include <new>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/psnr_hvs/cpu.hpp"
#include "metrics/psnr_hvs/gpu.hpp"
#include "metrics/psnr_hvs/params.hpp"
#include "metrics/psnr_hvs/scores.hpp"

namespace vqx {

namespace {

using psnr_hvs::PlaneView;

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
    VQX_RETURN_IF_ERROR(psnr_hvs::check_format(fmt));
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
    std::array<float, 3> errors{};
    for (unsigned p = 0; p < 3; ++p) {
      errors[p] = fmt_.bpc == 8 ? psnr_hvs::plane_error(view<std::uint8_t>(ref.plane(p)),
                                                        view<std::uint8_t>(dist.plane(p)),
                                                        weights_[p], *scratch_)
                                : psnr_hvs::plane_error(view<std::uint16_t>(ref.plane(p)),
                                                        view<std::uint16_t>(dist.plane(p)),
                                                        fmt_.bpc, weights_[p], *scratch_);
    }
    psnr_hvs::write_scores(errors, index, out);
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
      .bind =
          bind_family<NoParams, read_no_params, PsnrHvsExtractor, VQX_TWIN(&psnr_hvs::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

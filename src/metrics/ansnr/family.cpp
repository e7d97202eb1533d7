// The "float_ansnr" family: ANSNR and ANPSNR of the luma (libvmaf
// feature/float_ansnr.c, ansnr.c). Outputs, in libvmaf's order: float_ansnr,
// float_anpsnr. See params.hpp for the measure.
//
// Bit depths: libvmaf accepts 8, 10, 12 and 16 bits and refuses the others
// at init(); VQX computes every depth from 8 to 16 (float_psnr/params.hpp).
// Sizes: at least 3x3 (params.hpp, kMinDimension); smaller pictures are
// refused with an error, where libvmaf would read outside the picture.
#include <array>
#include <new>
#include <optional>
#include <string>

#include "core/twin_ref.hpp"
#include "metrics/ansnr/cpu.hpp"
#include "metrics/ansnr/gpu.hpp"
#include "metrics/ansnr/scores.hpp"
#include "metrics/families.hpp"

namespace vqx {

namespace {

class AnsnrExtractor final : public Extractor {
 public:
  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_RETURN_IF_ERROR(ansnr::check_size(fmt));
    try {
      kernel_.emplace(fmt.width, fmt.height);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "float_ansnr: out of memory for a " + std::to_string(fmt.width) +
                                     "x" + std::to_string(fmt.height) + " picture");
    }
    fmt_ = fmt;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_ansnr", kernel_.has_value(), fmt_,
                                            FormatMatch::kExact, ref, dist, index));
    ansnr::write_scores(kernel_->compute(ref.plane(0), dist.plane(0), fmt_.bpc), fmt_, index, out);
    return Status::Ok();
  }

 private:
  PictureFormat fmt_;
  std::optional<ansnr::EnergyKernel> kernel_;
};

constexpr std::array<FeatureAlias, 1> kProvides = {{
    // float_ansnr.c provided_features (float_anpsnr is written, not provided).
    {"float_ansnr", "float_ansnr"},
}};

// Outputs in slot order.
constexpr std::array<OutputDef, 2> kOutputs = {{
    {"float_ansnr"},
    {"float_anpsnr"},
}};

}  // namespace

const ExtractorFamily& float_ansnr_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_ansnr",
      .outputs = kOutputs,
      .provides = kProvides,
      // float_ansnr.c declares no options.
      .luma_only = true,
      .bind = bind_family<NoParams, read_no_params, AnsnrExtractor, VQX_TWIN(&ansnr::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

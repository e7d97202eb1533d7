// The "float_psnr" family: PSNR of the luma computed in float, in 8-bit
// units (libvmaf feature/float_psnr.c). One output, float_psnr. At 8 bits it
// equals psnr_y of the "psnr" family; at other depths its peak is in 8-bit
// units (e.g. 255.75 at 10 bits) rather than 2^bpc - 1.
//
// Bit depths: libvmaf accepts 8, 10, 12 and 16 bits and refuses the others
// at init(); VQX computes every depth from 8 to 16 (params.hpp).
#include <array>
#include <string>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/float_psnr/cpu.hpp"
#include "metrics/float_psnr/gpu.hpp"
#include "metrics/float_psnr/score.hpp"

namespace vqx {

namespace {

class FloatPsnrExtractor final : public Extractor {
 public:
  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_psnr", initialised_, fmt_, FormatMatch::kExact,
                                            ref, dist, index));
    const double sum = float_psnr::squared_difference_sum(ref.plane(0), dist.plane(0), fmt_.bpc);
    out.write(0, index, float_psnr::score(sum, fmt_));
    return Status::Ok();
  }

 private:
  PictureFormat fmt_;
  bool initialised_ = false;
};

constexpr std::array<FeatureAlias, 1> kProvides = {{
    // float_psnr.c provided_features.
    {"float_psnr", "float_psnr"},
}};

// Outputs in slot order.
constexpr std::array<OutputDef, 1> kOutputs = {{
    {"float_psnr"},
}};

}  // namespace

const ExtractorFamily& float_psnr_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_psnr",
      .outputs = kOutputs,
      .provides = kProvides,
      // float_psnr.c declares no options.
      .luma_only = true,
      .bind = bind_family<NoParams, read_no_params, FloatPsnrExtractor,
                          VQX_TWIN(&float_psnr::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

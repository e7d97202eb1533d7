// The "float_ansnr" family: ANSNR and ANPSNR of the luma (libvmaf
// feature/float_ansnr.c, ansnr.c). Outputs, in libvmaf's order: float_ansnr,
// float_anpsnr. See params.hpp for the measure.
//
// Bit depths: libvmaf accepts 8, 10, 12 and 16 bits and refuses the others
// at init(); VQX computes every depth from 8 to 16 (float_psnr/params.hpp).
// Sizes: at least 3x3 (params.hpp, kMinDimension); smaller pictures are
// refused with an error, where libvmaf would read outside the picture.
#include <array>
#include <cmath>
#include <new>
#include <optional>
#include <string>

#include "metrics/ansnr/cpu.hpp"
#include "metrics/ansnr/params.hpp"
#include "metrics/families.hpp"
#include "metrics/float_psnr/params.hpp"

namespace vqx {

namespace {

enum Slot : std::size_t { kAnsnr, kAnpsnr };

class AnsnrExtractor final : public Extractor {
 public:
  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    if (fmt.width < ansnr::kMinDimension || fmt.height < ansnr::kMinDimension) {
      return Error(Errc::kUnsupported, "float_ansnr: picture " + std::to_string(fmt.width) + "x" +
                                           std::to_string(fmt.height) + " is too small (at least " +
                                           std::to_string(ansnr::kMinDimension) + "x" +
                                           std::to_string(ansnr::kMinDimension) + " is needed)");
    }
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
    const ansnr::Energies e = kernel_->compute(ref.plane(0), dist.plane(0), fmt_.bpc);
    const double peak = float_psnr::peak(fmt_.bpc);
    const double cap = float_psnr::psnr_max(fmt_.bpc);

    // ansnr.c compute_ansnr(): the ratio is a float division; the noise
    // floor and the products are in double, left to right.
    const double ansnr =
        e.noise == 0 ? cap : 10.0 * std::log10(static_cast<double>(e.signal / e.noise));
    const double noise = e.noise;
    const double floored = noise > float_psnr::kNoiseFloor ? noise : float_psnr::kNoiseFloor;
    const double anpsnr = 10 * std::log10(peak * peak * static_cast<double>(fmt_.width) *
                                          static_cast<double>(fmt_.height) / floored);
    out.write(kAnsnr, index, ansnr);
    out.write(kAnpsnr, index, anpsnr < cap ? anpsnr : cap);
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
      .bind = bind_family<NoParams, read_no_params, AnsnrExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

// The "ssim" extractor family: integer SSIM of the luma (libvmaf
// feature/integer_ssim.c, which libvmaf's source carries but does not
// register; docs/metrics.md). One output per frame, "ssim". No options:
// libvmaf's extractor has none, and an option given to it is refused as
// unknown (the option table is empty), where libvmaf would ignore it.
// Its GPU twin is gpu.cu (docs/gpu.md).
#include <array>
#include <new>
#include <string>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/integer_ssim/cpu.hpp"
#include "metrics/integer_ssim/gpu.hpp"
#include "metrics/integer_ssim/params.hpp"

namespace vqx {

namespace {

constexpr const char* kName = "ssim";

class IntegerSsimExtractor final : public Extractor {
 public:
  Status init(const PictureFormat& fmt) override {
    initialised_ = false;
    VQX_RETURN_IF_ERROR(validate(fmt));
    try {
      scorer_.init(static_cast<int>(fmt.width), static_cast<int>(fmt.height));
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, std::string(kName) + ": out of memory for a " +
                                     std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                                     " picture");
    }
    fmt_ = fmt;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input(kName, initialised_, fmt_, FormatMatch::kLuma, ref, dist, index));
    out.write(0, index, scorer_.score(ref.plane(0), dist.plane(0), fmt_.bpc));
    return Status::Ok();
  }

 private:
  integer_ssim::Scorer scorer_;
  PictureFormat fmt_;
  bool initialised_ = false;
};

// The one output. Not offered to models under any name: integer_ssim.c
// lists "ssim" as its provided feature, but libvmaf does not register the
// extractor, so no libvmaf model can name it (tests/unit/family_test.cpp
// holds provided names to libvmaf's table).
constexpr std::array<OutputDef, 1> kOutputs = {{{"ssim"}}};

}  // namespace

const ExtractorFamily& integer_ssim_family() {
  static const ExtractorFamily kFamily = {
      .name = kName,
      .outputs = kOutputs,
      .luma_only = true,
      .bind = bind_family<NoParams, read_no_params, IntegerSsimExtractor,
                          VQX_TWIN(&integer_ssim::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

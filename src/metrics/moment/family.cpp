// The "float_moment" family: the first and second moments (mean and mean
// square) of the reference and distorted lumas, in 8-bit units (libvmaf
// feature/float_moment.c and moment.c).
//
// Outputs, in libvmaf's order: float_moment_ref1st, float_moment_dis1st,
// float_moment_ref2nd, float_moment_dis2nd.
//
// Bit depths: libvmaf converts 10, 12 and 16 bits to 8-bit units and any
// other depth as if its samples were bytes (picture_copy.c), which reads the
// 16-bit samples of 9, 11 and 13..15-bit pictures as pairs of bytes; VQX
// converts every depth from 8 to 16 to 8-bit units (v / 2^(bpc-8)).
#include <array>
#include <string>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/moment/cpu.hpp"
#include "metrics/moment/gpu.hpp"
#include "metrics/moment/score.hpp"

namespace vqx {

namespace {

class MomentExtractor final : public Extractor {
 public:
  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("float_moment", initialised_, fmt_, FormatMatch::kExact,
                                            ref, dist, index));
    const moment::Sums r = moment::plane_sums(ref.plane(0), fmt_.bpc);
    const moment::Sums d = moment::plane_sums(dist.plane(0), fmt_.bpc);
    moment::write_scores(r, d, fmt_, index, out);
    return Status::Ok();
  }

 private:
  PictureFormat fmt_;
  bool initialised_ = false;
};

constexpr std::array<FeatureAlias, 1> kProvides = {{
    // float_moment.c provides "float_moment", a name none of its outputs
    // has; a model asking for it fails, in libvmaf as here.
    {"float_moment", "float_moment"},
}};

// Outputs in slot order.
constexpr std::array<OutputDef, 4> kOutputs = {{
    {"float_moment_ref1st"},
    {"float_moment_dis1st"},
    {"float_moment_ref2nd"},
    {"float_moment_dis2nd"},
}};

}  // namespace

const ExtractorFamily& float_moment_family() {
  static const ExtractorFamily kFamily = {
      .name = "float_moment",
      .outputs = kOutputs,
      .provides = kProvides,
      // float_moment.c declares no options.
      .luma_only = true,
      .bind = bind_family<NoParams, read_no_params, MomentExtractor, VQX_TWIN(&moment::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

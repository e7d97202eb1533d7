// The "ciede" extractor family (libvmaf's feature/ciede.c): one output,
// ciede2000, per frame. No options.
//
// Accepted pictures: 4:2:0, 4:2:2 and 4:4:4 at 8 to 16 bits. libvmaf takes
// 8, 10, 12 and 16 bits only, but its conversion scales by 2^(bpc - 8) at
// any depth, so VQX computes 9, 11 and 13 to 15 bits the same way. 4:0:0 is
// refused, as by libvmaf: a luma-only picture has no colour. 4:2:2 chroma is
// read with libvmaf's addressing (cpu.cpp), so the scores are libvmaf's.
#include <array>
#include <memory>
#include <string>

#include "core/twin_ref.hpp"
#include "metrics/ciede/cpu.hpp"
#include "metrics/ciede/gpu.hpp"
#include "metrics/families.hpp"

namespace vqx {

namespace {

class CiedeExtractor final : public Extractor {
 public:
  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(kernel_.init(fmt));
    fmt_ = fmt;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("ciede", initialised_, fmt_, FormatMatch::kExact, ref, dist, index));
    out.write(0, index, kernel_.score(ref, dist));
    return Status::Ok();
  }

 private:
  ciede::FrameKernel kernel_;
  PictureFormat fmt_;
  bool initialised_ = false;
};

// libvmaf provided_features; no alias in feature/alias.c.
constexpr std::array<FeatureAlias, 1> kProvides = {{{"ciede2000", "ciede2000"}}};

// Outputs in slot order.
constexpr std::array<OutputDef, 1> kOutputs = {{
    {"ciede2000"},
}};

}  // namespace

const ExtractorFamily& ciede_family() {
  static const ExtractorFamily kFamily = {
      .name = "ciede",
      .outputs = kOutputs,
      .provides = kProvides,
      .chroma = {ChromaRule::kAlways},
      // libvmaf's ciede has no options: any key given is refused.
      .bind = bind_family<NoParams, read_no_params, CiedeExtractor, VQX_TWIN(&ciede::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

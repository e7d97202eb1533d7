// The "psnr" family: integer PSNR of luma and chroma (libvmaf
// feature/integer_psnr.c), with the optional per-plane mse and the
// whole-video aggregate PSNR (apsnr).
//
// Outputs, in libvmaf's order: psnr_y, [mse_y,] psnr_cb, [mse_cb,] psnr_cr,
// [mse_cr]; the chroma ones only with enable_chroma (the default). A 4:0:0
// picture has no chroma, so there only psnr_y (and mse_y) is written, as in
// libvmaf, whose init() turns enable_chroma off for YUV400.
//
// With enable_apsnr the extractor is temporal: libvmaf's psnr extractor is
// temporal, so with frame subsampling it still sees every frame, and apsnr
// sums the SSE of every frame, sampled or not. It then writes three
// aggregates at flush(): apsnr_y, apsnr_cb, apsnr_cr, always all three as
// libvmaf does (a plane never measured, i.e. chroma of 4:0:0 or with
// enable_chroma=false, gets libvmaf's value, -infinity). Without apsnr the
// per-frame values do not depend on other frames, so the extractor is plain
// and frames run in parallel.
//
// Bit depths: libvmaf computes 8, 10, 12 and 16 bits and fails the frame at
// other depths; VQX computes every depth from 8 to 16 with the same
// formulas (peak 2^bpc - 1, cap 6 * bpc + 12).
#include <array>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/psnr/cpu.hpp"
#include "metrics/psnr/params.hpp"
#include "metrics/psnr/score.hpp"

namespace vqx {

namespace {

using psnr::Params;

constexpr std::array<const char*, 3> kPsnrNames = {"psnr_y", "psnr_cb", "psnr_cr"};
constexpr std::array<const char*, 3> kMseNames = {"mse_y", "mse_cb", "mse_cr"};
constexpr std::array<const char*, 3> kApsnrNames = {"apsnr_y", "apsnr_cb", "apsnr_cr"};

class PsnrExtractor final : public Extractor {
 public:
  explicit PsnrExtractor(const Params& params)
      : params_(params), slots_per_plane_(params.enable_mse ? 2 : 1) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    planes_ = params_.enable_chroma && fmt.chroma != ChromaFormat::k400 ? 3 : 1;
    peak_ = psnr::peak(fmt.bpc, params_.reduced_hbd_peak);
    for (unsigned p = 0; p < 3; ++p) {
      cap_[p] = psnr::psnr_max(fmt, p, peak_, params_.min_sse);
    }
    sse_total_ = {};
    pixels_total_ = {};
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    if (!initialised_) {
      return Error(Errc::kInternal, "psnr: extract() before init()");
    }
    if (!(ref.format() == fmt_) || !(dist.format() == fmt_)) {
      return Error(Errc::kMismatch, "psnr: frame " + std::to_string(index) +
                                        " differs in format from the one given to init()");
    }
    for (unsigned p = 0; p < planes_; ++p) {
      const Plane& a = ref.plane(p);
      const std::uint64_t sse = psnr::plane_sse(a, dist.plane(p), fmt_.bpc);
      const psnr::PlaneScore s = psnr::plane_score(sse, a.width(), a.height(), peak_, cap_[p]);
      const std::size_t slot = std::size_t{p} * slots_per_plane_;
      out.write(slot, index, s.psnr);
      if (params_.enable_mse) {
        out.write(slot + 1, index, s.mse);
      }
      if (params_.enable_apsnr) {
        sse_total_[p] += sse;
        pixels_total_[p] += std::uint64_t{a.width()} * a.height();
      }
    }
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    if (!initialised_ || !params_.enable_apsnr) {
      return Status::Ok();
    }
    for (unsigned p = 0; p < 3; ++p) {
      out.write_aggregate(p, psnr::aggregate_psnr(sse_total_[p], pixels_total_[p], peak_));
    }
    return Status::Ok();
  }

 private:
  Params params_;
  std::size_t slots_per_plane_;
  PictureFormat fmt_;
  unsigned planes_ = 1;
  std::uint32_t peak_ = 0;
  std::array<double, 3> cap_{};
  // apsnr: SSE and pixel count of each plane over every frame so far.
  std::array<std::uint64_t, 3> sse_total_{};
  std::array<std::uint64_t, 3> pixels_total_{};
  bool initialised_ = false;
};

constexpr std::array<FeatureAlias, 3> kProvides = {{
    // integer_psnr.c provided_features (no aliases in feature/alias.c).
    {"psnr_y", "psnr_y"},
    {"psnr_cb", "psnr_cb"},
    {"psnr_cr", "psnr_cr"},
}};

Expected<ExtractorSpec> make_psnr_spec(const OptionMap& options) {
  VQX_ASSIGN_OR_RETURN(OptionSet set, OptionSet::parse("psnr", psnr::option_defs(), options));
  Params p;
  p.enable_chroma = set.get_bool("enable_chroma");
  p.enable_mse = set.get_bool("enable_mse");
  p.enable_apsnr = set.get_bool("enable_apsnr");
  p.reduced_hbd_peak = set.get_bool("reduced_hbd_peak");
  p.min_sse = set.get_double("min_sse");

  // Same order as the slots: per plane, psnr then mse.
  std::vector<const char*> bases;
  const unsigned planes = p.enable_chroma ? 3 : 1;
  for (unsigned i = 0; i < planes; ++i) {
    bases.push_back(kPsnrNames[i]);
    if (p.enable_mse) {
      bases.push_back(kMseNames[i]);
    }
  }

  ExtractorSpec spec;
  spec.family = "psnr";
  spec.key = "psnr:" + set.canonical();
  spec.temporal = p.enable_apsnr;
  spec.outputs = outputs_with_suffix(bases, set.name_suffix());
  if (p.enable_apsnr) {
    spec.aggregates = outputs_with_suffix(kApsnrNames, set.name_suffix());
  }
  spec.make = [p]() -> std::unique_ptr<Extractor> { return std::make_unique<PsnrExtractor>(p); };
  return spec;
}

}  // namespace

const ExtractorFamily& psnr_family() {
  static const ExtractorFamily kFamily = {"psnr", kProvides, &make_psnr_spec};
  return kFamily;
}

}  // namespace vqx

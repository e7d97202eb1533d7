// The "psnr" family: integer PSNR of luma and chroma (libvmaf
// feature/integer_psnr.c), with the optional per-plane mse and the
// whole-video aggregate PSNR (apsnr).
//
// Outputs, in libvmaf's order: psnr_y, [mse_y,] psnr_cb, [mse_cb,] psnr_cr,
// [mse_cr]; the chroma ones only with enable_chroma (the default). Given a
// 4:0:0 picture the extractor writes only psnr_y (and mse_y), as libvmaf's
// init() turns enable_chroma off for YUV400; but since it reads chroma with
// enable_chroma, the context gives it a 4:0:0 video as 4:2:0 with neutral
// chroma (engine/neutral_chroma.hpp), so all three are written then.
//
// With enable_apsnr the extractor is temporal: libvmaf's psnr extractor is
// temporal, so with frame subsampling it still sees every frame, and apsnr
// sums the SSE of every frame, sampled or not. It then writes three
// aggregates at flush(): apsnr_y, apsnr_cb, apsnr_cr, always all three as
// libvmaf does (a plane never measured, i.e. chroma of 4:0:0 or with
// enable_chroma=false, gets libvmaf's value, -infinity). Without apsnr the
// per-frame values do not depend on other frames, so the extractor is plain
// and frames run in parallel. With it, the extractor's two stages
// (core/extractor.hpp, TemporalStages) keep the frames parallel all the
// same: prepare() computes a frame's SSEs (all the work) on any thread in
// any order, finish() adds them to the sums and writes the values, in
// order (the sums are integers, so the order is not what matters: seeing
// each frame once is).
//
// Bit depths: libvmaf computes 8, 10, 12 and 16 bits and fails the frame at
// other depths; VQX computes every depth from 8 to 16 with the same
// formulas (peak 2^bpc - 1, cap 6 * bpc + 12).
#include <array>
#include <string>
#include <vector>

#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/psnr/cpu.hpp"
#include "metrics/psnr/gpu.hpp"
#include "metrics/psnr/params.hpp"
#include "metrics/psnr/series.hpp"

namespace vqx {

namespace {

using psnr::Params;

class PsnrExtractor final : public Extractor, public TemporalStages {
 public:
  explicit PsnrExtractor(const Params& params) : staged_(params.enable_apsnr), series_(params) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    fmt_ = fmt;
    series_.start(fmt);
    for (unsigned p = 0; p < fmt.plane_count(); ++p) {
      width_[p] = fmt.plane_width(p);
      height_[p] = fmt.plane_height(p);
    }
    ring_.assign(1, {});
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(
        check_extract_input("psnr", initialised_, fmt_, FormatMatch::kExact, ref, dist, index));
    std::array<std::uint64_t, 3> sse{};
    measure(ref, dist, sse);
    series_.add(index, sse, width_, height_, out);
    return Status::Ok();
  }

  Status flush(FeatureWriter& out) override {
    if (initialised_) series_.flush(out);
    return Status::Ok();
  }

  // Temporal (with enable_apsnr) in two stages.
  TemporalStages* stages() override { return staged_ ? this : nullptr; }
  [[nodiscard]] unsigned history() const override { return 0; }

  Status reserve(unsigned entries, unsigned /*lanes*/) override {
    ring_.assign(entries, {});
    return Status::Ok();
  }

  Status prepare(const FrameWindow& w, unsigned /*lane*/) override {
    VQX_RETURN_IF_ERROR(check_extract_input("psnr", initialised_, fmt_, FormatMatch::kExact,
                                            *w.ref[0], *w.dist[0], w.index));
    measure(*w.ref[0], *w.dist[0], ring_[w.index % ring_.size()]);
    return Status::Ok();
  }

  Status finish(unsigned index, FeatureWriter& out) override {
    series_.add(index, ring_[index % ring_.size()], width_, height_, out);
    return Status::Ok();
  }

 private:
  // The SSE of each measured plane.
  void measure(const Picture& ref, const Picture& dist, std::array<std::uint64_t, 3>& sse) const {
    for (unsigned p = 0; p < series_.planes(); ++p) {
      sse[p] = psnr::plane_sse(ref.plane(p), dist.plane(p), fmt_.bpc);
    }
  }

  bool staged_;          // temporal: enable_apsnr
  psnr::Series series_;  // values and aggregates from the SSEs
  PictureFormat fmt_;
  std::array<unsigned, 3> width_{};  // of each plane
  std::array<unsigned, 3> height_{};
  std::vector<std::array<std::uint64_t, 3>> ring_;  // frame i's SSEs at i % size
  bool initialised_ = false;
};

// Outputs in slot order: per plane, psnr then mse.
constexpr std::array<OutputDef, 6> kOutputs = {{
    {"psnr_y"},
    {.base = "mse_y", .when = {"enable_mse"}},
    {.base = "psnr_cb", .when = {"enable_chroma"}},
    {.base = "mse_cb", .when = {"enable_chroma", "enable_mse"}},
    {.base = "psnr_cr", .when = {"enable_chroma"}},
    {.base = "mse_cr", .when = {"enable_chroma", "enable_mse"}},
}};
constexpr std::array<OutputDef, 3> kAggregates = {{
    {.base = "apsnr_y", .when = {"enable_apsnr"}},
    {.base = "apsnr_cb", .when = {"enable_apsnr"}},
    {.base = "apsnr_cr", .when = {"enable_apsnr"}},
}};

constexpr std::array<FeatureAlias, 3> kProvides = {{
    // integer_psnr.c provided_features (no aliases in feature/alias.c).
    {"psnr_y", "psnr_y"},
    {"psnr_cb", "psnr_cb"},
    {"psnr_cr", "psnr_cr"},
}};

Expected<Params> read_params(const OptionSet& set) {
  Params p;
  p.enable_chroma = set.get_bool("enable_chroma");
  p.enable_mse = set.get_bool("enable_mse");
  p.enable_apsnr = set.get_bool("enable_apsnr");
  p.reduced_hbd_peak = set.get_bool("reduced_hbd_peak");
  p.min_sse = set.get_double("min_sse");
  return p;
}

}  // namespace

const ExtractorFamily& psnr_family() {
  static const ExtractorFamily kFamily = {
      .name = "psnr",
      .options = psnr::option_defs(),
      .outputs = kOutputs,
      .aggregates = kAggregates,
      .provides = kProvides,
      // libvmaf's psnr is temporal; only apsnr needs it (see the top).
      .temporal = {TemporalRule::kWhenSet, "enable_apsnr"},
      .chroma = {ChromaRule::kWhenSet, "enable_chroma"},
      .bind = bind_family<Params, read_params, PsnrExtractor, VQX_TWIN(&psnr::make_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

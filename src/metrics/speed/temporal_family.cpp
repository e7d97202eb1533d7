// The "speed_temporal" extractor family (libvmaf speed.c,
// vmaf_fex_speed_temporal): SpEED of the frame differences of the luma.
//
// Frame 0 scores 0. Frame i > 0 scores the reference difference
// ref[i-1] - ref[i] against the distorted difference dis[i-1] - dis[i] (or,
// with speed_use_ref_diff, dis[i-1] - ref[i]). The score is written as it is:
// libvmaf's speed_temporal has a speed_max_val option (it names the outputs)
// but never applies it, and it never uses a weight_var_mode (always 0).
//
// The two stages (core/extractor.hpp, TemporalStages): frame i's score is
// a function of the pictures of frames i - 1 and i alone, so prepare(i)
// computes it (all the work) on any thread in any order, with a scorer of
// its lane's, into the ring; finish(i) writes it, in order.
#include <array>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/sequential_stages.hpp"
#include "core/twin_ref.hpp"
#include "metrics/families.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gpu.hpp"
#include "metrics/speed/outputs.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/rows.hpp"
#include "metrics/speed/score.hpp"

namespace vqx {

namespace {

using speed::Params;

speed::PlaneRef ref_of(const Plane& p) { return {p.data(), p.stride_bytes()}; }

// A lane: a scorer and the row sources it reads.
struct Lane {
  speed::SpeedScorer scorer;
  speed::PlaneRows ref_rows;
  speed::PlaneRows dis_rows;
};

class SpeedTemporalExtractor final : public Extractor, public TemporalStages {
 public:
  explicit SpeedTemporalExtractor(const Params& p) : params_(p) {}

  Status init(const PictureFormat& fmt) override {
    VQX_ASSIGN_OR_RETURN(geometry_, speed::temporal_geometry(fmt, params_));
    fmt_ = fmt;
    try {
      VQX_RETURN_IF_ERROR(sequential_.init(fmt, history()));
      allocate(1, 1);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "speed_temporal: out of memory for a " +
                                     std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                                     " picture");
    }
    frames_ = 0;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("speed_temporal", initialised_, fmt_,
                                            FormatMatch::kExact, ref, dist, index));
    VQX_RETURN_IF_ERROR(check_frame_order("speed_temporal", index, frames_));
    return sequential_.run(*this, ref, dist, index, out);
  }

  TemporalStages* stages() override { return this; }
  // Frame i compares frame i - 1 with frame i.
  [[nodiscard]] unsigned history() const override { return 1; }

  Status reserve(unsigned entries, unsigned lanes) override {
    try {
      allocate(entries, lanes);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "speed_temporal: out of memory for " + std::to_string(lanes) +
                                     " scorers of " + std::to_string(fmt_.width) + "x" +
                                     std::to_string(fmt_.height) + " pictures");
    }
    sequential_.release();
    return Status::Ok();
  }

  Status prepare(const FrameWindow& w, unsigned lane) override {
    VQX_RETURN_IF_ERROR(check_extract_input("speed_temporal", initialised_, fmt_,
                                            FormatMatch::kExact, *w.ref[0], *w.dist[0], w.index));
    speed::ScoreResult score;
    if (w.index > 0) {
      if (w.ref[1] == nullptr) {
        return Error(Errc::kInternal, "speed_temporal: frame " + std::to_string(w.index) +
                                          " came without the frame before it");
      }
      Lane& l = lanes_[lane];
      const Plane& cur_ref = w.ref[0]->plane(0);
      const Plane& cur_dis = w.dist[0]->plane(0);
      l.ref_rows.set(ref_of(w.ref[1]->plane(0)), ref_of(cur_ref));
      l.dis_rows.set(ref_of(w.dist[1]->plane(0)), ref_of(params_.use_ref_diff ? cur_ref : cur_dis));
      score = l.scorer.score(l.ref_rows, l.dis_rows);
    }
    ring_[w.index % ring_.size()] = score;
    return Status::Ok();
  }

  Status finish(unsigned index, FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_frame_order("speed_temporal", index, frames_));
    speed::write_temporal(index, ring_[index % ring_.size()], out);
    ++frames_;
    return Status::Ok();
  }

 private:
  void allocate(unsigned entries, unsigned lanes) {
    ring_.assign(entries, speed::ScoreResult{});
    lanes_.resize(lanes);
    for (Lane& l : lanes_) {
      l.scorer.init(geometry_, params_, 0);
      l.ref_rows.init(fmt_.width, fmt_.bpc);
      l.dis_rows.init(fmt_.width, fmt_.bpc);
    }
  }

  Params params_;
  PictureFormat fmt_;
  speed::Geometry geometry_;
  SequentialStages sequential_;           // extract()'s copy of the previous frame
  std::vector<speed::ScoreResult> ring_;  // frame i's score at i % size
  std::vector<Lane> lanes_;
  unsigned frames_ = 0;  // frames finished so far = next index expected
  bool initialised_ = false;
};

constexpr std::array<OutputDef, 1> kOutputs = {{{"speed_temporal"}}};

constexpr std::array<FeatureAlias, 1> kProvides = {{
    // libvmaf feature/alias.c and speed.c, provided_features[].
    {"Speed_temporal_feature_speed_temporal_score", "speed_temporal"},
}};

Expected<Params> read_params(const OptionSet& set) {
  VQX_ASSIGN_OR_RETURN(Params p, speed::read_common(set, "speed_temporal"));
  p.use_ref_diff = set.get_bool("speed_use_ref_diff");
  return p;
}

// Frame i's score reads the pictures of frames i - 1 and i alone.
TemporalReach reach(const OptionSet& /*options*/) { return {.before = 1, .after = 0}; }

}  // namespace

const ExtractorFamily& speed_temporal_family() {
  static const ExtractorFamily kFamily = {
      .name = "speed_temporal",
      .options = speed::temporal_option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      .temporal = {TemporalRule::kAlways},
      .reach = reach,
      .bind = bind_family<Params, read_params, SpeedTemporalExtractor,
                          VQX_TWIN(&speed::make_temporal_twin)>,
  };
  return kFamily;
}

}  // namespace vqx

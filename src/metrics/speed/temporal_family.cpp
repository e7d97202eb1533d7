// The "speed_temporal" extractor family (libvmaf speed.c,
// vmaf_fex_speed_temporal): SpEED of the frame differences of the luma.
//
// Frame 0 scores 0. Frame i > 0 scores the reference difference
// ref[i-1] - ref[i] against the distorted difference dis[i-1] - dis[i] (or,
// with speed_use_ref_diff, dis[i-1] - ref[i]). The score is written as it is:
// libvmaf's speed_temporal has a speed_max_val option (it names the outputs)
// but never applies it, and it never uses a weight_var_mode (always 0).
#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/rows.hpp"
#include "metrics/speed/score.hpp"

namespace vqx {

namespace {

using speed::Params;

// Copies the rows of `from` marked in `rows` (the rest are never read).
void copy_rows(const Plane& from, const std::vector<char>& rows, Plane& to) {
  const std::size_t row_bytes = std::size_t{from.width()} * from.bytes_per_sample();
  for (unsigned y = 0; y < from.height(); ++y) {
    if (rows[y] != 0) {
      std::memcpy(to.row<std::uint8_t>(y), from.row<std::uint8_t>(y), row_bytes);
    }
  }
}

speed::PlaneRef ref_of(const Plane& p) { return {p.data(), p.stride_bytes()}; }

class SpeedTemporalExtractor final : public Extractor {
 public:
  explicit SpeedTemporalExtractor(const Params& p) : params_(p) {}

  Status init(const PictureFormat& fmt) override {
    VQX_RETURN_IF_ERROR(validate(fmt));
    VQX_ASSIGN_OR_RETURN(
        const speed::Geometry g,
        speed::make_geometry(fmt.width, fmt.height, params_, "speed_temporal: the luma planes"));
    try {
      scorer_.init(g, params_, 0);
      prev_ref_ = Plane(fmt.width, fmt.height, fmt.bytes_per_sample());
      prev_dis_ = Plane(fmt.width, fmt.height, fmt.bytes_per_sample());
      rows_read_.assign(fmt.height, 0);
      scorer_.mark_rows_read(rows_read_);
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "speed_temporal: out of memory for a " +
                                     std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                                     " picture");
    }
    ref_rows_.init(fmt.width, fmt.bpc);
    dis_rows_.init(fmt.width, fmt.bpc);
    fmt_ = fmt;
    frames_ = 0;
    initialised_ = true;
    return Status::Ok();
  }

  Status extract(const Picture& ref, const Picture& dist, unsigned index,
                 FeatureWriter& out) override {
    VQX_RETURN_IF_ERROR(check_extract_input("speed_temporal", initialised_, fmt_,
                                            FormatMatch::kExact, ref, dist, index));
    VQX_RETURN_IF_ERROR(check_frame_order("speed_temporal", index, frames_));
    const Plane& cur_ref = ref.plane(0);
    const Plane& cur_dis = dist.plane(0);
    double score = 0.0;
    if (index > 0) {
      ref_rows_.set(ref_of(prev_ref_), ref_of(cur_ref));
      dis_rows_.set(ref_of(prev_dis_), ref_of(params_.use_ref_diff ? cur_ref : cur_dis));
      score = scorer_.score(ref_rows_, dis_rows_).score;
    }
    out.write(0, index, score);
    copy_rows(cur_ref, rows_read_, prev_ref_);
    copy_rows(cur_dis, rows_read_, prev_dis_);
    ++frames_;
    return Status::Ok();
  }

 private:
  Params params_;
  PictureFormat fmt_;
  speed::SpeedScorer scorer_;
  Plane prev_ref_;  // luma of the previous frame (the rows SpEED reads)
  Plane prev_dis_;
  std::vector<char> rows_read_;
  speed::PlaneRows ref_rows_;
  speed::PlaneRows dis_rows_;
  unsigned frames_ = 0;  // frames extracted so far = next index expected
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

}  // namespace

const ExtractorFamily& speed_temporal_family() {
  static const ExtractorFamily kFamily = {
      .name = "speed_temporal",
      .options = speed::temporal_option_defs(),
      .outputs = kOutputs,
      .provides = kProvides,
      .temporal = {TemporalRule::kAlways},
      .bind = bind_family<Params, read_params, SpeedTemporalExtractor>,
  };
  return kFamily;
}

}  // namespace vqx

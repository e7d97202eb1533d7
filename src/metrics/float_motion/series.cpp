#include "metrics/float_motion/series.hpp"

namespace vqx::float_motion {

namespace {

// min(x, limit) as libvmaf's MIN macro: x unless limit is smaller.
double clip_max(double x, double limit) { return x < limit ? x : limit; }

// libvmaf motion_blend_tools.h, motion_blend().
double blend(double score, double factor, double offset) {
  return score * factor + (1 - factor) * clip_max(offset, score);
}

}  // namespace

// Output slots: motion (only with debug), motion2, motion3.
Series::Series(const Params& p)
    : params_(p), motion_(0), motion2_(p.debug ? 1 : 0), motion3_(p.debug ? 2 : 1) {}

void Series::reset() {
  frames_ = 0;
  last_score_ = 0.0;
}

void Series::add(unsigned index, double score, FeatureWriter& out) {
  ++frames_;
  if (params_.force_zero) {
    // libvmaf writes zeros for every frame and nothing at the end.
    out.write(motion2_, index, 0.0);
    out.write(motion3_, index, 0.0);
    if (params_.debug) out.write(motion_, index, 0.0);
    return;
  }
  if (index == 0) {
    out.write(motion2_, 0, 0.0);
    if (params_.debug) out.write(motion_, 0, 0.0);
    return;
  }
  if (params_.debug) out.write(motion_, index, clip(score));
  if (index == 1) {
    out.write(motion3_, 0, clip_max(weighted_blend(score), params_.max_val));
  } else {
    const double m2 = last_score_ < score ? last_score_ : score;
    write_motion2_3(index - 1, m2, out);
  }
  last_score_ = score;
}

void Series::flush(FeatureWriter& out) {
  if (params_.force_zero || frames_ == 0) return;
  if (frames_ == 1) {
    out.write(motion3_, 0, 0.0);
  } else {
    write_motion2_3(frames_ - 1, last_score_, out);
  }
}

double Series::clip(double score) const {
  return clip_max(score * params_.fps_weight, params_.max_val);
}

double Series::weighted_blend(double score) const {
  return blend(score * params_.fps_weight, params_.blend_factor, params_.blend_offset);
}

void Series::write_motion2_3(unsigned frame, double m2, FeatureWriter& out) const {
  out.write(motion2_, frame, clip(m2));
  out.write(motion3_, frame, clip_max(weighted_blend(m2), params_.max_val));
}

}  // namespace vqx::float_motion

// Integer motion's temporal bookkeeping (see series.hpp and the rules at the
// top of extractor.cpp).
#include "metrics/motion/series.hpp"

namespace vqx::motion {

namespace {

// libvmaf motion_blend_tools.h, motion_blend(): blends the score towards
// min(offset, score) with weight 1 - factor. MIN there is `a < b ? a : b`.
double blend(double score, double factor, double offset) {
  const double floor_part = offset < score ? offset : score;
  return score * factor + (1 - factor) * floor_part;
}

double clip_max(double v, double max_val) { return v < max_val ? v : max_val; }

}  // namespace

Slots slots_for(const Params& p) {
  Slots s;
  std::size_t next = 0;
  s.sad = next++;
  if (p.debug) {
    s.debug_motion = next++;
  }
  s.motion2 = next++;
  s.motion3 = next++;
  return s;
}

double sad_score(std::uint64_t sum, unsigned width, unsigned height, const Params& p) {
  const unsigned pixels = width * height;
  return clip_max(static_cast<double>(sum) / kSadDivisor / static_cast<double>(pixels) *
                      p.fps_weight,
                  p.max_val);
}

Series::Series(const Params& params)
    : params_(params), slots_(slots_for(params)), lag_(params.lag()) {}

void Series::reset() {
  frames_ = 0;
  recent_sad_ = {0.0, 0.0};
  prev_processed_ = 0.0;
  flushed_ = false;
}

void Series::add(unsigned index, double sad, FeatureWriter& out) {
  out.write(slots_.sad, index, sad);
  if (params_.debug) {
    out.write(slots_.debug_motion, index, sad);
  }

  if (index == lag_) {
    // The first SAD score fixes motion3 of the frames before it.
    const double stamp =
        clip_max(blend(sad, params_.blend_factor, params_.blend_offset), params_.max_val);
    for (unsigned i = 0; i < lag_; ++i) {
      out.write(slots_.motion2, i, 0.0);
      out.write(slots_.motion3, i, stamp);
    }
    prev_processed_ = stamp;
  } else if (index > lag_) {
    // Frame index - 1 now has its successor's score.
    const unsigned t = index - 1;
    const bool low_has_score = t + 1 >= 2 * lag_;  // t - (lag - 1) >= lag
    double m2 = sad;
    if (low_has_score) {
      const double low = lag_ == 1 ? recent_sad_[0] : recent_sad_[1];
      m2 = low < sad ? low : sad;
    }
    finish_frame(t, m2, out);
  }

  recent_sad_[1] = recent_sad_[0];
  recent_sad_[0] = sad;
  ++frames_;
}

void Series::flush(FeatureWriter& out) {
  if (flushed_) {
    return;
  }
  flushed_ = true;
  if (frames_ <= lag_) {
    // No frame had a SAD score: motion2 and motion3 (the stamp) are 0.
    for (unsigned i = 0; i < frames_; ++i) {
      out.write(slots_.motion2, i, 0.0);
      out.write(slots_.motion3, i, 0.0);
    }
  } else {
    // The last frame has no successor: its motion2 is its own score.
    finish_frame(frames_ - 1, recent_sad_[0], out);
  }
}

// Writes motion2 of frame t >= lag, and its motion3.
void Series::finish_frame(unsigned t, double m2, FeatureWriter& out) {
  out.write(slots_.motion2, t, m2);
  const double processed =
      clip_max(blend(m2, params_.blend_factor, params_.blend_offset), params_.max_val);
  const double m3 = params_.moving_average ? (processed + prev_processed_) / 2.0 : processed;
  prev_processed_ = processed;
  out.write(slots_.motion3, t, m3);
}

}  // namespace vqx::motion

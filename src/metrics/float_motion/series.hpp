// What float motion writes, and when (libvmaf float_motion.c extract() and
// flush(), motion.c compute_motion()), from the per-frame scores: shared by
// the CPU extractor (family.cpp) and the GPU twin (gpu.cu), so that both
// write the same values at the same moments.
//
// Frame t's score s(t) compares the blurred luma (and chroma, with
// motion_add_uv) of frames t and t - 1. motion(t) = clip(s(t)), motion(0) =
// 0. motion2(0) = 0; motion2(t) = clip(min(s(t), s(t + 1))) for 0 < t <
// last, and clip(s(last)) for the last frame. motion3(t) =
// clip(blend(that motion2's unclipped value)) for t >= 1, motion3(0) =
// clip(blend(s(1))), and 0 for a one-frame video. clip(x) = min(x *
// fps_weight, max_val), blend as libvmaf's motion_blend().
#pragma once

#include "core/extractor.hpp"
#include "metrics/float_motion/params.hpp"

namespace vqx::float_motion {

// One plane's share of a frame's score: the mean absolute difference of
// the blurred planes, plus (motion_add_scale1) that of their half-size
// versions, added in float (motion.c).
[[nodiscard]] inline float plane_value(float full, float half, bool add_scale1) {
  return add_scale1 ? full + half : full;
}

class Series {
 public:
  explicit Series(const Params& p);

  // Forgets every frame (a fresh run).
  void reset();

  // Frame `index` (0, 1, 2, ... in order) with its score s(index), the
  // planes' values added in double in plane order (ignored for frame 0 and
  // with motion_force_zero): writes what libvmaf writes at that frame.
  void add(unsigned index, double score, FeatureWriter& out);

  // After the last frame: writes the last frame's motion2 and motion3.
  void flush(FeatureWriter& out);

 private:
  [[nodiscard]] double clip(double score) const;
  [[nodiscard]] double weighted_blend(double score) const;
  void write_motion2_3(unsigned frame, double m2, FeatureWriter& out) const;

  Params params_;
  std::size_t motion_ = 0;  // output slots
  std::size_t motion2_ = 0;
  std::size_t motion3_ = 0;
  unsigned frames_ = 0;      // frames added
  double last_score_ = 0.0;  // s(frames_ - 1)
};

}  // namespace vqx::float_motion

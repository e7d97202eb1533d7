// SSIMULACRA2 of one frame pair on the CPU: linear RGB pyramid, XYB per
// scale, ScaleKernel per scale, final score. One instance per extractor
// instance; init() allocates everything, score() nothing.
#pragma once

#include <array>
#include <vector>

#include "metrics/ssimulacra2/colour.hpp"
#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/scale.hpp"
#include "metrics/ssimulacra2/score.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::ssimulacra2 {

// The formats SSIMULACRA2 takes (both twins: the same refusals, the same
// messages): a valid format at least kMinDimension x kMinDimension.
Status check_format(const PictureFormat& fmt);

// How many scales libjxl computes for a width x height picture: scale s > 0
// is computed while scale s - 1 is at least kMinDimension in both directions.
unsigned scale_count(unsigned width, unsigned height);

class FrameKernel {
 public:
  // fmt must be at least kMinDimension x kMinDimension (the extractor checks).
  // Throws std::bad_alloc when out of memory.
  void init(const PictureFormat& fmt, const Params& params);
  // Both pictures have the format given to init().
  double score(const Picture& ref, const Picture& dist);
  // The norms of the last score(), one entry per scale computed.
  [[nodiscard]] const std::vector<ScaleNorms>& norms() const { return norms_; }

 private:
  struct Level {
    unsigned width = 0;
    unsigned height = 0;
    std::array<std::vector<float>, 2> linear;  // 3 planes per picture (levels >= 1)
  };
  // Scale 0 of picture `which`: XYB, and the linear RGB of level 1.
  void first_level(const Picture& pic, unsigned which);
  // Scale s > 0 of picture `which`: XYB from its linear RGB, and the next
  // level's linear RGB when there is one.
  void next_level(unsigned s, unsigned which);
  // The XYB planes of picture `which` at a scale `width` wide (rows packed).
  [[nodiscard]] PlaneSet xyb_planes(unsigned which, unsigned width) const;
  float* xyb_plane(unsigned which, unsigned c) { return xyb_[which].data() + c * plane_size_; }

  LinearRgbConverter converter_;
  ScaleKernel kernel_;
  std::vector<Level> levels_;              // one per scale computed; level 0 keeps no linear RGB
  std::array<std::vector<float>, 2> xyb_;  // 3 planes of the current scale per picture
  std::size_t plane_size_ = 0;             // floats per XYB plane (scale 0 size)
  std::vector<float> rows_;                // two rows of linear R, G, B at scale 0
  std::vector<ScaleNorms> norms_;
};

}  // namespace vqx::ssimulacra2

// The float VIF pipeline on the CPU: for one frame pair (the luma planes'
// rows as float, through FloatRows; already prescaled), each scale's
// numerator and denominator as libvmaf's compute_vif()
// (libvmaf/src/feature/vif.c) returns them, bit for bit.
//
// Per scale s (from 0, or 1 with vif_skip_scale0, to 3):
//   * for s > 0, scale s is scale s - 1 filtered with Gaussian s and
//     decimated by 2 (even rows and columns, sides halved rounding down);
//   * each row: the vertical then horizontal Gaussian s of ref, dist, ref^2,
//     dist^2 and ref * dist, then the row's information terms (statistic.hpp)
//     added to the scale's float sums.
// libvmaf filters whole pictures before the statistic and before
// decimating; here each output row is computed when it is needed, and only
// the kept rows and columns when decimating, with the same arithmetic.
#pragma once

#include <array>
#include <vector>

#include "metrics/float_common/image.hpp"
#include "metrics/float_common/rows.hpp"
#include "metrics/float_vif/params.hpp"
#include "metrics/float_vif/statistic.hpp"
#include "vqx/status.hpp"

namespace vqx::float_vif {

struct ScaleSums {
  float num = 0.0f;
  float den = 0.0f;
};
using FrameSums = std::array<ScaleSums, kScales>;

struct PipelineConfig {
  float kernelscale = 1.0f;
  bool skip_scale0 = false;
  StatParams stat;
};

class VifPipeline {
 public:
  // Sizes every buffer for planes of width x height (after prescaling).
  // Fails, naming the scale, where a filter would reach past the mirrored
  // border; the kernel scale must be valid (valid_kernelscale).
  Status init(unsigned width, unsigned height, const PipelineConfig& config);

  // The rows of the input that the pipeline reads at once, at most: the
  // window a FloatRows over a plane needs (FloatRows::reserve()).
  [[nodiscard]] unsigned input_window() const;

  // Sums of every computed scale; with skip_scale0, out[0] is left as is.
  void compute(float_common::FloatRows& ref, float_common::FloatRows& dist, FrameSums& out);

 private:
  void add_scale_sums(int scale, float_common::FloatRows& ref, float_common::FloatRows& dist,
                      ScaleSums& out);
  void decimate(int scale, float_common::FloatRows& src, float_common::FloatImage& dst);

  PipelineConfig config_;
  std::array<std::vector<float>, kScales> filters_;
  // Scales 1..3 of ref and dist (index 0 unused: scale 0 is the input).
  std::array<float_common::FloatImage, kScales> ref_;
  std::array<float_common::FloatImage, kScales> dist_;
  // Read access to the current scale's ref_ and dist_ images.
  float_common::FloatRows scale_ref_, scale_dist_;
  // Five padded rows (vertical pass results), five filtered rows, and the
  // statistic's scratch.
  std::size_t row_pad_ = 0;     // floats before a padded row's first sample
  std::size_t row_stride_ = 0;  // floats between padded rows
  std::vector<float> padded_;
  std::vector<float> filtered_;
  std::vector<float> stat_scratch_;
};

}  // namespace vqx::float_vif

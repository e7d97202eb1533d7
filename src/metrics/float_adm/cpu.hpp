// The float ADM pipeline on the CPU: for one frame pair (float luma
// planes), each scale's numerator, denominator and AIM numerator as
// libvmaf's compute_adm() (libvmaf/src/feature/adm.c) computes them, bit
// for bit.
//
// Per scale s (the wavelet level), row by row of its subbands:
//   * the wavelet row of ref and dist (dwt.hpp); the a band is kept for
//     scale s + 1, the h, v, d rows are used at once;
//   * the denominator's terms from the reference (masking.hpp), over the
//     band less a 10% border;
//   * decoupling and CSF weighting (decouple.hpp), over a region one pixel
//     wider, into a ring of three rows;
//   * one row behind, the masked terms of the restored part (masked by the
//     additive part) for the numerator, and of the additive part (masked by
//     the restored part) for AIM.
// libvmaf computes each stage over whole bands; the values and the order
// of every sum are the same.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "metrics/float_adm/csf.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_common/rows.hpp"
#include "vqx/status.hpp"

namespace vqx::float_adm {

// One scale's float sums as libvmaf returns them (num_scale, den_scale,
// aim_num_scale).
struct ScaleSums {
  float num = 0.0f;
  float den = 0.0f;
  float aim = 0.0f;
};
using FrameSums = std::array<ScaleSums, kScales>;

// Rows [top, bottom) and columns [left, right) of a band.
struct Region {
  int top = 0, bottom = 0, left = 0, right = 0;
};

// The bands of one scale and the regions libvmaf works on.
struct ScaleGeometry {
  unsigned w = 0, h = 0;  // subband size
  Region sums;            // 10% border removed (den and masking)
  Region weighted;        // one more pixel each side (decoupling and CSF)
};
[[nodiscard]] ScaleGeometry scale_geometry(unsigned w, unsigned h);

// The smallest side float ADM takes: every subband, down to scale 3
// (1/16 of the picture), must be at least 2 samples wide for the wavelet's
// and the masking's mirrors to stay inside it.
inline constexpr unsigned kMinSide = 17;
// Refuses pictures smaller than kMinSide on a side (both twins' message).
[[nodiscard]] Status check_picture_size(unsigned width, unsigned height);

class AdmPipeline {
 public:
  // Sizes every buffer for planes of width x height (>= kMinSide).
  Status init(unsigned width, unsigned height, const Params& params);

  // Reads ref's and dist's rows kDwtInputRows at a time (dwt.hpp).
  void compute(float_common::FloatRows& ref, float_common::FloatRows& dist, FrameSums& out);

 private:
  void run_scale(int scale, float_common::FloatRows& ref, float_common::FloatRows& dist,
                 ScaleSums& out);
  void approx_only(int scale, float_common::FloatRows& ref, float_common::FloatRows& dist);

  Params params_;
  std::array<BandWeights, kScales> weights_{};
  std::array<ScaleGeometry, kScales> geometry_{};
  float cos_1deg_sq_ = 0.0f;
  // The a subbands of scales 0..2 (the inputs of scales 1..3).
  std::array<float_common::FloatImage, kScales - 1> ref_a_, dist_a_;
  // Read access to the a subbands a scale reads.
  float_common::FloatRows scale_ref_, scale_dist_;
  // Row buffers, `row_stride_` floats apart, each with one float before it.
  std::size_t row_stride_ = 0;
  std::vector<float> rows_;
  std::vector<float> dwt_scratch_;
  std::vector<float> sum_scratch_;
  std::vector<std::int32_t> angle_scratch_;
};

}  // namespace vqx::float_adm

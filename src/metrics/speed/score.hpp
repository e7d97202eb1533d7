// The SpEED score of a reference and a distorted picture (libvmaf speed.c,
// speed_extract_score() and get_speed_score()).
#pragma once

#include <vector>

#include "metrics/speed/bandpass.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gsm.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/rescale.hpp"
#include "metrics/speed/rows.hpp"

namespace vqx::speed {

// get_speed_score(): the mean over blocks of |h_ref w_ref - h_dis w_dis|, h
// a block's entropy and w = log2(1 + variance) with the variance chosen by
// `weight_var_mode` (0..6); blocks where both entropies stay below that of
// the noise floor count 0.
float speed_score(const BlockStats& ref, const BlockStats& dis, float sigma_nn, float nn_floor,
                  int weight_var_mode);

// The score of a pair of fitted pictures and whether either was singular
// (SpeedScorer::score's result; the GPU twins' host finish calls
// pair_score() with the statistics of the device's band-pass pictures).
struct ScoreResult {
  float score = 0;
  bool singular = false;  // either picture's covariance matrix was singular
};
// libvmaf: one numerically unstable picture would inflate the score, so it
// is 0 then; with both unstable the score is computed as usual.
ScoreResult pair_score(bool ref_ok, const BlockStats& ref, bool dis_ok, const BlockStats& dis,
                       const Params& p, int weight_var_mode);

class SpeedScorer {
 public:
  // Allocates everything; `weight_var_mode` is p.weight_var_mode for
  // speed_chroma and 0 for speed_temporal (which has no such option).
  void init(const Geometry& g, const Params& p, int weight_var_mode);

  using Result = ScoreResult;
  // Both sources give rows of g.width floats, g.height of them. When exactly
  // one of the two pictures is singular the score is 0.
  Result score(RowSource& ref, RowSource& dis);

 private:
  bool fit(RowSource& src, BlockStats& stats);
  RowSource& prescaled(RowSource& src);

  Geometry g_;
  Params p_;
  int weight_var_mode_ = 0;
  BandPass bandpass_;
  RescaledRows rescaled_;
  GsmFit gsm_;
  std::vector<float> band_;
  BlockStats ref_;
  BlockStats dis_;
};

}  // namespace vqx::speed

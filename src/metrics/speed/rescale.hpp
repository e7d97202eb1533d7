// The prescale of SpEED: libvmaf's four resamplers (vif_tools.c,
// vif_scale_frame_nearest_s, _bilinear_s, _bicubic_s, _lanczos4_s), producing
// one output row at a time from the rows of another source.
//
// Each output sample is a weighted sum of source samples whose positions and
// weights depend only on its column and on its row; both are tabulated (the
// columns once, the row per call) and the sum is evaluated in the reference's
// order, so the floats are the reference's.
#pragma once

#include <vector>

#include "metrics/speed/params.hpp"
#include "metrics/speed/rows.hpp"

namespace vqx::speed {

class RescaledRows final : public RowSource {
 public:
  // Allocates the tables and the scratch rows.
  void init(unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h, ScaleMethod method);
  void set_source(RowSource* source) { source_ = source; }
  void row(unsigned y, float* out) override;

  // Taps (source positions and weights) of one output row or column.
  struct Axis {
    std::vector<int> index;     // taps per position, each a mirrored source position
    std::vector<float> weight;  // same layout (unused by nearest)
  };

 private:
  ScaleMethod method_ = ScaleMethod::kNearest;
  bool identity_ = false;  // same size: the reference copies the picture
  unsigned src_w_ = 0;
  unsigned src_h_ = 0;
  unsigned dst_w_ = 0;
  unsigned dst_h_ = 0;
  float ratio_y_ = 0;
  unsigned taps_ = 1;
  Axis columns_;             // for every output column
  Axis row_taps_;            // for the current output row
  std::vector<float> rows_;  // the source rows of the current output row
  RowSource* source_ = nullptr;
};

}  // namespace vqx::speed

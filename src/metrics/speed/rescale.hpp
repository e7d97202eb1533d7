// The prescale of SpEED: libvmaf's four resamplers (vif_tools.c,
// vif_scale_frame_nearest_s, _bilinear_s, _bicubic_s, _lanczos4_s), producing
// one output row at a time from the rows of another source.
//
// Each output sample is a weighted sum of source samples whose positions and
// weights depend only on its column and on its row; both are tabulated once
// (axis_taps(), which the GPU twin's tables come from too) and the sum is
// evaluated in the reference's order (pointwise.hpp: resample()), so the
// floats are the reference's.
#pragma once

#include <vector>

#include "metrics/speed/params.hpp"
#include "metrics/speed/rows.hpp"

namespace vqx::speed {

// Taps per output position of `m`: 1 (nearest), 2, 4 or 9 (lanczos4).
unsigned taps_of(ScaleMethod m);

// The taps of every output position along one axis of `dst` positions
// resampled from `src`: for position o, its `taps` mirrored source
// positions at index[o * taps ...] and their weights at weight[o * taps ...]
// (nearest has no weights: 0).
struct AxisTaps {
  unsigned taps = 1;
  std::vector<int> index;
  std::vector<float> weight;
};
AxisTaps axis_taps(ScaleMethod m, unsigned src, unsigned dst);

class RescaledRows final : public RowSource {
 public:
  // Allocates the tables and the scratch rows.
  void init(unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h, ScaleMethod method);
  void set_source(RowSource* source) { source_ = source; }
  void row(unsigned y, float* out) override;

 private:
  ScaleMethod method_ = ScaleMethod::kNearest;
  bool identity_ = false;  // same size: the reference copies the picture
  unsigned src_w_ = 0;
  unsigned dst_w_ = 0;
  unsigned taps_ = 1;
  AxisTaps columns_;         // for every output column
  AxisTaps row_taps_;        // for every output row
  std::vector<float> rows_;  // the source rows of the current output row
  RowSource* source_ = nullptr;
};

}  // namespace vqx::speed

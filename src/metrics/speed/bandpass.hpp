// The picture SpEED models (libvmaf speed.c, filter_and_downscale()): the
// (prescaled) picture blurred by the anti-aliasing Gaussian and decimated by
// 16 in each direction, minus the band Gaussian's blur of that.
//
// libvmaf filters the whole picture and then keeps every 16th sample of every
// 16th row; here only those samples are filtered: the vertical pass runs on
// the rows that are kept and the horizontal pass only at the columns that are
// kept. Each kept sample is the same sum of the same floats in the same order
// (taps ascending, mirrored borders, starting from 0), so the result is
// libvmaf's, at 1/16 of the vertical and 1/256 of the horizontal work.
#pragma once

#include <vector>

#include "metrics/speed/geometry.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/rows.hpp"
#include "metrics/speed/taps.hpp"

namespace vqx::speed {

class BandPass {
 public:
  // Builds the filters and allocates every buffer.
  void init(const Geometry& g, const Params& p);
  // Writes the op_w x op_h band-pass picture (row stride op_w) to `out`,
  // reading rows of the prescaled picture (scaled_w x scaled_h) from `src`.
  void run(RowSource& src, float* out);

 private:
  Geometry g_;
  Taps antialias_;
  Taps band_;
  std::vector<float> row_;         // one source row
  std::vector<float> column_sum_;  // vertical pass of one kept row
  std::vector<float> decimated_;   // op_w x op_h
  std::vector<float> band_rows_;   // vertical band pass of one row
};

}  // namespace vqx::speed

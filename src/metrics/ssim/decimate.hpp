// Filtering and subsampling: libvmaf's _iqa_decimate (feature/iqa/decimate.c)
// with a square 2-D filter, as float_ssim (box filter) and float_ms_ssim
// (9x9 low-pass, factor 2) use it.
//
// Output sample (x, y) is the filter centred on input sample (x f, y f), f
// the factor: the taps of row v and column u (0 <= u, v < n, n the filter
// size) meet input (x f + u - n/2, y f + v - n/2). Outside the picture the
// input is mirrored about its edges with the edge samples repeated (-1 -> 0,
// w -> w - 1; iqa/convolve.c, KBND_SYMMETRIC). Each product is rounded to
// float and summed in double, row by row and tap by tap, then the sum is
// rounded to float (iqa/convolve.c, _iqa_filter_pixel).
#pragma once

#include <span>
#include <vector>

#include "metrics/ssim/image.hpp"

namespace vqx::ssim {

// The size of a side of n samples after subsampling by `factor`:
// n / factor, plus one when n is odd (decimate.c; for factor 2 this rounds
// up, for other factors it is what libvmaf computes).
[[nodiscard]] constexpr int decimated_size(int n, int factor) { return n / factor + (n & 1); }

class Decimator {
 public:
  // Prepares for sources up to `max_width` samples wide and a filter of
  // `size` x `size` taps, subsampling by `factor` (may throw
  // std::bad_alloc). Requires 1 <= factor <= size.
  void init(int max_width, int size, int factor);

  // Filters and subsamples `src` (at most the init width) into `dst`,
  // which must be decimated_size(src.width(), factor) x
  // decimated_size(src.height(), factor). `taps` holds size x size taps,
  // row by row. The border is mirrored once, so it must not reach past the
  // far side: requires sides of at least (size + 1) / 2 samples. Allocates
  // nothing.
  void run(const RowSource& src, std::span<const float> taps, FloatImage& dst);

 private:
  // The input row `c` (mirrored into the picture), padded with its mirrored
  // border and split into `factor_` phases; cached in a ring of `size_`
  // slots, since consecutive output rows share input rows.
  const float* phases_of_row(const RowSource& src, int c, int phase_len);

  int size_ = 0;
  int factor_ = 1;
  int half_ = 0;
  int phase_stride_ = 0;        // the longest phase, and the distance between phases
  std::vector<float> ring_;     // slot, then phase, then sample
  std::vector<float> scratch_;  // an input row converted to float
  std::vector<int> tags_;       // the input row each slot holds
  std::vector<double> acc_;     // one output row of sums
};

}  // namespace vqx::ssim

// Integer SSIM on the CPU: the readable computation of one frame's score
// (integer_ssim.c's algorithm, its arithmetic from pointwise.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "metrics/integer_ssim/pointwise.hpp"
#include "vqx/picture.hpp"

namespace vqx::integer_ssim {

// One instance per thread: it holds the rows in flight for one picture
// size, allocated by init(); score() allocates nothing.
class Scorer {
 public:
  // For luma planes of `width` x `height` samples. May throw
  // std::bad_alloc.
  void init(int width, int height);

  // The frame's score of two luma planes of the init() size, `bpc`-bit
  // samples (each below 2^bpc).
  [[nodiscard]] double score(const Plane& ref, const Plane& dist, unsigned bpc);

  // Each pixel's term W * ssim, in row-major order, into `terms` (width *
  // height values); returns the score, as score() does (tests hold the GPU
  // twin's kernels to these terms).
  double terms(const Plane& ref, const Plane& dist, unsigned bpc, std::span<double> terms);

 private:
  template <typename Sample>
  double run(const Plane& ref, const Plane& dist, unsigned bpc, double* all_terms);
  // Input row `y`'s horizontal sums into the ring.
  template <typename Sample>
  void horizontal(const Plane& ref, const Plane& dist, int y);
  // Output row `y`'s terms from the ring's rows y - kRadius .. y + kRadius.
  void vertical(int y, std::int64_t peak_sq, double* row_terms) const;
  [[nodiscard]] Moments* ring_row(int y) {
    return ring_.data() + static_cast<std::size_t>(y % kTaps) * static_cast<std::size_t>(width_);
  }
  [[nodiscard]] const Moments* ring_row(int y) const {
    return ring_.data() + static_cast<std::size_t>(y % kTaps) * static_cast<std::size_t>(width_);
  }

  int width_ = 0;
  int height_ = 0;
  std::vector<Moments> ring_;                // kTaps rows of horizontal sums; row y at y % kTaps
  std::vector<std::int64_t> column_weight_;  // axis_weight(x, width) for every column
  std::vector<double> row_terms_;            // one output row's terms
};

}  // namespace vqx::integer_ssim

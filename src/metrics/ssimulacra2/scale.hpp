// One scale of SSIMULACRA2: the blurs and error maps of the three XYB
// channels of two pictures, streamed through a few rows of buffers.
//
// Per channel, groups of 8 rows go through the horizontal pass (the five
// quantities a^2, b^2, ab, a, b) into a ring of rows; as soon as the rows it
// reads are there, each output row of the vertical pass is made and its error
// maps are added to each column's sums. Nothing of the size of a picture is
// written.
#pragma once

#include <cstddef>
#include <vector>

#include "metrics/ssimulacra2/blur.hpp"
#include "metrics/ssimulacra2/score.hpp"

namespace vqx::ssimulacra2 {

// Three planes of `width` x `height` floats, rows `stride` floats apart.
struct PlaneSet {
  const float* plane[3];
  std::size_t stride;
};

class ScaleKernel {
 public:
  // Allocates for scales up to max_width wide.
  void init(unsigned max_width);
  ScaleNorms run(const PlaneSet& a, const PlaneSet& b, unsigned width, unsigned height);

 private:
  // The error-map sums of one channel (kMapSums of them) into sums.
  void run_channel(const float* a, const float* b, std::size_t stride, unsigned width,
                   unsigned height, double* sums);
  // One output row (n < 0: warm-up, nothing to add up) of the vertical pass,
  // its terms added into column_sums_.
  void vertical_row(int n, const float* a, const float* b, std::size_t stride, unsigned width,
                    unsigned height);
  [[nodiscard]] float* ring_row(unsigned q, unsigned row) {
    return ring_.data() + ((std::size_t{q} * kRingRows) + (row % kRingRows)) * max_width_;
  }

  // The vertical pass reads rows n - 6 .. n + 4 while the horizontal pass has
  // written up to 8 rows ahead: 18 rows live, kept in a ring of 24.
  static constexpr unsigned kRingRows = 24;

  BlurCoefficients coef_{};
  unsigned max_width_ = 0;
  // Interleaved rows of a group, padded: two buffers of Lanes8 carved from
  // lane_storage_ at a 64-byte boundary (a std::vector<Lanes8> would not be
  // aligned for the AVX clones: GCC gives the type 16-byte alignment outside
  // them, and drops alignment attributes on template arguments).
  std::vector<float> lane_storage_;
  Lanes8* a_lanes_ = nullptr;
  Lanes8* b_lanes_ = nullptr;
  Lanes8* out_lanes_ = nullptr;      // one quantity's horizontal output
  std::vector<float> ring_;          // horizontal output: quantity x ring row x width
  std::vector<float> state_;         // vertical filters: quantity x filter x 2 rows x width
  std::vector<float> out_;           // vertical output row per quantity
  std::vector<float> zero_;          // a row of zeros (outside the picture)
  std::vector<float> discard_;       // where warm-up and past-the-end rows go
  std::vector<double> column_sums_;  // the error maps' sums per column (maps.hpp)
  float* prev1_[kQuantities][3] = {};
  float* prev2_[kQuantities][3] = {};
};

}  // namespace vqx::ssimulacra2

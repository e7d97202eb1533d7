// SSIM's local statistics under the 11x11 Gaussian window, and the means of
// its luminance, contrast and structure terms over the picture: libvmaf's
// _iqa_ssim (feature/iqa/ssim_tools.c) with default arguments, its
// arithmetic at every position to the bit, its sums in the fixed order of
// params.hpp (kSumSegment, kSumGroup) that the GPU twin follows too.
#pragma once

#include <vector>

#include "metrics/ssim/image.hpp"
#include "metrics/ssim/means.hpp"

namespace vqx::ssim {

class SsimWindow {
 public:
  // Prepares for pictures up to `max_width` samples wide (may throw
  // std::bad_alloc). Requires max_width >= kWindow.
  void init(int max_width);

  // The means of the SSIM terms of `ref` against `cmp` over every position
  // where the window lies inside the picture ((w - 10) x (h - 10) of them),
  // summed in the order of pointwise.hpp's row_sum(), row by row.
  // Requires equal sizes, each side >= kWindow and <= the init width.
  // Allocates nothing.
  WindowMeans compute(const RowSource& ref, const RowSource& cmp);

 private:
  // The five filtered quantities: the two means, the two second moments and
  // the cross moment.
  enum Map { kRef, kCmp, kRefSq, kCmpSq, kCross, kMaps };
  // Input row buffers: the two pictures' rows as floats, and x*x, y*y, x*y.
  static constexpr std::size_t kInputRows = 5;

  [[nodiscard]] float* hrow(int map, int slot);
  [[nodiscard]] float* vrow(int map);
  [[nodiscard]] double* term_row(int term);

  std::size_t max_in_ = 0;     // samples per input row
  std::size_t max_out_ = 0;    // window positions per row
  std::vector<float> rows_;    // kInputRows rows
  std::vector<float> hrows_;   // map, then ring slot (kWindow rows), then column
  std::vector<float> vrows_;   // map, then column: the filtered output row
  std::vector<double> terms_;  // term, then column
};

}  // namespace vqx::ssim

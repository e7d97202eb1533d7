#include "metrics/float_motion/sad.hpp"

#include <cassert>

#include "core/kernel_build.hpp"
#include "metrics/float_common/float_ops.hpp"

namespace vqx::float_motion {

namespace {

// Rows summed side by side: each row's sum is a chain of dependent float
// additions in a fixed order, so the speed comes from running several
// independent chains at once.
constexpr unsigned kRowsAtOnce = 8;

// libvmaf: accum / (width * height), an int product converted to float.
float divide_by_count(float total, unsigned w, unsigned h) {
  return total / static_cast<float>(static_cast<int>(w * h));
}

}  // namespace

// libvmaf adds fabs(x - y), a double, to a float sum and rounds back to
// float; the sum of two floats rounded once from double equals the float
// sum, so float arithmetic here gives the same bits.
VQX_CLONES
float mean_abs_difference(const float_common::FloatImage& a, const float_common::FloatImage& b) {
  assert(a.width() == b.width() && a.height() == b.height());
  const unsigned w = a.width();
  const unsigned h = a.height();
  float total = 0.0f;
  unsigned y = 0;
  for (; y + kRowsAtOnce <= h; y += kRowsAtOnce) {
    float line[kRowsAtOnce];
    const float* ra[kRowsAtOnce];
    const float* rb[kRowsAtOnce];
    for (unsigned r = 0; r < kRowsAtOnce; ++r) {
      line[r] = 0.0f;
      ra[r] = a.row(y + r);
      rb[r] = b.row(y + r);
    }
    for (unsigned x = 0; x < w; ++x) {
      for (unsigned r = 0; r < kRowsAtOnce; ++r)
        line[r] += float_common::abs_of(ra[r][x] - rb[r][x]);
    }
    for (unsigned r = 0; r < kRowsAtOnce; ++r) total += line[r];
  }
  for (; y < h; ++y) {
    const float* pa = a.row(y);
    const float* pb = b.row(y);
    float line = 0.0f;
    for (unsigned x = 0; x < w; ++x) line += float_common::abs_of(pa[x] - pb[x]);
    total += line;
  }
  return divide_by_count(total, w, h);
}

float mean_of_rows(const float* row_sums, unsigned width, unsigned height) {
  float total = 0.0f;
  for (unsigned y = 0; y < height; ++y) total += row_sums[y];
  return divide_by_count(total, width, height);
}

}  // namespace vqx::float_motion

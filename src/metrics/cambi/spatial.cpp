#include "metrics/cambi/spatial.hpp"

#include <algorithm>
#include <cstring>

#include "metrics/cambi/params.hpp"
#include "metrics/cambi/pointwise.hpp"

namespace vqx::cambi {

namespace {

// ceil(log2(n)), 0 for n <= 1.
int ceil_log2(std::uint32_t n) {
  int bits = 0;
  for (std::uint32_t t = n > 0 ? n - 1 : 0; t > 0; t >>= 1) ++bits;
  return bits;
}

// 1 where a pixel equals its right and lower neighbours. The last column
// has no right neighbour and the last row no lower one: those comparisons
// count as equal. `below` is null on the last row.
void zero_derivative_row(const std::uint16_t* row, const std::uint16_t* below, unsigned w,
                         std::uint8_t* out) {
  // zero_derivative() (pointwise.hpp), with the neighbours each case has.
  if (below != nullptr) {
    for (unsigned j = 0; j + 1 < w; ++j) {
      out[j] = zero_derivative(row[j], row[j + 1], below[j], true, true);
    }
    out[w - 1] = zero_derivative(row[w - 1], 0, below[w - 1], false, true);
  } else {
    for (unsigned j = 0; j + 1 < w; ++j) {
      out[j] = zero_derivative(row[j], row[j + 1], 0, true, false);
    }
    out[w - 1] = zero_derivative(row[w - 1], 0, 0, false, false);
  }
}

}  // namespace

int flat_threshold(unsigned w, unsigned h) {
  const std::uint32_t blocks = (w >> kMaskSizeShift) * (h >> kMaskSizeShift);
  return (kMaskFilterSize * kMaskFilterSize +
          kMaskLogFactor * (ceil_log2(blocks) - kMaskLogOffset) - 1) >>
         1;
}

void flatness_mask(const std::uint16_t* img, unsigned w, unsigned h, int threshold,
                   std::uint8_t* mask, const MaskScratch& scratch) {
  // Column sums of the zero-derivative flags over the last 7 derivative
  // rows, then a horizontal 7-sum of those. Flags fit uint8 (at most 49).
  std::uint8_t* sums = scratch.column_sums + kMaskRadius;  // sums[-3 .. w + 2]
  std::memset(scratch.column_sums, 0, w + kMaskScratchPad);
  const auto limit = static_cast<std::uint8_t>(threshold);  // flat_threshold(): 7 to 31
  // Derivative row r enters as mask row r - 3 completes.
  for (unsigned r = 0; r < h + kMaskRadius; ++r) {
    std::uint8_t* slot = scratch.derivative_rows + std::size_t{r % kMaskScratchRows} * w;
    if (r >= kMaskScratchRows) {
      for (unsigned j = 0; j < w; ++j) sums[j] = static_cast<std::uint8_t>(sums[j] - slot[j]);
    }
    if (r < h) {
      const std::uint16_t* row = img + std::size_t{r} * w;
      zero_derivative_row(row, r + 1 < h ? row + w : nullptr, w, slot);
      for (unsigned j = 0; j < w; ++j) sums[j] = static_cast<std::uint8_t>(sums[j] + slot[j]);
    } else {
      std::memset(slot, 0, w);
    }
    if (r < static_cast<unsigned>(kMaskRadius)) continue;
    std::uint8_t* out = mask + std::size_t{r - kMaskRadius} * w;
    for (unsigned j = 0; j < w; ++j) {
      const std::uint8_t* s = sums + j - kMaskRadius;
      const auto box = static_cast<std::uint8_t>(s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6]);
      out[j] = static_cast<std::uint8_t>(box > limit);
    }
  }
}

void horizontal_mode(const std::uint16_t* row, unsigned w, std::uint16_t* out) {
  out[0] = row[0];
  for (unsigned j = 1; j + 1 < w; ++j) out[j] = mode3(row[j - 1], row[j], row[j + 1]);
  out[w - 1] = row[w - 1];
}

void vertical_mode(const std::uint16_t* a, const std::uint16_t* b, const std::uint16_t* c,
                   unsigned w, std::uint16_t* out) {
  for (unsigned j = 0; j < w; ++j) out[j] = mode3(a[j], b[j], c[j]);
}

}  // namespace vqx::cambi

// CAMBI's picture operations between the preprocessing and the contrast
// values: the flatness mask, the 3x3 mode filter and the 2:1 decimation
// (libvmaf cambi.c: get_spatial_mask(), filter_mode(), decimate()).
// Pictures are rows of `w` samples, contiguous.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vqx::cambi {

// A pixel of a w x h picture is flat when more than flat_threshold(w, h)
// pixels of its 7x7 neighbourhood have zero derivative (libvmaf's mask
// index).
int flat_threshold(unsigned w, unsigned h);

// Scratch rows of flatness_mask() for pictures up to `max_w` wide.
struct MaskScratch {
  std::uint8_t* derivative_rows;  // 7 rows of max_w
  std::uint8_t* column_sums;      // max_w + 6 (3 zeros either side)
};
inline constexpr unsigned kMaskScratchRows = 7;
inline constexpr unsigned kMaskScratchPad = 6;

// mask = 1 where more than `threshold` (0 to 48) pixels of the 7x7
// neighbourhood (outside the picture counts as not flat) have zero
// derivative, i.e. equal their right and lower neighbours (the last column
// and row only compare the neighbour they have).
void flatness_mask(const std::uint16_t* img, unsigned w, unsigned h, int threshold,
                   std::uint8_t* mask, const MaskScratch& scratch);

// The horizontal 3-sample mode of a row (end samples kept) and the
// sample-wise mode of three rows. The mode of three samples is the repeated
// one, else the smallest.
void horizontal_mode(const std::uint16_t* row, unsigned w, std::uint16_t* out);
void vertical_mode(const std::uint16_t* a, const std::uint16_t* b, const std::uint16_t* c,
                   unsigned w, std::uint16_t* out);

// The 3x3 mode filter in place: the horizontal mode of every row, then the
// vertical mode of those, written to every row but the first and last
// (which keep their original samples). Calls done(i, row) for every row i,
// in order, as soon as it is final. `rows` holds 3 rows of w.
template <typename RowDone>
void mode_filter(std::uint16_t* img, unsigned w, unsigned h, std::uint16_t* rows, RowDone&& done) {
  // Row i - 1 is rewritten once the horizontal modes of rows i - 2 .. i
  // exist; by then its original samples have been read.
  for (unsigned i = 0; i < h; ++i) {
    horizontal_mode(img + std::size_t{i} * w, w, rows + std::size_t{i % 3} * w);
    if (i == 1) done(0U, img);
    if (i < 2) continue;
    std::uint16_t* out = img + std::size_t{i - 1} * w;
    vertical_mode(rows, rows + w, rows + 2 * std::size_t{w}, w, out);
    done(i - 1, static_cast<const std::uint16_t*>(out));
  }
  if (h == 1) done(0U, img);
  if (h >= 2) done(h - 1, static_cast<const std::uint16_t*>(img + std::size_t{h - 1} * w));
}

// dst = every second sample of every second row of src (w x h), starting
// with the first: (w + 1) / 2 x (h + 1) / 2. dst may be src.
template <typename T>
void decimate(const T* src, unsigned w, unsigned h, T* dst) {
  const unsigned w2 = (w + 1) / 2;
  const unsigned h2 = (h + 1) / 2;
  for (unsigned i = 0; i < h2; ++i) {
    const T* s = src + std::size_t{2 * i} * w;
    T* d = dst + std::size_t{i} * w2;
    for (unsigned j = 0; j < w2; ++j) d[j] = s[2 * j];
  }
}

}  // namespace vqx::cambi

// The window counts behind CAMBI's contrast values: for every column c of
// the current row and every code q, the number of pixels of code q in the
// rows of the window and columns c - radius .. c + radius (clipped to the
// picture). libvmaf (cambi.c, calculate_c_values()) keeps the same counts,
// adding every entering pixel to the 2 * radius + 1 columns it reaches, one
// pixel at a time. Counts are integers, so any way of adding gives the same
// result; here a run of equal codes is added at once: its contributions form
// a trapezoid (rising by 1 per column, flat, falling), written in blocks of
// 8 columns over the run's reach.
#pragma once

#include <cstddef>
#include <cstdint>

#include "metrics/cambi/runs.hpp"

namespace vqx::cambi {

// Where the counts of code q, column c are: data[q * stride + c]. Rows reach
// `margin` columns past both sides of the picture, so that whole blocks of 8
// can be written without clipping (what lands outside is never read), and
// there are `spare` rows of zeros below code 0 and above the last code, so
// that the contrast values can read codes q +- k without checks.
struct CountsLayout {
  std::size_t stride = 0;
  std::size_t margin = 0;
  std::size_t spare = 0;
  std::size_t codes = 0;  // band size
  [[nodiscard]] std::size_t size() const { return (codes + 2 * spare) * stride; }
  // Offset of code 0, column 0 in the buffer.
  [[nodiscard]] std::size_t origin() const { return spare * stride + margin; }
};

CountsLayout counts_layout(unsigned w, unsigned radius, unsigned band_size, unsigned num_diffs);

// Adds (kAdd) or removes the coded runs of one row.
template <bool kAdd>
void update_counts(std::uint16_t* counts, const CountsLayout& layout, unsigned radius,
                   const RowRuns& row);

// Removes the row `leaving` and adds the row `entering`, leaving alone the
// columns where both have the same code.
void replace_counts(std::uint16_t* counts, const CountsLayout& layout, unsigned radius,
                    const RowRuns& leaving, const RowRuns& entering);

}  // namespace vqx::cambi

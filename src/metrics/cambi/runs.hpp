// A scale's flat pixels as runs: every row is cut into maximal runs of
// equal codes (the code of a pixel: its level - band_base when it is flat
// and in the band, else kNoCode), so that the window counts and the
// contrast values only visit what changes or what counts.
#pragma once

#include <cstdint>

#include "metrics/cambi/contrast.hpp"

namespace vqx::cambi {

// Columns [start, the next run's start or the row's end) have `code`.
struct Run {
  std::uint16_t start;
  std::uint16_t code;
};

// One row's runs; they tile columns [0, width).
struct RowRuns {
  const Run* begin;
  const Run* end;
  unsigned width;
  [[nodiscard]] unsigned end_of(const Run* r) const { return r + 1 < end ? r[1].start : width; }
};

// Appends the runs of one row (its levels and flatness mask) to `runs`;
// returns how many. row_codes (w codes) and starts (w rounded up to 8
// bytes) are scratch.
std::uint32_t append_runs(const std::uint16_t* levels, const std::uint8_t* flat, unsigned w,
                          const ContrastTables& t, std::uint16_t* row_codes, std::uint8_t* starts,
                          Run* runs);

// Row i's runs are runs[offsets[i] .. offsets[i + 1]).
inline RowRuns row_runs(const Run* runs, const std::uint32_t* offsets, unsigned row, unsigned w) {
  return {runs + offsets[row], runs + offsets[row + 1], w};
}

}  // namespace vqx::cambi

// CAMBI's contrast value of a flat pixel (libvmaf cambi.c, c_value_pixel()
// and the tables init() builds for it).
//
// With n(l) the number of flat pixels of level l in the window around a
// pixel of level v, and for each level difference k = d + 1 that applies at
// v (k <= num_diffs; v + num_diffs at most the visibility threshold of k,
// v + num_diffs + k above the visible-luminance floor):
//   c_d = w_d * n(v) * m / (n(v) + m),  m = max(n(v + k), n(v - k)),
// in float with libvmaf's table of reciprocals, and the pixel's value is the
// largest c_d (0 when none applies).
//
// Only levels from band_base to band_base + band_size - 1 can take part in
// any c_d, as pixel or as neighbour; the window counts keep only those, and
// a pixel is identified by its code: level - band_base.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "metrics/cambi/params.hpp"
#include "metrics/cambi/pointwise.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

struct ContrastTables {
  unsigned num_diffs = 0;
  int band_base = 0;              // lowest level counted
  unsigned band_size = 0;         // levels counted; 0 when no pixel can have a contrast value
  std::array<int, 32> weights{};  // w_d
  std::vector<std::uint8_t> first_diff;  // per code: the first d that applies, num_diffs if none
  std::vector<float> reciprocal;         // libvmaf's reciprocal_lut
};

// The tables for one configuration (the luminance thresholds are computed
// here). Fails for options libvmaf cannot compute with.
Expected<ContrastTables> make_contrast_tables(const Params& params);

// libvmaf's reciprocal table: 1 / i rounded to 9 significant digits, then
// to float; entry 0 is 0.
std::vector<float> reciprocal_table();

// How many contrast values are not 0, and their exact sum in units of
// 2^-24 (pointwise.hpp, value_units()).
struct ValueSum {
  std::size_t nonzero = 0;
  std::uint64_t units = 0;
};

// contrast_row()'s scratch: room for a row in each array.
struct ContrastScratch {
  std::int32_t* num;
  std::int32_t* den;
  float* rcp;
};

struct RowRuns;

// The contrast values of a row's coded pixels, in column order, into `out`;
// returns how many. counts: the window counts around this row,
// counts[code * stride + column], with num_diffs rows of zeros below code 0
// and above the last code. Adds the values to `total`.
std::size_t contrast_row(const RowRuns& row, const std::uint16_t* counts, std::size_t stride,
                         const ContrastTables& t, float* out, ValueSum& total,
                         ContrastScratch& scratch);

}  // namespace vqx::cambi

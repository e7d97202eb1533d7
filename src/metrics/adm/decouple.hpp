// Decoupling of the distorted detail bands into the part that restores the
// reference (r = clamp(t/o, 0, 1) * o, i.e. detail that survived) and the
// additive impairment (a = t - r), with libvmaf's fixed-point division and
// its "enhancement" rule for nearly parallel (h, v) vectors.
#pragma once

#include <array>
#include <cstdint>

namespace vqx::adm {

// Q30 reciprocals 2^30 / n for n = 1 .. 32768 (index n; index 0 unused),
// integer_adm.h's div_lookup folded to its positive half.
struct RecipTable {
  std::array<std::int32_t, 32769> q30;
};
const RecipTable& recip_table();

// The three detail bands of one row (h, v, d).
template <typename T>
struct DetailRow {
  const T* h;
  const T* v;
  const T* d;
};

template <typename T>
struct DetailOut {
  T* h;
  T* v;
  T* d;
};

struct DecoupleParams {
  double enhn_gain_limit;  // adm_enhn_gain_limit
  float cos_1deg_sq;       // cos(1 degree)^2, rounded to float
};

DecoupleParams make_decouple_params(double enhn_gain_limit);

// Columns [begin, end) of one band row. T is int16_t at scale 0 and int32_t
// at scales 1..3 (whose division normalises large denominators to 15 bits).
template <typename T>
void decouple_row(DetailRow<T> ref, DetailRow<T> dis, int begin, int end, const DecoupleParams& p,
                  DetailOut<T> restored, DetailOut<T> additive);

}  // namespace vqx::adm

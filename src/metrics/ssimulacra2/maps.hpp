// The three error maps of SSIMULACRA2 for one row of one channel
// (ssimulacra2.cc, SSIMMap and EdgeDiffMap), added into each column's
// running sums (params.hpp gives the order of the sums).
//   SSIM':    d = max(0, 1 - (1 - (mu1 - mu2)^2) (2 (s12 - mu1 mu2) + C2)
//                              / ((s11 - mu1^2) + (s22 - mu2^2) + C2))
//   edge:     e = (1 + |b - mu2|) / (1 + |a - mu1|) - 1   (in double)
//             ringing = max(0, e), blurring = max(0, -e)
// Each map contributes its sum and the sum of its fourth powers (for the
// 1-norm and the 4-norm). The float/double split is libjxl's.
#pragma once

#include <cstddef>

namespace vqx::ssimulacra2 {

enum MapSum : unsigned {
  kSsim = 0,
  kSsim4 = 1,
  kRinging = 2,
  kRinging4 = 3,
  kBlurring = 4,
  kBlurring4 = 5,
  kMapSums = 6,
};

// One row: the pictures a and b, their blurred values mu1, mu2, and the
// blurred squares and product s11, s22, s12.
struct MapRow {
  const float* a;
  const float* b;
  const float* mu1;
  const float* mu2;
  const float* s11;
  const float* s22;
  const float* s12;
};

// Column sums of one channel: sum m of column x at sums[m * stride + x].
struct ColumnSums {
  double* sums;
  std::size_t stride;
};

// Adds the row's terms into columns 0 .. width - 1 of `columns`.
void accumulate_maps(const MapRow& row, unsigned width, const ColumnSums& columns);

// The channel's sums: out[m] = the columns' sums m added in order from 0.0.
void add_columns(const ColumnSums& columns, unsigned width, double* out);

}  // namespace vqx::ssimulacra2

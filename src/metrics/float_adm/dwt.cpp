#include "metrics/float_adm/dwt.hpp"

#include <cassert>

#include "core/kernel_build.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/pointwise.hpp"

namespace vqx::float_adm {

namespace {

// Padding kept before a column-pass row: index -1 must exist; 16 keeps the
// row's start aligned.
constexpr std::size_t kLead = 16;

// The column pass: lo[j] and hi[j] for every column j of rows r0..r3.
VQX_CLONES
void column_pass(const float* __restrict r0, const float* __restrict r1, const float* __restrict r2,
                 const float* __restrict r3, unsigned width, float* __restrict lo,
                 float* __restrict hi, bool approx_only) {
  if (approx_only) {
    for (unsigned j = 0; j < width; ++j) lo[j] = taps4(kDb2Lo, r0[j], r1[j], r2[j], r3[j]);
    return;
  }
  for (unsigned j = 0; j < width; ++j) {
    lo[j] = taps4(kDb2Lo, r0[j], r1[j], r2[j], r3[j]);
    hi[j] = taps4(kDb2Hi, r0[j], r1[j], r2[j], r3[j]);
  }
}

// The row pass over a column-pass row padded at -1, n and n + 1:
// out_lo[j] and out_hi[j] from columns 2j - 1 .. 2j + 2.
VQX_CLONES
void row_pass(const float* __restrict in, unsigned out_width, float* __restrict out_lo,
              float* __restrict out_hi) {
  for (unsigned j = 0; j < out_width; ++j) {
    const float* s = in + 2 * static_cast<std::ptrdiff_t>(j) - 1;
    out_lo[j] = taps4(kDb2Lo, s[0], s[1], s[2], s[3]);
    out_hi[j] = taps4(kDb2Hi, s[0], s[1], s[2], s[3]);
  }
}

VQX_CLONES
void row_pass_lo(const float* __restrict in, unsigned out_width, float* __restrict out_lo) {
  for (unsigned j = 0; j < out_width; ++j) {
    const float* s = in + 2 * static_cast<std::ptrdiff_t>(j) - 1;
    out_lo[j] = taps4(kDb2Lo, s[0], s[1], s[2], s[3]);
  }
}

// Mirrors the column-pass row at -1, n and n + 1 (dwt_index).
void pad(float* row, unsigned n) { pad_reflect101_repeat_end(row, static_cast<int>(n), 1, 2); }

}  // namespace

std::size_t dwt_scratch_size(unsigned width) {
  return 2 * (kLead + round_up(std::size_t{width + 2}, 16));
}

void dwt_row(float_common::FloatRows& src, unsigned i, const SubbandRow& out, bool approx_only,
             std::span<float> scratch) {
  const unsigned w = src.width();
  const int h = static_cast<int>(src.height());
  assert(w >= 2 && h >= 2 && scratch.size() >= dwt_scratch_size(w));
  const std::size_t half = scratch.size() / 2;
  float* lo = scratch.data() + kLead;
  float* hi = scratch.data() + half + kLead;
  const int top = 2 * static_cast<int>(i) - 1;
  column_pass(src.row(static_cast<unsigned>(dwt_index(top, h))),
              src.row(static_cast<unsigned>(dwt_index(top + 1, h))),
              src.row(static_cast<unsigned>(dwt_index(top + 2, h))),
              src.row(static_cast<unsigned>(dwt_index(top + 3, h))), w, lo, hi, approx_only);
  const unsigned out_w = (w + 1) / 2;
  pad(lo, w);
  if (approx_only) {
    row_pass_lo(lo, out_w, out.a);
    return;
  }
  pad(hi, w);
  row_pass(lo, out_w, out.a, out.v);
  row_pass(hi, out_w, out.h, out.d);
}

}  // namespace vqx::float_adm

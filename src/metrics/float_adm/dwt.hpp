// One level of float ADM's Daubechies-2 wavelet transform, a row of
// subbands at a time, with libvmaf's arithmetic (libvmaf adm_tools.c,
// adm_dwt2_s, adm_dwt2_lo_s, dwt2_src_indices_filt_s).
//
// Output row i of a w x h input reads input rows 2i - 1 .. 2i + 2 and
// columns 2j - 1 .. 2j + 2, mirrored at the edges: -1 -> 1 at the start,
// n -> n - 1 and n + 1 -> n - 2 at the end. Each of the four products is
// added to a float sum that starts at 0: first down the columns (low- and
// high-pass), then along the row. The subbands are (w + 1) / 2 x
// (h + 1) / 2: a (low-low), v (low then high), h (high then low) and d
// (high-high), named as libvmaf names them.
#pragma once

#include <cstddef>
#include <span>

#include "core/index_math.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_common/rows.hpp"

namespace vqx::float_adm {

// libvmaf's source index for tap position k of a side of n samples:
// reflect101_repeat_end (core/index_math.hpp).
[[nodiscard]] constexpr int dwt_index(int k, int n) { return reflect101_repeat_end(k, n); }

// Output rows of one input row: pointers to width (w + 1) / 2 each.
struct SubbandRow {
  float* a = nullptr;
  float* h = nullptr;
  float* v = nullptr;
  float* d = nullptr;
};

// Floats of scratch dwt_row() needs for inputs `width` wide.
[[nodiscard]] std::size_t dwt_scratch_size(unsigned width);

// The input rows one subband row reads: 2i - 1 .. 2i + 2, mirrored (one
// per tap of the wavelet's filters).
inline constexpr unsigned kDwtInputRows = kDb2Lo.size();

// Computes subband row i of `src` (sides >= 2). With approx_only, only the
// a row is computed (adm_skip_scale0 at scale 0).
void dwt_row(float_common::FloatRows& src, unsigned i, const SubbandRow& out, bool approx_only,
             std::span<float> scratch);

}  // namespace vqx::float_adm

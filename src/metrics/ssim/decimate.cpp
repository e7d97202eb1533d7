// The filter runs over whole output rows: for tap (u, v) every output
// sample x adds input (x f + u - n/2) of filter row v, which is a contiguous
// run once the padded input row is split into its f phases (phase j holds
// padded samples j, j + f, j + 2f, ...). Each output sample thus sees its
// products in libvmaf's order (row v, then column u), while the loops over
// x vectorise. An input row is split once and kept while the output rows
// that need it are computed.
#include "metrics/ssim/decimate.hpp"

#include <algorithm>
#include <cassert>
#include <climits>

#include "core/index_math.hpp"
#include "core/kernel_build.hpp"
#include "metrics/ssim/filters.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"

namespace vqx::ssim {

namespace {

// Index i mirrored into [0, n) with the edge repeated (KBND_SYMMETRIC:
// reflect_repeat, core/index_math.hpp); valid for -n <= i < 2n.
constexpr int mirror(int i, int n) { return reflect_repeat(i, n); }

// The filter of `size` x `size` taps at every output sample of a row:
// rows[v] is the phase-split input row of filter row v, its phases
// phase_stride apart. Sums stay in memory, one output row of them.
VQX_CLONES void filter_row(const float* const* rows, const float* taps, int size, int factor,
                           int phase_stride, double* __restrict acc, float* __restrict out,
                           int count) {
  for (int x = 0; x < count; ++x) acc[x] = 0.0;
  for (int v = 0; v < size; ++v) {
    for (int u = 0; u < size; ++u) {
      const float* __restrict in = rows[v] + (u % factor) * phase_stride + u / factor;
      const float tap = taps[v * size + u];
      VQX_IVDEP
      for (int x = 0; x < count; ++x) acc[x] += tap_term(in[x], tap);
    }
  }
  for (int x = 0; x < count; ++x) out[x] = static_cast<float>(acc[x]);
}

// The inside of split_phases for a factor known at compile time (the
// compiler vectorises these loops): samples k in [first, last), which read
// inside the row for every phase.
template <int Factor>
VQX_FORCE_INLINE void split_inside(const float* __restrict row, int half, int first, int last,
                                   int phase_stride, float* __restrict phases) {
  for (int k = first; k < last; ++k) {
    for (int j = 0; j < Factor; ++j) phases[j * phase_stride + k] = row[k * Factor + j - half];
  }
}

// Splits input row `row` (w samples), padded by `half` mirrored samples on
// the left and as many as needed on the right, into `factor` phases of
// `len` samples, phase_stride apart: phase j, sample k is padded sample
// k * factor + j, i.e. input column k * factor + j - half. Every factor
// float_ssim's "scale" option allows has its own inner loop.
VQX_CLONES void split_phases(const float* __restrict row, int w, int half, int factor, int len,
                             int phase_stride, float* __restrict phases) {
  const int last = std::min(len, (w + half - factor) / factor + 1);
  const int first = std::min(last, ceil_div(half, factor));
  auto mirrored = [&](int k) {
    for (int j = 0; j < factor; ++j) {
      phases[j * phase_stride + k] = row[mirror(k * factor + j - half, w)];
    }
  };
  for (int k = 0; k < first; ++k) mirrored(k);
  switch (factor) {
    case 2:
      split_inside<2>(row, half, first, last, phase_stride, phases);
      break;
    case 3:
      split_inside<3>(row, half, first, last, phase_stride, phases);
      break;
    case 4:
      split_inside<4>(row, half, first, last, phase_stride, phases);
      break;
    case 5:
      split_inside<5>(row, half, first, last, phase_stride, phases);
      break;
    case 6:
      split_inside<6>(row, half, first, last, phase_stride, phases);
      break;
    case 7:
      split_inside<7>(row, half, first, last, phase_stride, phases);
      break;
    case 8:
      split_inside<8>(row, half, first, last, phase_stride, phases);
      break;
    case 9:
      split_inside<9>(row, half, first, last, phase_stride, phases);
      break;
    case 10:
      split_inside<10>(row, half, first, last, phase_stride, phases);
      break;
    default:  // any other factor, unused by VQX's extractors
      for (int k = first; k < last; ++k) mirrored(k);
  }
  for (int k = last; k < len; ++k) mirrored(k);
}

}  // namespace

void Decimator::init(int max_width, int size, int factor) {
  assert(factor >= 1 && factor <= size);
  size_ = size;
  factor_ = factor;
  half_ = size / 2;
  const int max_out = decimated_size(max_width, factor);
  phase_stride_ = max_out - 1 + ceil_div(size, factor);
  const auto phase_samples =
      static_cast<std::size_t>(factor) * static_cast<std::size_t>(phase_stride_);
  ring_.assign(static_cast<std::size_t>(size) * phase_samples, 0.0f);
  acc_.assign(static_cast<std::size_t>(max_out), 0.0);
  scratch_.assign(static_cast<std::size_t>(max_width), 0.0f);
  tags_.assign(static_cast<std::size_t>(size), INT_MIN);
}

const float* Decimator::phases_of_row(const RowSource& src, int c, int phase_len) {
  const auto slot = static_cast<std::size_t>((c + half_) % size_);
  float* phases = ring_.data() + slot * static_cast<std::size_t>(factor_) *
                                     static_cast<std::size_t>(phase_stride_);
  if (tags_[slot] == c) return phases;
  tags_[slot] = c;

  split_phases(src.row(mirror(c, src.height()), scratch_.data()), src.width(), half_, factor_,
               phase_len, phase_stride_, phases);
  return phases;
}

void Decimator::run(const RowSource& src, std::span<const float> taps, FloatImage& dst) {
  const int dw = dst.width();
  assert(src.width() <= static_cast<int>(scratch_.size()));
  assert(dw == decimated_size(src.width(), factor_));
  assert(dst.height() == decimated_size(src.height(), factor_));
  assert(src.width() >= (size_ + 1) / 2 && src.height() >= (size_ + 1) / 2);
  assert(static_cast<int>(taps.size()) == size_ * size_);
  assert(dw - 1 + ceil_div(size_, factor_) <= phase_stride_);

  const int phase_len = dw - 1 + ceil_div(size_, factor_);
  for (int& t : tags_) t = INT_MIN;
  // Row pointers of one output row; the filter is at most kMaxSize rows.
  constexpr int kMaxSize = 16;
  assert(size_ <= kMaxSize);
  const float* rows[kMaxSize] = {};
  for (int y = 0; y < dst.height(); ++y) {
    for (int v = 0; v < size_; ++v) {
      rows[v] = phases_of_row(src, y * factor_ + v - half_, phase_len);
    }
    // MS-SSIM's filter shape has its own, faster loop (filters.hpp).
    if (size_ == kLpfSize && factor_ == kLpfFactor) {
      low_pass_row(rows, taps.data(), phase_stride_, dst.row(y), dw);
    } else {
      filter_row(rows, taps.data(), size_, factor_, phase_stride_, acc_.data(), dst.row(y), dw);
    }
  }
}

}  // namespace vqx::ssim

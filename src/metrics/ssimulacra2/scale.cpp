#include "metrics/ssimulacra2/scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "metrics/ssimulacra2/maps.hpp"
#include "metrics/ssimulacra2/params.hpp"

namespace vqx::ssimulacra2 {

namespace {

// The interleaved buffers and the ring assume this radius (kPadLeft = 2N,
// kPadRight = N - 1, and the ring's depth).
static_assert(kBlurRadius == 5 && kPadLeft == 2 * kBlurRadius && kPadRight == kBlurRadius - 1);

}  // namespace

void ScaleKernel::init(unsigned max_width) {
  coef_ = blur_coefficients(kBlurSigma);
  max_width_ = max_width;
  const std::size_t w = max_width;
  const std::size_t lanes = (w + kPadLeft + kPadRight) * kGroupRows;
  constexpr std::size_t kAlignFloats = 64 / sizeof(float);
  lane_storage_.assign(2 * lanes + w * kGroupRows + kAlignFloats, 0.0f);
  const auto address = reinterpret_cast<std::uintptr_t>(lane_storage_.data());
  const std::size_t skip = ((64 - address % 64) % 64) / sizeof(float);
  a_lanes_ = reinterpret_cast<Lanes8*>(lane_storage_.data() + skip);
  b_lanes_ = reinterpret_cast<Lanes8*>(lane_storage_.data() + skip + lanes);
  out_lanes_ = reinterpret_cast<Lanes8*>(lane_storage_.data() + skip + 2 * lanes);
  ring_.assign(kQuantities * kRingRows * w, 0.0f);
  state_.assign(kQuantities * 3 * 2 * w, 0.0f);
  out_.assign(kQuantities * w, 0.0f);
  zero_.assign(w, 0.0f);
  discard_.assign(w, 0.0f);
  column_sums_.assign(kMapSums * w, 0.0);
}

ScaleNorms ScaleKernel::run(const PlaneSet& a, const PlaneSet& b, unsigned width, unsigned height) {
  double sums[3][kMapSums] = {};
  for (unsigned c = 0; c < 3; ++c) {
    run_channel(a.plane[c], b.plane[c], a.stride, width, height, sums[c]);
  }
  return scale_norms(sums, width, height);
}

void ScaleKernel::run_channel(const float* a, const float* b, std::size_t stride, unsigned width,
                              unsigned height, double* sums) {
  // Zero state for every filter and sum; prev1/prev2 name the two rows of
  // each filter.
  std::fill(state_.begin(), state_.end(), 0.0f);
  std::fill(column_sums_.begin(), column_sums_.end(), 0.0);
  for (unsigned q = 0; q < kQuantities; ++q) {
    for (unsigned f = 0; f < 3; ++f) {
      float* base = state_.data() + ((std::size_t{q} * 3 + f) * 2) * max_width_;
      prev1_[q][f] = base;
      prev2_[q][f] = base + max_width_;
    }
  }

  constexpr int kN = kBlurRadius;
  int next = -kN + 1;  // next output row of the vertical pass (from its warm-up)
  for (unsigned r0 = 0; r0 < height; r0 += kGroupRows) {
    const float* a_rows[kGroupRows];
    const float* b_rows[kGroupRows];
    float* out[kQuantities][kGroupRows];
    for (unsigned l = 0; l < kGroupRows; ++l) {
      const unsigned y = r0 + l;
      const bool inside = y < height;
      a_rows[l] = inside ? a + y * stride : zero_.data();
      b_rows[l] = inside ? b + y * stride : zero_.data();
      for (unsigned q = 0; q < kQuantities; ++q) {
        out[q][l] = inside ? ring_row(q, y) : discard_.data();
      }
    }
    horizontal_group(a_rows, b_rows, width, coef_, a_lanes_, b_lanes_, out_lanes_, out);

    // Output row n reads horizontal rows up to n + N - 1.
    const unsigned done = std::min(r0 + kGroupRows, height);
    const int last = done == height ? static_cast<int>(height) - 1 : static_cast<int>(done) - kN;
    for (; next <= last; ++next) {
      vertical_row(next, a, b, stride, width, height);
    }
  }
  add_columns({column_sums_.data(), max_width_}, width, sums);
}

void ScaleKernel::vertical_row(int n, const float* a, const float* b, std::size_t stride,
                               unsigned width, unsigned height) {
  constexpr int kN = kBlurRadius;
  const int top = n - kN - 1;
  const int bottom = n + kN - 1;
  for (unsigned q = 0; q < kQuantities; ++q) {
    const float* top_row = top >= 0 ? ring_row(q, static_cast<unsigned>(top)) : zero_.data();
    const float* bottom_row = bottom < static_cast<int>(height)
                                  ? ring_row(q, static_cast<unsigned>(bottom))
                                  : zero_.data();
    float* out = n >= 0 ? out_.data() + std::size_t{q} * max_width_ : discard_.data();
    vertical_step(top_row, bottom_row, width, coef_, prev1_[q], prev2_[q], out);
    for (unsigned f = 0; f < 3; ++f) {
      std::swap(prev1_[q][f], prev2_[q][f]);
    }
  }
  if (n < 0) {
    return;
  }
  const std::size_t y = static_cast<std::size_t>(n);
  const auto blurred = [&](unsigned q) { return out_.data() + std::size_t{q} * max_width_; };
  const MapRow row = {a + y * stride, b + y * stride, blurred(kA), blurred(kB),
                      blurred(kAA),   blurred(kBB),   blurred(kAB)};
  accumulate_maps(row, width, {column_sums_.data(), max_width_});
}

}  // namespace vqx::ssimulacra2

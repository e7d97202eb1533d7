// The ANSNR filters and energies, row by row.
//
// libvmaf computes each filtered sample as a float sum, from the top filter
// row down, of row sums, each a float sum of coefficient * sample from the
// leftmost tap; both sums start from 0. VQX does the same operations:
//  * Both filters' rows repeat symmetrically (row k = row Taps-1-k), so the
//    row sum of filter row k along source row r is the same computation
//    whichever output row needs it: each is computed once per source row
//    (PassRing) and reused by the output rows above and below.
//  * Starting a sum from 0 changes nothing: 0 + p = p unless p is -0, and
//    no -0 arises (a sample in 8-bit units minus 128 is +0 when zero; the
//    positive coefficients times nonzero samples of magnitude >= 2^-8 do not
//    underflow; and a sum of floats none of which is -0 is not -0).
// Every loop runs along a row with independent output samples, so the
// compiler vectorises it without reordering any sum. The energies are float
// sums along each row, then over the rows in order, as in ansnr_mse_s().
#include "metrics/ansnr/cpu.hpp"

#include <algorithm>
#include <cassert>

#include "core/index_math.hpp"
#include "metrics/ansnr/pointwise.hpp"
#include "metrics/float_psnr/params.hpp"

namespace vqx::ansnr {

namespace {

// The mirror of params.hpp: -i -> i, n - 1 + i -> n - i
// (reflect101_repeat_end, core/index_math.hpp).
constexpr int mirror(int i, int n) { return reflect101_repeat_end(i, n); }

template <typename Sample>
void convert_row(const Sample* __restrict src, float* __restrict dst, unsigned width,
                 float inv_scale) {
  for (unsigned x = 0; x < width; ++x) {
    dst[x] = sample_value(static_cast<float>(src[x]), inv_scale);
  }
}

// One filter row along one source row: dst[x] = sum over taps t, left to
// right, of c[t] * src[x - Taps/2 + t]. `src` has Taps/2 valid samples
// before index 0 and after index width - 1.
template <std::size_t Taps>
void filter_along(const std::array<float, Taps>& c, const float* __restrict src,
                  float* __restrict dst, unsigned width) {
  constexpr int kRadius = static_cast<int>(Taps / 2);
  for (unsigned x = 0; x < width; ++x) {
    const float* s = src + x - kRadius;
    dst[x] = pass_sum(c, [s](std::size_t t) { return s[t]; });
  }
}

}  // namespace

template <std::size_t Taps>
EnergyKernel::PassRing<Taps>::PassRing(unsigned width, const Filter& filter)
    : filter_(filter),
      width_(width),
      source_(std::size_t{width} + Taps - 1),
      passes_(Taps * kPasses * width) {
  reset(1.0F);
}

template <std::size_t Taps>
const float* EnergyKernel::PassRing<Taps>::pass(const Plane& plane, int y, std::size_t k) {
  const auto slot = static_cast<std::size_t>(y) % Taps;
  float* rows = passes_.data() + slot * kPasses * width_;
  if (cached_[slot] != y) {
    compute_row(plane, y, rows);
    cached_[slot] = y;
  }
  const std::size_t distinct = k < kPasses ? k : Taps - 1 - k;
  return rows + distinct * width_;
}

template <std::size_t Taps>
void EnergyKernel::PassRing<Taps>::compute_row(const Plane& plane, int y, float* dst) {
  constexpr int kRadius = static_cast<int>(Taps / 2);
  float* row = source_.data() + kRadius;
  const auto py = static_cast<unsigned>(y);
  if (plane.bytes_per_sample() == 1) {
    convert_row(plane.row<std::uint8_t>(py), row, width_, inv_scale_);
  } else {
    convert_row(plane.row<std::uint16_t>(py), row, width_, inv_scale_);
  }
  const int w = static_cast<int>(width_);
  for (int k = 1; k <= kRadius; ++k) {
    row[-k] = row[mirror(-k, w)];
    row[w - 1 + k] = row[mirror(w - 1 + k, w)];
  }
  for (std::size_t p = 0; p < kPasses; ++p) {
    filter_along<Taps>(filter_[p], row, dst + p * width_, width_);
  }
}

EnergyKernel::EnergyKernel(unsigned width, unsigned height)
    : width_(width),
      height_(height),
      ref_passes_(width, kRefFilter),
      dis_passes_(width, kDisFilter),
      ref_filtered_(std::size_t{width} * kRowsAtOnce),
      dis_filtered_(std::size_t{width} * kRowsAtOnce) {
  assert(width >= kMinDimension && height >= kMinDimension);
}

Energies EnergyKernel::compute(const Plane& ref, const Plane& dist, unsigned bpc) {
  const float inv_scale = 1.0F / float_psnr::sample_scale(bpc);  // exact: a power of 2
  ref_passes_.reset(inv_scale);
  dis_passes_.reset(inv_scale);
  Energies total{0.0F, 0.0F};
  for (unsigned y0 = 0; y0 < height_; y0 += kRowsAtOnce) {
    const unsigned rows = std::min(kRowsAtOnce, height_ - y0);
    for (unsigned k = 0; k < rows; ++k) {
      filter_row(ref, dist, y0 + k, k);
    }
    std::array<Energies, kRowsAtOnce> sums{};
    if (rows == kRowsAtOnce) {
      row_energies<kRowsAtOnce>(0, sums);
    } else {
      for (unsigned k = 0; k < rows; ++k) {
        row_energies<1>(k, std::span(sums).subspan(k, 1));
      }
    }
    // The picture's sums, over the rows in order (ansnr_mse_s()).
    for (unsigned k = 0; k < rows; ++k) {
      add_row(total, sums[k]);
    }
  }
  return total;
}

void EnergyKernel::filter_row(const Plane& ref, const Plane& dist, unsigned y, unsigned k) {
  const int h = static_cast<int>(height_);
  const int iy = static_cast<int>(y);
  float* __restrict rf = ref_filtered_.data() + std::size_t{k} * width_;
  float* __restrict df = dis_filtered_.data() + std::size_t{k} * width_;

  // The reference picture's 3x3 filter: the sum of its row sums, top down.
  const float* __restrict r0 = ref_passes_.pass(ref, mirror(iy - 1, h), 0);
  const float* __restrict r1 = ref_passes_.pass(ref, iy, 1);
  const float* __restrict r2 = ref_passes_.pass(ref, mirror(iy + 1, h), 2);
  for (unsigned x = 0; x < width_; ++x) {
    rf[x] = ref_filtered(r0[x], r1[x], r2[x]);
  }

  // The distorted picture's 5x5 filter.
  const float* __restrict d0 = dis_passes_.pass(dist, mirror(iy - 2, h), 0);
  const float* __restrict d1 = dis_passes_.pass(dist, mirror(iy - 1, h), 1);
  const float* __restrict d2 = dis_passes_.pass(dist, iy, 2);
  const float* __restrict d3 = dis_passes_.pass(dist, mirror(iy + 1, h), 3);
  const float* __restrict d4 = dis_passes_.pass(dist, mirror(iy + 2, h), 4);
  for (unsigned x = 0; x < width_; ++x) {
    df[x] = dis_filtered(d0[x], d1[x], d2[x], d3[x], d4[x]);
  }
}

template <unsigned Rows>
void EnergyKernel::row_energies(unsigned first, std::span<Energies> out) const {
  // Each row's sums run left to right, as ansnr_mse_s() does; the rows'
  // chains are independent, so the processor overlaps their latencies.
  std::array<const float*, Rows> rf{};
  std::array<const float*, Rows> df{};
  for (unsigned k = 0; k < Rows; ++k) {
    rf[k] = ref_filtered_.data() + std::size_t{first + k} * width_;
    df[k] = dis_filtered_.data() + std::size_t{first + k} * width_;
  }
  std::array<float, Rows> signal{};
  std::array<float, Rows> noise{};
  for (unsigned x = 0; x < width_; ++x) {
    for (unsigned k = 0; k < Rows; ++k) {
      signal[k] += signal_term(rf[k][x]);
      noise[k] += noise_term(rf[k][x], df[k][x]);
    }
  }
  for (unsigned k = 0; k < Rows; ++k) {
    out[k] = {signal[k], noise[k]};
  }
}

}  // namespace vqx::ansnr

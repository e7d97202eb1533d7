// The plain-loop forms of the row kernels (the reference the Highway ones in
// convolve_simd.cpp are tested against) and the filters built on them.
#include "metrics/float_common/convolve.hpp"

#include <array>
#include <cassert>

#include "core/kernel_build.hpp"

namespace vqx::float_common {

namespace {

// The kernels keep a block of column sums in registers while the taps go
// by; the sum of each column starts at 0.0f and adds the products in order
// of k, exactly as libvmaf's loops (C and AVX) do. kBlock columns: one
// AVX-512, two AVX2 or four SSE registers, whose dependency chains run side
// by side. (Wider blocks, or GCC vector types, were slower on some of the
// three targets.)
constexpr std::size_t kBlock = 16;

// out[j] = sum over k of term(k, j), for j < width.
template <typename Term>
VQX_FORCE_INLINE void accumulate(std::size_t ntaps, std::size_t width, float* __restrict out,
                                 const Term& term) {
  std::size_t j = 0;
  for (; j + kBlock <= width; j += kBlock) {
    float acc[kBlock];
    for (std::size_t b = 0; b < kBlock; ++b) acc[b] = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) {
      for (std::size_t b = 0; b < kBlock; ++b) acc[b] += term(k, j + b);
    }
    for (std::size_t b = 0; b < kBlock; ++b) out[j + b] = acc[b];
  }
  for (; j < width; ++j) {
    float acc = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) acc += term(k, j);
    out[j] = acc;
  }
}

}  // namespace

namespace reference {

// (Still under VQX_CLONES: bench/simd.sh times them against Highway's.)
VQX_CLONES
void weighted_rows(std::span<const float> taps, const float* const* rows, unsigned width,
                   float* out) {
  const float* f = taps.data();
  accumulate(taps.size(), width, out,
             [&](std::size_t k, std::size_t j) VQX_INLINE_LAMBDA { return f[k] * rows[k][j]; });
}

// The five sums of one column block side by side, so that each sample is
// loaded once for all five.
VQX_CLONES
void weighted_rows_moments(std::span<const float> taps, const float* const* a,
                           const float* const* b, unsigned width, float* const* out) {
  const float* f = taps.data();
  const std::size_t ntaps = taps.size();
  float* __restrict o0 = out[0];
  float* __restrict o1 = out[1];
  float* __restrict o2 = out[2];
  float* __restrict o3 = out[3];
  float* __restrict o4 = out[4];
  std::size_t j = 0;
  for (; j + kBlock <= width; j += kBlock) {
    float s0[kBlock], s1[kBlock], s2[kBlock], s3[kBlock], s4[kBlock];
    for (std::size_t c = 0; c < kBlock; ++c) {
      s0[c] = 0.0f;
      s1[c] = 0.0f;
      s2[c] = 0.0f;
      s3[c] = 0.0f;
      s4[c] = 0.0f;
    }
    for (std::size_t k = 0; k < ntaps; ++k) {
      const float t = f[k];
      const float* ra = a[k] + j;
      const float* rb = b[k] + j;
      for (std::size_t c = 0; c < kBlock; ++c) {
        const float x = ra[c];
        const float y = rb[c];
        s0[c] += t * x;
        s1[c] += t * y;
        s2[c] += t * (x * x);
        s3[c] += t * (y * y);
        s4[c] += t * (x * y);
      }
    }
    for (std::size_t c = 0; c < kBlock; ++c) {
      o0[j + c] = s0[c];
      o1[j + c] = s1[c];
      o2[j + c] = s2[c];
      o3[j + c] = s3[c];
      o4[j + c] = s4[c];
    }
  }
  for (; j < width; ++j) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f, s4 = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) {
      const float x = a[k][j];
      const float y = b[k][j];
      s0 += f[k] * x;
      s1 += f[k] * y;
      s2 += f[k] * (x * x);
      s3 += f[k] * (y * y);
      s4 += f[k] * (x * y);
    }
    o0[j] = s0;
    o1[j] = s1;
    o2[j] = s2;
    o3[j] = s3;
    o4[j] = s4;
  }
}

}  // namespace reference

void mirror_pad(float* row, unsigned width, unsigned radius) {
  assert(radius < width);
  pad_reflect101(row, static_cast<int>(width), static_cast<int>(radius));
}

// The horizontal passes read tap k of output j at start[j + k]: handing
// the kernels one pointer per tap keeps their loads contiguous in j.
void filter_row(std::span<const float> taps, const float* padded, unsigned width, float* out) {
  std::array<const float*, kMaxTaps> shifted;  // the first taps.size() are set
  const float* start = padded - taps.size() / 2;
  for (std::size_t k = 0; k < taps.size(); ++k) shifted[k] = start + k;
  weighted_rows(taps, shifted.data(), width, out);
}

VQX_CLONES
void filter_row_even(std::span<const float> taps, const float* padded, unsigned out_width,
                     float* out) {
  std::array<const float*, kMaxTaps> shifted;  // the first taps.size() are set
  const float* start = padded - taps.size() / 2;
  for (std::size_t k = 0; k < taps.size(); ++k) shifted[k] = start + k;
  const float* f = taps.data();
  const float* const* rows = shifted.data();
  accumulate(taps.size(), out_width, out,
             [&](std::size_t k, std::size_t j) VQX_INLINE_LAMBDA { return f[k] * rows[k][2 * j]; });
}

std::size_t filter_scratch_size(unsigned width, unsigned taps) {
  return std::size_t{width} + 2 * std::size_t{taps / 2};
}

void filter_image(std::span<const float> taps, const FloatImage& src, FloatImage& dst,
                  std::span<float> scratch) {
  FloatRows rows;
  rows.read_image(src);
  filter_image(taps, rows, dst, scratch);
}

void filter_image(std::span<const float> taps, FloatRows& src, FloatImage& dst,
                  std::span<float> scratch) {
  const unsigned n = static_cast<unsigned>(taps.size());
  const unsigned radius = n / 2;
  const unsigned w = src.width();
  const int h = static_cast<int>(src.height());
  assert(n % 2 == 1 && n <= kMaxTaps);
  assert(w >= min_side_for_taps(n) && src.height() >= min_side_for_taps(n));
  assert(dst.width() == w && dst.height() == src.height());
  assert(scratch.size() >= filter_scratch_size(w, n));
  float* padded = scratch.data() + radius;
  std::array<const float*, kMaxTaps> rows{};
  for (int i = 0; i < h; ++i) {
    for (unsigned k = 0; k < n; ++k) {
      rows[k] = src.row(
          static_cast<unsigned>(reflect(i - static_cast<int>(radius) + static_cast<int>(k), h)));
    }
    weighted_rows(taps, rows.data(), w, padded);
    mirror_pad(padded, w, radius);
    filter_row(taps, padded, w, dst.row(static_cast<unsigned>(i)));
  }
}

}  // namespace vqx::float_common

// weighted_rows() and weighted_rows_moments() of convolve.hpp, written with
// Highway's portable vectors and compiled for each of its targets
// (HWY_DYNAMIC_DISPATCH picks one per call, that is per row). Every column's
// sum starts at 0.0f and adds the rounded products tap * sample in order of
// the taps, each product and each sum rounded on its own (hn::Mul then
// hn::Add, never MulAdd: the library's no-fusion rule), so every target
// gives the bits of the plain loops in convolve.cpp (`reference::`), which
// are libvmaf's; the unit tests hold every target the CPU has to them.
//
// Each column's sum is a chain of dependent adds, so columns go several
// vectors at a time, their chains side by side: weighted_rows() four
// vectors (32 columns with AVX2; with two, as before, its chains' latency
// bounded it: float_vif took 5 % less CPU time with four, and six were no
// faster, docs/performance.md), weighted_rows_moments() two (its five
// moments make ten chains); the columns left over go two vectors, one
// vector, then one lane at a time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/float_common/convolve_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (foreach_target.h includes this file once per target, then once more.)
#include <hwy/highway.h>

#include <cstddef>

#include "metrics/float_common/convolve.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::float_common::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

// sum over k of taps[k] * rows[k][j .. j + lanes) for `Vectors` vectors.
template <std::size_t Vectors>
HWY_INLINE void WeightedBlock(const float* HWY_RESTRICT taps, std::size_t ntaps,
                              const float* const* rows, std::size_t j, float* HWY_RESTRICT out) {
  const DF d;
  const std::size_t n = hn::Lanes(d);
  VF acc[Vectors];
  for (std::size_t v = 0; v < Vectors; ++v) acc[v] = hn::Zero(d);
  for (std::size_t k = 0; k < ntaps; ++k) {
    const VF t = hn::Set(d, taps[k]);
    for (std::size_t v = 0; v < Vectors; ++v) {
      acc[v] = hn::Add(acc[v], hn::Mul(t, hn::LoadU(d, rows[k] + j + v * n)));
    }
  }
  for (std::size_t v = 0; v < Vectors; ++v) hn::StoreU(acc[v], d, out + j + v * n);
}

void WeightedRows(const float* HWY_RESTRICT taps, std::size_t ntaps, const float* const* rows,
                  std::size_t width, float* HWY_RESTRICT out) {
  const std::size_t n = hn::Lanes(DF());
  std::size_t j = 0;
  for (; j + 4 * n <= width; j += 4 * n) WeightedBlock<4>(taps, ntaps, rows, j, out);
  for (; j + 2 * n <= width; j += 2 * n) WeightedBlock<2>(taps, ntaps, rows, j, out);
  for (; j + n <= width; j += n) WeightedBlock<1>(taps, ntaps, rows, j, out);
  for (; j < width; ++j) {
    float acc = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) acc += taps[k] * rows[k][j];
    out[j] = acc;
  }
}

// The five moments of `Vectors` vectors of columns from j.
template <std::size_t Vectors>
HWY_INLINE void MomentsBlock(const float* HWY_RESTRICT taps, std::size_t ntaps,
                             const float* const* a, const float* const* b, std::size_t j,
                             float* const* out) {
  const DF d;
  const std::size_t n = hn::Lanes(d);
  VF s[5][Vectors];
  for (auto& m : s) {
    for (std::size_t v = 0; v < Vectors; ++v) m[v] = hn::Zero(d);
  }
  for (std::size_t k = 0; k < ntaps; ++k) {
    const VF t = hn::Set(d, taps[k]);
    for (std::size_t v = 0; v < Vectors; ++v) {
      const VF x = hn::LoadU(d, a[k] + j + v * n);
      const VF y = hn::LoadU(d, b[k] + j + v * n);
      s[0][v] = hn::Add(s[0][v], hn::Mul(t, x));
      s[1][v] = hn::Add(s[1][v], hn::Mul(t, y));
      s[2][v] = hn::Add(s[2][v], hn::Mul(t, hn::Mul(x, x)));
      s[3][v] = hn::Add(s[3][v], hn::Mul(t, hn::Mul(y, y)));
      s[4][v] = hn::Add(s[4][v], hn::Mul(t, hn::Mul(x, y)));
    }
  }
  for (std::size_t m = 0; m < 5; ++m) {
    for (std::size_t v = 0; v < Vectors; ++v) hn::StoreU(s[m][v], d, out[m] + j + v * n);
  }
}

void WeightedRowsMoments(const float* HWY_RESTRICT taps, std::size_t ntaps, const float* const* a,
                         const float* const* b, std::size_t width, float* const* out) {
  const std::size_t n = hn::Lanes(DF());
  std::size_t j = 0;
  for (; j + 2 * n <= width; j += 2 * n) MomentsBlock<2>(taps, ntaps, a, b, j, out);
  for (; j + n <= width; j += n) MomentsBlock<1>(taps, ntaps, a, b, j, out);
  for (; j < width; ++j) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f, s4 = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) {
      const float x = a[k][j];
      const float y = b[k][j];
      s0 += taps[k] * x;
      s1 += taps[k] * y;
      s2 += taps[k] * (x * x);
      s3 += taps[k] * (y * y);
      s4 += taps[k] * (x * y);
    }
    out[0][j] = s0;
    out[1][j] = s1;
    out[2][j] = s2;
    out[3][j] = s3;
    out[4][j] = s4;
  }
}

}  // namespace vqx::float_common::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::float_common {

HWY_EXPORT(WeightedRows);
HWY_EXPORT(WeightedRowsMoments);

void weighted_rows(std::span<const float> taps, const float* const* rows, unsigned width,
                   float* out) {
  HWY_DYNAMIC_DISPATCH(WeightedRows)(taps.data(), taps.size(), rows, width, out);
}

void weighted_rows_moments(std::span<const float> taps, const float* const* a,
                           const float* const* b, unsigned width, float* const* out) {
  HWY_DYNAMIC_DISPATCH(WeightedRowsMoments)(taps.data(), taps.size(), a, b, width, out);
}

}  // namespace vqx::float_common
#endif

// filters.hpp's three filters written with Highway's portable vectors, for
// each of its targets (HWY_DYNAMIC_DISPATCH picks one per call, that is per
// row).
//
// A sum is double and its terms are float products, so a vector of sums
// takes half a vector of floats: the products are made as floats (as many
// lanes as a double vector has), widened (PromoteTo) and added, tap after
// tap in the reference's order, starting from 0.0; the float product, the
// widening and the double add are each exact to the reference's bits, and
// DemoteTo rounds the sum to nearest as static_cast<float> does. The
// widening, not the arithmetic, bounds these loops (about one per cycle on
// the machine of docs/performance.md), and each output's sum is a chain of
// dependent adds, so outputs go eight vectors at a time (their chains side
// by side: float_ms_ssim took 7 % less CPU time than with four on AVX2;
// one vector of eight floats widened in two halves was slower, the halves'
// extraction costing as much as the widening); the outputs left over go
// four, two and one vector, then one at a time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "metrics/ssim/filters_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// (foreach_target.h includes this file once per target, then once more.)
#include <hwy/highway.h>

#include <cstddef>

#include "metrics/ssim/filters.hpp"

HWY_BEFORE_NAMESPACE();
namespace vqx::ssim::HWY_NAMESPACE {

#if HWY_HAVE_FLOAT64
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using DF = hn::Rebind<float, DD>;  // as many floats as DD has doubles
using VD = hn::Vec<DD>;

// One term of every lane's sum: the float products sample * tap, widened.
HWY_INLINE VD Term(const float* HWY_RESTRICT samples, float tap) {
  const DF df;
  return hn::PromoteTo(DD(), hn::Mul(hn::LoadU(df, samples), hn::Set(df, tap)));
}

HWY_INLINE void StoreSums(const VD* sums, std::size_t vectors, float* HWY_RESTRICT out) {
  const DF df;
  const std::size_t n = hn::Lanes(df);
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128
  // These targets' DemoteTo saturates at float's largest value, where the
  // reference's cast rounds a sum past it to infinity.
  for (std::size_t v = 0; v < vectors; ++v) {
    for (std::size_t i = 0; i < n; ++i) {
      out[v * n + i] = static_cast<float>(hn::ExtractLane(sums[v], i));
    }
  }
#else
  for (std::size_t v = 0; v < vectors; ++v) hn::StoreU(hn::DemoteTo(df, sums[v]), df, out + v * n);
#endif
}

template <std::size_t Vectors>
HWY_INLINE void GaussianRowBlock(const float* HWY_RESTRICT in, float* HWY_RESTRICT out) {
  const std::size_t n = hn::Lanes(DD());
  VD s[Vectors];
  for (VD& v : s) v = hn::Zero(DD());
  for (int t = 0; t < kWindow; ++t) {
    for (std::size_t v = 0; v < Vectors; ++v) {
      s[v] = hn::Add(s[v], Term(in + v * n + t, kGaussian[t]));
    }
  }
  StoreSums(s, Vectors, out);
}

template <std::size_t Vectors>
HWY_INLINE void GaussianColumnBlock(const float* const* rows, std::size_t x,
                                    float* HWY_RESTRICT out) {
  const std::size_t n = hn::Lanes(DD());
  VD s[Vectors];
  for (VD& v : s) v = hn::Zero(DD());
  for (int t = 0; t < kWindow; ++t) {
    for (std::size_t v = 0; v < Vectors; ++v) {
      s[v] = hn::Add(s[v], Term(rows[t] + x + v * n, kGaussian[t]));
    }
  }
  StoreSums(s, Vectors, out + x);
}

template <std::size_t Vectors>
HWY_INLINE void LowPassBlock(const float* const* rows, const float* HWY_RESTRICT taps,
                             std::size_t phase_stride, std::size_t x, float* HWY_RESTRICT out) {
  const std::size_t n = hn::Lanes(DD());
  VD s[Vectors];
  for (VD& v : s) v = hn::Zero(DD());
  for (int v = 0; v < kLpfSize; ++v) {
    for (int u = 0; u < kLpfSize; ++u) {
      const float* in = rows[v] + (u % 2) * phase_stride + u / 2 + x;
      const float tap = taps[v * kLpfSize + u];
      for (std::size_t k = 0; k < Vectors; ++k) s[k] = hn::Add(s[k], Term(in + k * n, tap));
    }
  }
  StoreSums(s, Vectors, out + x);
}

void GaussianRow(const float* HWY_RESTRICT in, float* HWY_RESTRICT out, int count) {
  const std::size_t n = hn::Lanes(DD());
  const auto total = static_cast<std::size_t>(count);
  std::size_t x = 0;
  for (; x + 8 * n <= total; x += 8 * n) GaussianRowBlock<8>(in + x, out + x);
  for (; x + 4 * n <= total; x += 4 * n) GaussianRowBlock<4>(in + x, out + x);
  for (; x + 2 * n <= total; x += 2 * n) GaussianRowBlock<2>(in + x, out + x);
  for (; x + n <= total; x += n) GaussianRowBlock<1>(in + x, out + x);
  for (; x < total; ++x) out[x] = reference::gaussian_row_at(in, static_cast<int>(x));
}

void GaussianColumn(const float* const* rows, float* HWY_RESTRICT out, int count) {
  const std::size_t n = hn::Lanes(DD());
  const auto total = static_cast<std::size_t>(count);
  std::size_t x = 0;
  for (; x + 8 * n <= total; x += 8 * n) GaussianColumnBlock<8>(rows, x, out);
  for (; x + 4 * n <= total; x += 4 * n) GaussianColumnBlock<4>(rows, x, out);
  for (; x + 2 * n <= total; x += 2 * n) GaussianColumnBlock<2>(rows, x, out);
  for (; x + n <= total; x += n) GaussianColumnBlock<1>(rows, x, out);
  for (; x < total; ++x) out[x] = reference::gaussian_column_at(rows, static_cast<int>(x));
}

void LowPassRow(const float* const* rows, const float* HWY_RESTRICT taps, int phase_stride,
                float* HWY_RESTRICT out, int count) {
  const std::size_t n = hn::Lanes(DD());
  const auto total = static_cast<std::size_t>(count);
  const auto stride = static_cast<std::size_t>(phase_stride);
  std::size_t x = 0;
  for (; x + 8 * n <= total; x += 8 * n) LowPassBlock<8>(rows, taps, stride, x, out);
  for (; x + 4 * n <= total; x += 4 * n) LowPassBlock<4>(rows, taps, stride, x, out);
  for (; x + 2 * n <= total; x += 2 * n) LowPassBlock<2>(rows, taps, stride, x, out);
  for (; x + n <= total; x += n) LowPassBlock<1>(rows, taps, stride, x, out);
  for (; x < total; ++x) {
    out[x] = reference::low_pass_at(rows, taps, phase_stride, static_cast<int>(x));
  }
}

#else  // a target without double vectors: the reference loops

void GaussianRow(const float* in, float* out, int count) {
  reference::gaussian_row(in, out, count);
}
void GaussianColumn(const float* const* rows, float* out, int count) {
  reference::gaussian_column(rows, out, count);
}
void LowPassRow(const float* const* rows, const float* taps, int phase_stride, float* out,
                int count) {
  reference::low_pass_row(rows, taps, phase_stride, out, count);
}

#endif  // HWY_HAVE_FLOAT64

}  // namespace vqx::ssim::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vqx::ssim {

HWY_EXPORT(GaussianRow);
HWY_EXPORT(GaussianColumn);
HWY_EXPORT(LowPassRow);

void gaussian_row(const float* in, float* out, int count) {
  HWY_DYNAMIC_DISPATCH(GaussianRow)(in, out, count);
}

void gaussian_column(const float* const* rows, float* out, int count) {
  HWY_DYNAMIC_DISPATCH(GaussianColumn)(rows, out, count);
}

void low_pass_row(const float* const* rows, const float* taps, int phase_stride, float* out,
                  int count) {
  HWY_DYNAMIC_DISPATCH(LowPassRow)(rows, taps, phase_stride, out, count);
}

}  // namespace vqx::ssim
#endif

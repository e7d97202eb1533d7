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

// The sums of `Vectors` vectors of outputs from x, each from 0.0: for k = 0
// .. terms - 1 in order, the products of tap(k) and the samples from
// samples(k) + x (lane i of the block: output x + i), widened and added.
template <std::size_t Vectors, class Samples, class Tap>
HWY_INLINE void SumBlock(std::size_t x, int terms, const Samples& samples, const Tap& tap,
                         float* HWY_RESTRICT out) {
  const std::size_t n = hn::Lanes(DD());
  VD s[Vectors];
  for (VD& v : s) v = hn::Zero(DD());
  for (int k = 0; k < terms; ++k) {
    const float* in = samples(k) + x;
    const float t = tap(k);
    for (std::size_t v = 0; v < Vectors; ++v) s[v] = hn::Add(s[v], Term(in + v * n, t));
  }
  StoreSums(s, Vectors, out + x);
}

// Every output of [0, total): eight, four, two and one vector of them at a
// time, then the rest one by one with `one(x)`, the reference's.
template <class Samples, class Tap, class One>
HWY_INLINE void SumRow(std::size_t total, int terms, const Samples& samples, const Tap& tap,
                       const One& one, float* HWY_RESTRICT out) {
  const std::size_t n = hn::Lanes(DD());
  std::size_t x = 0;
  for (; x + 8 * n <= total; x += 8 * n) SumBlock<8>(x, terms, samples, tap, out);
  for (; x + 4 * n <= total; x += 4 * n) SumBlock<4>(x, terms, samples, tap, out);
  for (; x + 2 * n <= total; x += 2 * n) SumBlock<2>(x, terms, samples, tap, out);
  for (; x + n <= total; x += n) SumBlock<1>(x, terms, samples, tap, out);
  for (; x < total; ++x) out[x] = one(static_cast<int>(x));
}

void GaussianRow(const float* HWY_RESTRICT in, float* HWY_RESTRICT out, int count) {
  SumRow(
      static_cast<std::size_t>(count), kWindow, [in](int t) { return in + t; },
      [](int t) { return kGaussian[static_cast<std::size_t>(t)]; },
      [in](int x) { return reference::gaussian_row_at(in, x); }, out);
}

void GaussianColumn(const float* const* rows, float* HWY_RESTRICT out, int count) {
  SumRow(
      static_cast<std::size_t>(count), kWindow, [rows](int t) { return rows[t]; },
      [](int t) { return kGaussian[static_cast<std::size_t>(t)]; },
      [rows](int x) { return reference::gaussian_column_at(rows, x); }, out);
}

// Term k is tap (v, u) = (k / kLpfSize, k % kLpfSize): row v, then column u.
void LowPassRow(const float* const* rows, const float* HWY_RESTRICT taps, int phase_stride,
                float* HWY_RESTRICT out, int count) {
  SumRow(
      static_cast<std::size_t>(count), kLpfTaps,
      [rows, phase_stride](int k) {
        const int u = k % kLpfSize;
        return rows[k / kLpfSize] + (u % kLpfFactor) * phase_stride + u / kLpfFactor;
      },
      [taps](int k) { return taps[k]; },
      [rows, taps, phase_stride](int x) {
        return reference::low_pass_at(rows, taps, phase_stride, x);
      },
      out);
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

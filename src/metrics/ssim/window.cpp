// The window is separable: each input row is filtered horizontally into a
// ring of the last kWindow rows (one ring per quantity), and each output row
// is the vertical filter over the ring. libvmaf computes the same sums
// (iqa/convolve.c, _iqa_convolve with IQA_CONVOLVE_1D): per output, the 11
// products tap * sample, each rounded to float, added in order in double,
// and the sum rounded to float (filters.hpp). The per-position terms are
// computed with libvmaf's mix of float and double operations (pointwise.hpp,
// shared with the GPU twin), over a row at a time (the loops vectorise), and
// summed in double in the fixed order of params.hpp (kSumSegment,
// kSumGroup), which the GPU twin follows too: libvmaf's one row-major chain
// gives the same float means but for a sum within a few double ulps of a
// float's rounding boundary (docs/metrics.md).
#include "metrics/ssim/window.hpp"

#include <cassert>
#include <cmath>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/kernel_build.hpp"
#include "metrics/ssim/filters.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"

namespace vqx::ssim {

namespace {

// The products of one input row that the second moments filter.
VQX_CLONES void row_products(const float* __restrict a, const float* __restrict b,
                             float* __restrict aa, float* __restrict bb, float* __restrict ab,
                             int count) {
  for (int x = 0; x < count; ++x) {
    aa[x] = square(a[x]);
    bb[x] = square(b[x]);
    ab[x] = product(a[x], b[x]);
  }
}

// The variances and the covariance of one output row, in place of the
// second moments and the cross moment (m11 -> var1, m22 -> var2, m12 ->
// cov), and the product var1 * var2 in `prod` (pointwise.hpp: moments()).
VQX_CLONES void row_moments(const float* __restrict mu1, const float* __restrict mu2,
                            float* __restrict m11, float* __restrict m22, float* __restrict m12,
                            float* __restrict prod, int count) {
  for (int x = 0; x < count; ++x) {
    const Moments m = moments(mu1[x], mu2[x], m11[x], m22[x], m12[x]);
    m11[x] = m.var1;
    m22[x] = m.var2;
    m12[x] = m.cov;
    prod[x] = m.product;
  }
}

// v[x] = sqrt(v[x]) over a row. libvmaf takes the double root of the float
// value and rounds it to float, which is the float root (53 >= 2 * 24 + 2
// bits). GCC vectorises std::sqrt only under -fno-math-errno, which this
// file is not compiled with, hence the SSE form on x86-64.
VQX_CLONES void root_row(float* v, int count) {
  int x = 0;
#if defined(__SSE2__)
  for (; x + 4 <= count; x += 4) _mm_storeu_ps(v + x, _mm_sqrt_ps(_mm_loadu_ps(v + x)));
#endif
  for (; x < count; ++x) v[x] = std::sqrt(v[x]);
}

// The SSIM terms at each position of one output row, from the means, the
// variances, the covariance and the root of the variances' product
// (pointwise.hpp: terms()).
VQX_CLONES void row_terms(const float* __restrict mu1, const float* __restrict mu2,
                          const float* __restrict var1, const float* __restrict var2,
                          const float* __restrict cov, const float* __restrict sd12,
                          double* __restrict ssim, double* __restrict lum, double* __restrict con,
                          double* __restrict str, int count) {
  for (int x = 0; x < count; ++x) {
    const Terms t = terms(mu1[x], mu2[x], var1[x], var2[x], cov[x], sd12[x]);
    ssim[x] = t.ssim;
    lum[x] = t.l;
    con[x] = t.c;
    str[x] = t.s;
  }
}

}  // namespace

void SsimWindow::init(int max_width) {
  assert(max_width >= kWindow);
  max_in_ = static_cast<std::size_t>(max_width);
  max_out_ = max_in_ - (kWindow - 1);
  rows_.assign(kInputRows * max_in_, 0.0f);
  hrows_.assign(kMaps * kWindow * max_out_, 0.0f);
  vrows_.assign(kMaps * max_out_, 0.0f);
  terms_.assign(kTerms * max_out_, 0.0);
}

float* SsimWindow::hrow(int map, int slot) {
  return hrows_.data() +
         (static_cast<std::size_t>(map) * kWindow + static_cast<std::size_t>(slot)) * max_out_;
}

float* SsimWindow::vrow(int map) {
  return vrows_.data() + static_cast<std::size_t>(map) * max_out_;
}

double* SsimWindow::term_row(int term) {
  return terms_.data() + static_cast<std::size_t>(term) * max_out_;
}

WindowMeans SsimWindow::compute(const RowSource& ref, const RowSource& cmp) {
  const int w = ref.width();
  const int h = ref.height();
  assert(cmp.width() == w && cmp.height() == h);
  assert(w >= kWindow && h >= kWindow && static_cast<std::size_t>(w) <= max_in_);
  const int ow = w - (kWindow - 1);
  const int oh = h - (kWindow - 1);

  float* ref_scratch = rows_.data();
  float* cmp_scratch = ref_scratch + max_in_;
  float* aa = cmp_scratch + max_in_;
  float* bb = aa + max_in_;
  float* ab = bb + max_in_;
  // The terms' sums, row by row in order (pointwise.hpp: row_sum()).
  TermSums sums{};
  for (int r = 0; r < h; ++r) {
    const int slot = r % kWindow;
    const float* a = ref.row(r, ref_scratch);
    const float* b = cmp.row(r, cmp_scratch);
    row_products(a, b, aa, bb, ab, w);
    gaussian_row(a, hrow(kRef, slot), ow);
    gaussian_row(b, hrow(kCmp, slot), ow);
    gaussian_row(aa, hrow(kRefSq, slot), ow);
    gaussian_row(bb, hrow(kCmpSq, slot), ow);
    gaussian_row(ab, hrow(kCross, slot), ow);
    if (r < kWindow - 1) continue;

    // Output row r - 10 filters input rows r - 10 .. r, oldest first.
    const int top = r - (kWindow - 1);
    for (int m = 0; m < kMaps; ++m) {
      const float* rows[kWindow];
      for (int v = 0; v < kWindow; ++v) rows[v] = hrow(m, (top + v) % kWindow);
      gaussian_column(rows, vrow(m), ow);
    }
    float* sd12 = aa;  // the input row's products are no longer needed
    row_moments(vrow(kRef), vrow(kCmp), vrow(kRefSq), vrow(kCmpSq), vrow(kCross), sd12, ow);
    root_row(sd12, ow);
    row_terms(vrow(kRef), vrow(kCmp), vrow(kRefSq), vrow(kCmpSq), vrow(kCross), sd12,
              term_row(kTermSsim), term_row(kTermL), term_row(kTermC), term_row(kTermS), ow);
    for (int k = 0; k < kTerms; ++k) sums[k] += row_sum(term_row(k), ow);
  }
  return window_means(sums, ow * oh);
}

}  // namespace vqx::ssim

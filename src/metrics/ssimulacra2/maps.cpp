#include "metrics/ssimulacra2/maps.hpp"

#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/pointwise.hpp"

#include "core/kernel_build.hpp"

// The 8-wide vectors pass between forced-inline helpers only (see blur.cpp).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace vqx::ssimulacra2 {

namespace {

// Eight columns at a time (errors8 is pointwise.hpp's pixel_errors on 8
// lanes: the same operations in the same order; add_pixel calls it), each
// column's terms added to its own sums: the GPU twin's order (params.hpp).
using Float8 = float __attribute__((vector_size(32)));
using Double8 = double __attribute__((vector_size(64)));
constexpr unsigned kLanes = 8;
static_assert(sizeof(Float8) == kLanes * sizeof(float));

VQX_FORCE_INLINE Float8 load8(const float* p) {
  Float8 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

VQX_FORCE_INLINE Float8 abs8(Float8 v) { return v < 0.0f ? -v : v; }

VQX_FORCE_INLINE Double8 quartic8(Double8 x) {
  const Double8 x2 = x * x;
  return x2 * x2;
}

// SSIM' error and edge difference of eight pixels, as libjxl computes each.
struct Errors8 {
  Double8 ssim;
  Double8 edge;
};

VQX_FORCE_INLINE Errors8 errors8(const MapRow& r, unsigned x) {
  const Float8 mu1 = load8(r.mu1 + x);
  const Float8 mu2 = load8(r.mu2 + x);
  const Float8 mu11 = mu1 * mu1;
  const Float8 mu22 = mu2 * mu2;
  const Float8 mu12 = mu1 * mu2;
  const Float8 diff = mu1 - mu2;
  const Float8 num_m = 1.0f - (diff * diff);
  const Float8 num_s = (2.0f * (load8(r.s12 + x) - mu12)) + kC2;
  const Float8 denom_s = ((load8(r.s11 + x) - mu11) + (load8(r.s22 + x) - mu22)) + kC2;
  const Double8 d = 1.0 - __builtin_convertvector((num_m * num_s) / denom_s, Double8);
  const Double8 edge_b = __builtin_convertvector(abs8(load8(r.b + x) - mu2), Double8);
  const Double8 edge_a = __builtin_convertvector(abs8(load8(r.a + x) - mu1), Double8);
  return {d > 0.0 ? d : 0.0, ((1.0 + edge_b) / (1.0 + edge_a)) - 1.0};
}

VQX_FORCE_INLINE Double8 load8d(const double* p) {
  Double8 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

VQX_FORCE_INLINE void add8d(double* p, Double8 v) {
  const Double8 sum = load8d(p) + v;
  __builtin_memcpy(p, &sum, sizeof sum);
}

VQX_FORCE_INLINE void add_pixel(const MapRow& r, unsigned x, const ColumnSums& columns) {
  const PixelTerms t =
      pixel_terms(pixel_errors(r.a[x], r.b[x], r.mu1[x], r.mu2[x], r.s11[x], r.s22[x], r.s12[x]));
  for (unsigned m = 0; m < kMapSums; ++m) {
    columns.sums[m * columns.stride + x] += t.v[m];
  }
}

}  // namespace

VQX_CLONES void accumulate_maps(const MapRow& row, unsigned width, const ColumnSums& columns) {
  double* const s = columns.sums;
  const std::size_t stride = columns.stride;
  unsigned x = 0;
  for (; x + kLanes <= width; x += kLanes) {
    const Errors8 e = errors8(row, x);
    const Double8 ringing = e.edge > 0.0 ? e.edge : 0.0;
    const Double8 blurring = -e.edge > 0.0 ? -e.edge : 0.0;
    add8d(s + kSsim * stride + x, e.ssim);
    add8d(s + kSsim4 * stride + x, quartic8(e.ssim));
    add8d(s + kRinging * stride + x, ringing);
    add8d(s + kRinging4 * stride + x, quartic8(ringing));
    add8d(s + kBlurring * stride + x, blurring);
    add8d(s + kBlurring4 * stride + x, quartic8(blurring));
  }
  for (; x < width; ++x) {
    add_pixel(row, x, columns);
  }
}

void add_columns(const ColumnSums& columns, unsigned width, double* out) {
  for (unsigned m = 0; m < kMapSums; ++m) {
    const double* column = columns.sums + m * columns.stride;
    double sum = 0.0;
    for (unsigned x = 0; x < width; ++x) {
      sum += column[x];
    }
    out[m] = sum;
  }
}

}  // namespace vqx::ssimulacra2

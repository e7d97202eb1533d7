// The 8-float vectors pass between forced-inline helpers only (recursion.hpp's
// templates are forced inline too), never across
// a real call (no lambda, which would be a function of its own, compiled
// for the baseline target whichever clone calls it), so the note that such a
// call's ABI differs between AVX and baseline builds does not apply.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#include "metrics/ssimulacra2/blur.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "metrics/ssimulacra2/params.hpp"

// libjxl's fused operations are written out (recursion.hpp's fused);
// nothing else is fused (cmake/FloatingPoint.cmake).
#include "core/kernel_build.hpp"

namespace vqx::ssimulacra2 {

namespace {

using Matrix3 = std::array<std::array<double, 3>, 3>;

// A^-1 b through the adjugate, in double (how gauss_blur.cc solves (53)).
std::array<double, 3> solve3(const Matrix3& a, const std::array<double, 3>& b) {
  Matrix3 adj;
  adj[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  adj[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
  adj[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
  adj[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  adj[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
  adj[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
  adj[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  adj[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
  adj[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  const double det = a[0][0] * adj[0][0] + a[0][1] * adj[1][0] + a[0][2] * adj[2][0];
  const double inv_det = 1.0 / det;
  std::array<double, 3> x{};
  for (int row = 0; row < 3; ++row) {
    double e = 0.0;
    for (int col = 0; col < 3; ++col) {
      e += (adj[row][col] * inv_det) * b[col];
    }
    x[row] = e;
  }
  return x;
}

// Quantity Q of the interleaved pixel at buffer index i.
template <unsigned Q>
VQX_FORCE_INLINE Lanes8 quantity_at(const Lanes8* a, const Lanes8* b, unsigned i) {
  return quantity<Q>(a[i], b[i]);
}

// The input sum of output n: buffer indices n - N - 1 and n + N - 1 (plus
// kPadLeft).
template <unsigned Q>
VQX_FORCE_INLINE Lanes8 input_sum(const Lanes8* a, const Lanes8* b, int n) {
  constexpr int kN = kBlurRadius;
  const auto left = static_cast<unsigned>(n - kN - 1 + static_cast<int>(kPadLeft));
  return quantity_at<Q>(a, b, left) + quantity_at<Q>(a, b, left + 2 * kN);
}

// Four outputs n .. n + 3 (recursion.hpp's block_step).
template <unsigned Q>
VQX_FORCE_INLINE void block_at(const Lanes8* a, const Lanes8* b, int n, const BlurCoefficients& k,
                               LineState<Lanes8>& st, Lanes8* out) {
  Lanes8 s[kBlockOutputs];
  for (int i = 0; i < kBlockOutputs; ++i) {
    s[i] = input_sum<Q>(a, b, n + i);
  }
  block_step(s, k, st, out);
}

// The horizontal pass of quantity Q over the interleaved rows into out
// (one Lanes8 per column), as libjxl splits it: single steps from the
// warm-up n = -N + 1 up to the first multiple of four past N, blocks of four
// while the block's inputs lie inside the row, single steps for the rest.
template <unsigned Q>
VQX_FORCE_INLINE void horizontal_quantity(const Lanes8* a, const Lanes8* b, unsigned width,
                                          const BlurCoefficients& k, Lanes8* out) {
  constexpr int kN = kBlurRadius;
  const int w = static_cast<int>(width);
  const int end = blocks_end(w);
  LineState<Lanes8> st;
  int n = -kN + 1;
  for (; n < w && !starts_block(n, end); ++n) {
    const Lanes8 v = single_step(input_sum<Q>(a, b, n), k, st);
    if (n >= 0) {
      out[n] = v;
    }
  }
  for (; starts_block(n, end); n += kBlockOutputs) {
    block_at<Q>(a, b, n, k, st, out + n);
  }
  for (; n < w; ++n) {
    out[n] = single_step(input_sum<Q>(a, b, n), k, st);
  }
}

// 8x8 transpose: v[i][j] becomes v[j][i] (pairs, then quads, then halves).
VQX_FORCE_INLINE void transpose8(Lanes8* v) {
  Lanes8 t[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = __builtin_shufflevector(v[i], v[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[i + 1] = __builtin_shufflevector(v[i], v[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  Lanes8 u[8];
  for (int i = 0; i < 8; i += 4) {
    u[i] = __builtin_shufflevector(t[i], t[i + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    u[i + 1] = __builtin_shufflevector(t[i], t[i + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    u[i + 2] = __builtin_shufflevector(t[i + 1], t[i + 3], 0, 1, 8, 9, 4, 5, 12, 13);
    u[i + 3] = __builtin_shufflevector(t[i + 1], t[i + 3], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int i = 0; i < 4; ++i) {
    v[i] = __builtin_shufflevector(u[i], u[i + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    v[i + 4] = __builtin_shufflevector(u[i], u[i + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

VQX_FORCE_INLINE Lanes8 load8(const float* p) {
  Lanes8 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

VQX_FORCE_INLINE void store8(float* p, Lanes8 v) { __builtin_memcpy(p, &v, sizeof v); }

// 8 rows (x = 0 .. width - 1) to one Lanes8 per column, from lanes[0] on.
VQX_FORCE_INLINE void interleave(const float* const* rows, unsigned width, Lanes8* lanes) {
  unsigned x = 0;
  for (; x + kGroupRows <= width; x += kGroupRows) {
    Lanes8 v[kGroupRows];
    for (unsigned l = 0; l < kGroupRows; ++l) {
      v[l] = load8(rows[l] + x);
    }
    transpose8(v);
    for (unsigned i = 0; i < kGroupRows; ++i) {
      lanes[x + i] = v[i];
    }
  }
  for (; x < width; ++x) {
    for (unsigned l = 0; l < kGroupRows; ++l) {
      lanes[x][l] = rows[l][x];
    }
  }
}

// The inverse: one Lanes8 per column back to 8 rows.
VQX_FORCE_INLINE void deinterleave(const Lanes8* lanes, unsigned width, float* const* rows) {
  unsigned x = 0;
  for (; x + kGroupRows <= width; x += kGroupRows) {
    Lanes8 v[kGroupRows];
    for (unsigned i = 0; i < kGroupRows; ++i) {
      v[i] = lanes[x + i];
    }
    transpose8(v);
    for (unsigned l = 0; l < kGroupRows; ++l) {
      store8(rows[l] + x, v[l]);
    }
  }
  for (; x < width; ++x) {
    for (unsigned l = 0; l < kGroupRows; ++l) {
      rows[l][x] = lanes[x][l];
    }
  }
}

}  // namespace

BlurCoefficients blur_coefficients(double sigma) {
  // Equation numbers are those of the paper, as gauss_blur.cc cites them.
  const double radius = std::round(kBlurRadiusSlope * sigma + kBlurRadiusOffset);  // (57)
  const double pi_div_2r = std::numbers::pi / (2.0 * radius);
  const double omega[3] = {pi_div_2r, 3.0 * pi_div_2r, 5.0 * pi_div_2r};
  const double p1 = 1.0 / std::tan(0.5 * omega[0]);  // (37)
  const double p3 = -1.0 / std::tan(0.5 * omega[1]);
  const double p5 = 1.0 / std::tan(0.5 * omega[2]);
  const double r1 = p1 * p1 / std::sin(omega[0]);  // (44)
  const double r3 = -p3 * p3 / std::sin(omega[1]);
  const double r5 = p5 * p5 / std::sin(omega[2]);
  const double neg_half_sigma2 = -0.5 * sigma * sigma;
  double rho[3];  // (50)
  for (int i = 0; i < 3; ++i) {
    rho[i] = std::exp(neg_half_sigma2 * omega[i] * omega[i]) * (1.0 / radius);
  }
  const double d13 = p1 * r3 - r1 * p3;  // (52)
  const double d35 = p3 * r5 - r3 * p5;
  const double d51 = p5 * r1 - r5 * p1;
  const double zeta15 = d35 * (1.0 / d13);
  const double zeta35 = d51 * (1.0 / d13);
  const Matrix3 a = {{{p1, p3, p5}, {r1, r3, r5}, {zeta15, zeta35, 1.0}}};  // (56)
  const std::array<double, 3> gamma = {1.0, radius * radius - sigma * sigma,
                                       zeta15 * rho[0] + zeta35 * rho[1] + rho[2]};  // (55)
  const std::array<double, 3> beta = solve3(a, gamma);                               // (53)

  BlurCoefficients k{};
  for (int i = 0; i < 3; ++i) {
    const double n2 = -beta[i] * std::cos(omega[i] * (radius + 1.0));  // (33)
    const double d1 = -2.0 * std::cos(omega[i]);
    const double d2 = d1 * d1;
    k.n2[i] = static_cast<float>(n2);
    k.d1[i] = static_cast<float>(d1);
    // o0 = n i0 - d p - pp, o1 = n i1 - d o0 - p, ... expanded to o3.
    k.prev1[i] = {static_cast<float>(-d1), static_cast<float>(d2 - 1.0),
                  static_cast<float>(-d2 * d1 + 2.0 * d1),
                  static_cast<float>(d2 * d2 - 3.0 * d2 + 1.0)};
    k.prev2[i] = {-1.0f, static_cast<float>(d1), static_cast<float>(-d2 + 1.0),
                  static_cast<float>(d2 * d1 - 2.0 * d1)};
    k.in[i] = {static_cast<float>(n2), static_cast<float>(-d1 * n2),
               static_cast<float>(d2 * n2 - n2), static_cast<float>(-d2 * d1 * n2 + 2.0 * d1 * n2)};
  }
  k.radius = static_cast<int>(radius);
  return k;
}

VQX_CLONES void horizontal_group(const float* const* a_rows, const float* const* b_rows,
                                 unsigned width, const BlurCoefficients& k, Lanes8* a_lanes,
                                 Lanes8* b_lanes, Lanes8* out_lanes,
                                 float* const (*out)[kGroupRows]) {
  const Lanes8 zero = {};
  for (unsigned i = 0; i < kPadLeft; ++i) {
    a_lanes[i] = zero;
    b_lanes[i] = zero;
  }
  interleave(a_rows, width, a_lanes + kPadLeft);
  interleave(b_rows, width, b_lanes + kPadLeft);
  for (unsigned i = 0; i < kPadRight; ++i) {
    a_lanes[kPadLeft + width + i] = zero;
    b_lanes[kPadLeft + width + i] = zero;
  }
  horizontal_quantity<kAA>(a_lanes, b_lanes, width, k, out_lanes);
  deinterleave(out_lanes, width, out[kAA]);
  horizontal_quantity<kBB>(a_lanes, b_lanes, width, k, out_lanes);
  deinterleave(out_lanes, width, out[kBB]);
  horizontal_quantity<kAB>(a_lanes, b_lanes, width, k, out_lanes);
  deinterleave(out_lanes, width, out[kAB]);
  horizontal_quantity<kA>(a_lanes, b_lanes, width, k, out_lanes);
  deinterleave(out_lanes, width, out[kA]);
  horizontal_quantity<kB>(a_lanes, b_lanes, width, k, out_lanes);
  deinterleave(out_lanes, width, out[kB]);
}

namespace {

// The vertical step with every row a restrict parameter (GCC honours
// restrict on parameters, not on local copies, and without it gives up on
// so many possibly overlapping rows).
VQX_CLONES void vertical_kernel(const float* __restrict top, const float* __restrict bottom,
                                unsigned width, float n2a, float n2b, float n2c, float d1a,
                                float d1b, float d1c, const float* __restrict p1a,
                                const float* __restrict p1b, const float* __restrict p1c,
                                float* __restrict p2a, float* __restrict p2b, float* __restrict p2c,
                                float* __restrict out) {
  // recursion.hpp's vertical_filter for the three filters.
  for (unsigned x = 0; x < width; ++x) {
    const float s = top[x] + bottom[x];
    const float ya = vertical_filter(s, n2a, d1a, p1a[x], p2a[x]);
    const float yb = vertical_filter(s, n2b, d1b, p1b[x], p2b[x]);
    const float yc = vertical_filter(s, n2c, d1c, p1c[x], p2c[x]);
    p2a[x] = ya;
    p2b[x] = yb;
    p2c[x] = yc;
    out[x] = ya + (yb + yc);
  }
}

}  // namespace

void vertical_step(const float* top, const float* bottom, unsigned width, const BlurCoefficients& k,
                   float* const* prev1, float* const* prev2, float* out) {
  vertical_kernel(top, bottom, width, k.n2[0], k.n2[1], k.n2[2], k.d1[0], k.d1[1], k.d1[2],
                  prev1[0], prev1[1], prev1[2], prev2[0], prev2[1], prev2[2], out);
}

}  // namespace vqx::ssimulacra2

#include "metrics/ssimulacra2/blur.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/index_math.hpp"
#include "metrics/ssimulacra2/params.hpp"

// libjxl's fused operations are written out with fma(); nothing else is
// fused (cmake/FloatingPoint.cmake).
#include "core/kernel_build.hpp"

// The 8-float vectors pass between forced-inline helpers only, never across
// a real call (no lambda, which would be a function of its own, compiled
// for the baseline target whichever clone calls it), so the note that such a
// call's ABI differs between AVX and baseline builds does not apply.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

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

VQX_FORCE_INLINE Lanes8 fma8(Lanes8 a, Lanes8 b, Lanes8 c) {
  Lanes8 r;
  for (unsigned l = 0; l < kGroupRows; ++l) {
    r[l] = __builtin_fmaf(a[l], b[l], c[l]);
  }
  return r;
}

VQX_FORCE_INLINE Lanes8 splat(float v) { return Lanes8{v, v, v, v, v, v, v, v}; }

// Quantity q of the interleaved pixel at buffer index i (products rounded
// to float, as libjxl stores them in an image before blurring).
template <unsigned Q>
VQX_FORCE_INLINE Lanes8 quantity(const Lanes8* a, const Lanes8* b, unsigned i) {
  if constexpr (Q == kAA) {
    return a[i] * a[i];
  } else if constexpr (Q == kBB) {
    return b[i] * b[i];
  } else if constexpr (Q == kAB) {
    return a[i] * b[i];
  } else if constexpr (Q == kA) {
    return a[i];
  } else {
    return b[i];
  }
}

// The input sum of output n: buffer indices n - N - 1 and n + N - 1 (plus
// kPadLeft).
template <unsigned Q>
VQX_FORCE_INLINE Lanes8 input_sum(const Lanes8* a, const Lanes8* b, int n) {
  constexpr int kN = kBlurRadius;
  const auto left = static_cast<unsigned>(n - kN - 1 + static_cast<int>(kPadLeft));
  return quantity<Q>(a, b, left) + quantity<Q>(a, b, left + 2 * kN);
}

struct LineState {
  Lanes8 p1[3] = {};  // each filter's output at n - 1
  Lanes8 p2[3] = {};  // and at n - 2
};

// One output by the plain recursion: (n2 s - p2) + (-d1) p1, fused as libjxl.
template <unsigned Q>
VQX_FORCE_INLINE Lanes8 single_step(const Lanes8* a, const Lanes8* b, int n,
                                    const BlurCoefficients& k, LineState& st) {
  const Lanes8 s = input_sum<Q>(a, b, n);
  Lanes8 y[3];
  for (int f = 0; f < 3; ++f) {
    const Lanes8 t = (s * k.in[f][0]) - st.p2[f];
    y[f] = fma8(splat(k.prev1[f][0]), st.p1[f], t);
    st.p2[f] = st.p1[f];
    st.p1[f] = y[f];
  }
  return y[0] + (y[1] + y[2]);
}

// Output J of a block for filter F from the block's input sums s and the
// filter's outputs before the block, in libjxl's order of fused operations
// (its lanes shift the input weights: input i's is in[J - i], 0 when i > J).
template <int F, int J>
VQX_FORCE_INLINE Lanes8 block_output(const Lanes8* s, const BlurCoefficients& k, Lanes8 p1,
                                     Lanes8 p2) {
  Lanes8 o = s[0] * k.in[F][J];
  if constexpr (J >= 1) {
    o = fma8(splat(k.in[F][J - 1]), s[1], o);
  }
  if constexpr (J >= 2) {
    o = fma8(splat(k.in[F][J - 2]), s[2], o);
  }
  if constexpr (J >= 3) {
    o = fma8(splat(k.in[F][J - 3]), s[3], o);
  }
  o = fma8(splat(k.prev2[F][J]), p2, o);
  return fma8(splat(k.prev1[F][J]), p1, o);
}

template <int J>
VQX_FORCE_INLINE Lanes8 block_sum(const Lanes8* s, const BlurCoefficients& k, const LineState& st) {
  const Lanes8 y0 = block_output<0, J>(s, k, st.p1[0], st.p2[0]);
  const Lanes8 y1 = block_output<1, J>(s, k, st.p1[1], st.p2[1]);
  const Lanes8 y2 = block_output<2, J>(s, k, st.p1[2], st.p2[2]);
  return y0 + (y1 + y2);
}

template <int F>
VQX_FORCE_INLINE void block_advance(const Lanes8* s, const BlurCoefficients& k, LineState& st) {
  const Lanes8 y2 = block_output<F, 2>(s, k, st.p1[F], st.p2[F]);
  const Lanes8 y3 = block_output<F, 3>(s, k, st.p1[F], st.p2[F]);
  st.p2[F] = y2;
  st.p1[F] = y3;
}

// Four outputs n .. n + 3 from the four input sums and the two outputs
// before n. (Outputs 2 and 3 are computed twice, once for the sum and once
// for the state: the compiler merges the two.)
template <unsigned Q>
VQX_FORCE_INLINE void block_step(const Lanes8* a, const Lanes8* b, int n, const BlurCoefficients& k,
                                 LineState& st, Lanes8* out) {
  Lanes8 s[kBlockOutputs];
  for (int i = 0; i < kBlockOutputs; ++i) {
    s[i] = input_sum<Q>(a, b, n + i);
  }
  out[0] = block_sum<0>(s, k, st);
  out[1] = block_sum<1>(s, k, st);
  out[2] = block_sum<2>(s, k, st);
  out[3] = block_sum<3>(s, k, st);
  block_advance<0>(s, k, st);
  block_advance<1>(s, k, st);
  block_advance<2>(s, k, st);
}

// The horizontal pass of quantity Q over the interleaved rows into out
// (one Lanes8 per column), as libjxl splits it: single steps from the
// warm-up n = -N + 1 up to the first multiple of four past N, blocks of four
// while the block's inputs lie inside the row, single steps for the rest.
template <unsigned Q>
VQX_FORCE_INLINE void horizontal_quantity(const Lanes8* a, const Lanes8* b, unsigned width,
                                          const BlurCoefficients& k, Lanes8* out) {
  constexpr int kN = kBlurRadius;
  constexpr int kFirstBlock = round_up(kN + 1, kBlockOutputs);
  const int w = static_cast<int>(width);
  LineState st;
  int n = -kN + 1;
  for (const int end = std::min(kFirstBlock, w); n < end; ++n) {
    const Lanes8 v = single_step<Q>(a, b, n, k, st);
    if (n >= 0) {
      out[n] = v;
    }
  }
  for (; n < w - kN + 1 - (kBlockOutputs - 1); n += kBlockOutputs) {
    block_step<Q>(a, b, n, k, st, out + n);
  }
  for (; n < w; ++n) {
    out[n] = single_step<Q>(a, b, n, k, st);
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
  // y = n2 s + (-d1 p1 - p2), each part fused (libjxl: MulAdd of NegMulSub).
  for (unsigned x = 0; x < width; ++x) {
    const float s = top[x] + bottom[x];
    const float ya = __builtin_fmaf(n2a, s, __builtin_fmaf(-d1a, p1a[x], -p2a[x]));
    const float yb = __builtin_fmaf(n2b, s, __builtin_fmaf(-d1b, p1b[x], -p2b[x]));
    const float yc = __builtin_fmaf(n2c, s, __builtin_fmaf(-d1c, p1c[x], -p2c[x]));
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

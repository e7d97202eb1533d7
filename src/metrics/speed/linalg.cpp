#include "metrics/speed/linalg.hpp"

#include <algorithm>
#include <cmath>

#include "core/kernel_build.hpp"
#include "metrics/speed/pointwise.hpp"

namespace vqx::speed {

namespace {

constexpr std::size_t at(int row, int col) {
  return (static_cast<std::size_t>(row) * kN) + static_cast<std::size_t>(col);
}

// speed.c's helpers round sqrt's double result to float, and take signs
// with 0 counted as positive.
float sqrt_to_float(float v) { return static_cast<float>(std::sqrt(static_cast<double>(v))); }
float hypot_f(float x, float y) { return sqrt_to_float(x * x + y * y); }

// --- Eigenvalues -----------------------------------------------------------

// Householder vector for column `col` below row `top` (rows top..kN-1):
// scales the part below `top` by 1 / (alpha - beta), puts beta at `top`
// and returns tau (0 when there is nothing to annihilate).
float householder_column(Square& a, int col, int top) {
  if (kN - top == 1) {
    return 0.0F;
  }
  float norm_sq = 0;
  for (int i = top + 1; i < kN; ++i) {
    norm_sq += a[at(i, col)] * a[at(i, col)];
  }
  const float below = sqrt_to_float(norm_sq);
  if (below == 0.0F) {
    return 0.0F;
  }
  const float alpha = a[at(top, col)];
  const float beta = static_cast<float>(-sign_of(alpha)) * hypot_f(alpha, below);
  const float tau = (beta - alpha) / beta;
  const float s = alpha - beta;
  if (s != 0.0F) {
    for (int i = top; i < kN; ++i) {
      a[at(i, col)] /= s;
    }
    a[at(top, col)] = beta;
  }
  return tau;
}

// Reduces `a` (in place) to tridiagonal form by kN - 2 Householder
// reflections applied from both sides to the trailing block; returns the
// diagonal and the subdiagonal.
void tridiagonalise(Square& a, Vector& diag, Vector& sub) {
  Vector v{};
  Vector w{};
  for (int i = 0; i < kN - 2; ++i) {
    const int s = i + 1;  // the trailing block is rows and columns s..kN-1
    const float tau = householder_column(a, i, s);
    for (int j = s; j < kN; ++j) {
      v[j] = a[at(j, i)];
    }
    if (tau == 0.0F) {
      continue;
    }
    v[s] = 1.0F;
    // w = tau * A v
    for (int r = s; r < kN; ++r) {
      w[r] = 0.0F;
      for (int c = s; c < kN; ++c) {
        w[r] += tau * a[at(r, c)] * v[c];
      }
    }
    // w -= (tau / 2) (w . v) v, the scale taken in double.
    float wv = 0;
    for (int r = s; r < kN; ++r) {
      wv += w[r] * v[r];
    }
    const auto scale = static_cast<float>(-0.5 * tau * wv);
    for (int r = s; r < kN; ++r) {
      w[r] += scale * v[r];
    }
    // A -= w v' + v w'
    for (int r = s; r < kN; ++r) {
      for (int c = s; c < kN; ++c) {
        a[at(r, c)] -= w[r] * v[c] + v[r] * w[c];
      }
    }
  }
  for (int i = 0; i < kN; ++i) {
    diag[i] = a[at(i, i)];
  }
  for (int i = 0; i < kN - 1; ++i) {
    sub[i] = a[at(i + 1, i)];
  }
}

// Zeroes the subdiagonal entries that are negligible beside their diagonal
// neighbours (the comparison in double).
void chop_small(float* diag, float* sub, int n) {
  for (int i = 0; i < n - 1; ++i) {
    if (std::fabs(sub[i]) < kEigenEps * (std::fabs(diag[i]) + std::fabs(diag[i + 1]))) {
      sub[i] = 0.0F;
    }
  }
}

// Wilkinson shift: the eigenvalue of the trailing 2x2 block nearer its last
// diagonal entry.
float wilkinson_shift(const float* diag, const float* sub, int n) {
  const float ta = diag[n - 2];
  const float tb = diag[n - 1];
  const float tab = sub[n - 2];
  const auto dt = static_cast<float>((ta - tb) / 2.0);
  if (dt > 0) {
    return tb - tab * (tab / (dt + hypot_f(dt, tab)));
  }
  if (dt == 0) {
    return tb - std::fabs(tab);
  }
  return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

// A Givens rotation (c, s) that zeroes b in (a, b); 1 / sqrt in double.
void givens(float a, float b, float& c, float& s) {
  if (b == 0) {
    c = 1;
    s = 0;
    return;
  }
  if (std::fabs(b) > std::fabs(a)) {
    const float t = -a / b;
    const auto s1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
    s = s1;
    c = s1 * t;
  } else {
    const float t = -b / a;
    const auto c1 = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1 + t * t)));
    c = c1;
    s = c1 * t;
  }
}

// The rotated 2x2 block [[ap, bp], [bp, aq]]: new (ap, bp, aq).
struct Rotated {
  float ap;
  float bp;
  float aq;
};
Rotated rotate(float c, float s, float ap, float bp, float aq) {
  return {c * (c * ap - s * bp) + s * (s * aq - c * bp),
          c * (s * ap + c * bp) - s * (s * bp + c * aq),
          s * (s * ap + c * bp) + c * (s * bp + c * aq)};
}

// One implicit-shift QR step on the unreduced n x n tridiagonal block
// (diag[0..n), sub[0..n-1)), chasing the bulge down with Givens rotations.
void qr_step(float* diag, float* sub, int n) {
  float mu = wilkinson_shift(diag, sub, n);
  if (kEigenEps * std::fabs(mu) > std::fabs(diag[0]) + std::fabs(sub[0])) {
    mu = 0;
  }
  float x = diag[0] - mu;
  float z = sub[0];
  float ap = diag[0];
  float bp = sub[0];
  float aq = diag[1];

  if (n == 2) {
    float c = 0;
    float s = 0;
    givens(x, z, c, s);
    const Rotated r = rotate(c, s, ap, bp, aq);
    diag[0] = r.ap;
    sub[0] = r.bp;
    diag[1] = r.aq;
    return;
  }

  float bk = 0;  // the subdiagonal entry above the current block
  float zk = 0;  // the bulge
  float bq = sub[1];
  for (int k = 0; k < n - 1; ++k) {
    float c = 0;
    float s = 0;
    givens(x, z, c, s);
    const float bk_above = c * bk - s * zk;
    const Rotated r = rotate(c, s, ap, bp, aq);
    zk = -s * bq;
    bk = r.bp;
    ap = r.aq;
    bp = c * bq;
    if (k < n - 2) {
      aq = diag[k + 2];
    }
    if (k < n - 3) {
      bq = sub[k + 2];
    }
    diag[k] = r.ap;
    if (k > 0) {
      sub[k - 1] = bk_above;
    }
    if (k < n - 2) {
      sub[k + 1] = bp;
    }
    x = bk;
    z = zk;
  }
  diag[n - 1] = ap;
  sub[n - 2] = bk;
}

// QR iteration on the tridiagonal matrix until it is diagonal (or the
// iteration budget is spent); the diagonal is left in `diag`.
void diagonalise(Vector& diag, Vector& sub) {
  chop_small(diag.data(), sub.data(), kN);
  int b = kN - 1;
  int iterations = 0;
  while (b > 0 && iterations < kEigenMaxIters) {
    if (sub[b - 1] == 0.0F) {
      --b;
      continue;
    }
    // The largest unreduced block [a, b].
    int a = b - 1;
    while (a > 0 && sub[a - 1] != 0.0F) {
      --a;
    }
    const int n = b - a + 1;
    qr_step(&diag[a], &sub[a], n);
    chop_small(&diag[a], &sub[a], n);
    ++iterations;
  }
}

// --- QR solve --------------------------------------------------------------

// dst = x y, each entry summed over k ascending from 0 (matrix_mul()).
VQX_CLONES void multiply(const Square& x, const Square& y, Square& dst) {
  dst.fill(0.0F);
  for (int i = 0; i < kN; ++i) {
    for (int k = 0; k < kN; ++k) {
      const float xik = x[at(i, k)];
      for (int j = 0; j < kN; ++j) {
        dst[at(i, j)] += xik * y[at(k, j)];
      }
    }
  }
}

void set_identity(Square& m) {
  m.fill(0.0F);
  for (int i = 0; i < kN; ++i) {
    m[at(i, i)] = 1.0F;
  }
}

float norm_of(const Vector& v) { return sqrt_to_float(squares_sum(v.data())); }

// matrix_qr_decomposition(): the accumulated reflector product H_{n-2}...H_0
// (= Q^T) and R = Q^T a. Each H = I - 2 v v' is built from column k of the
// running product with its leading k rows and columns replaced by the
// identity; the sign that picks v comes from a's own diagonal.
void householder_qr(const Square& a, Square& qt, Square& r) {
  Square z = a;
  Square h{};
  Square tmp{};
  Vector v{};
  set_identity(qt);
  for (int k = 0; k < kN - 1; ++k) {
    for (int i = 0; i < kN; ++i) {
      for (int j = 0; j < kN; ++j) {
        if (i < k || j < k) {
          z[at(i, j)] = i == j ? 1.0F : 0.0F;
        }
      }
    }
    for (int i = 0; i < kN; ++i) {
      v[i] = z[at(i, k)];
    }
    const float norm = norm_of(v);
    v[k] += static_cast<float>(sign_of(a[at(k, k)])) * norm;
    const float length = norm_of(v);
    for (int i = 0; i < kN; ++i) {
      v[i] /= length;
    }
    for (int i = 0; i < kN; ++i) {
      for (int j = 0; j < kN; ++j) {
        h[at(i, j)] = reflector_entry(v[i], v[j], i == j);
      }
    }
    multiply(h, z, tmp);
    z = tmp;
    multiply(h, qt, tmp);
    qt = tmp;
  }
  multiply(qt, a, r);
}

// Q^T b, then back substitution (solve_triangular_system()): row by row
// from the bottom, every column's value subtracting x[k] * r[i][k] for k
// ascending. False when a pivot is below kEigenEps.
VQX_CLONES bool apply_qr(const Square& qt, const Square& r, const float* b, std::size_t n,
                         float* qtb, float* x) {
  std::fill(qtb, qtb + std::size_t{kN} * n, 0.0F);
  for (int i = 0; i < kN; ++i) {
    float* __restrict out = qtb + static_cast<std::size_t>(i) * n;
    for (int k = 0; k < kN; ++k) {
      const float q = qt[at(i, k)];
      const float* __restrict in = b + static_cast<std::size_t>(k) * n;
      for (std::size_t j = 0; j < n; ++j) {
        out[j] += q * in[j];
      }
    }
  }
  for (int i = kN - 1; i >= 0; --i) {
    const float pivot = r[at(i, i)];
    if (std::fabs(pivot) < kEigenEps) {
      return false;
    }
    float* __restrict xi = x + static_cast<std::size_t>(i) * n;
    const float* __restrict bi = qtb + static_cast<std::size_t>(i) * n;
    for (std::size_t j = 0; j < n; ++j) {
      xi[j] = bi[j];
    }
    for (int k = i + 1; k < kN; ++k) {
      const float rik = r[at(i, k)];
      const float* __restrict xk = x + static_cast<std::size_t>(k) * n;
      for (std::size_t j = 0; j < n; ++j) {
        xi[j] -= xk[j] * rik;
      }
    }
    for (std::size_t j = 0; j < n; ++j) {
      xi[j] /= pivot;
    }
  }
  return true;
}

}  // namespace

Vector symmetric_eigenvalues(const Square& a) {
  Square work = a;
  Vector diag{};
  Vector sub{};
  tridiagonalise(work, diag, sub);
  diagonalise(diag, sub);
  return diag;
}

void QrSolver::init(std::size_t cols) {
  cols_ = cols;
  qtb_.assign(std::size_t{kN} * cols, 0.0F);
}

bool QrSolver::solve(const Square& a, const float* b, float* x) {
  Square qt{};
  Square r{};
  householder_qr(a, qt, r);
  return apply_qr(qt, r, b, cols_, qtb_.data(), x);
}

}  // namespace vqx::speed

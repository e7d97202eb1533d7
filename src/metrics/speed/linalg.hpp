// The 25x25 linear algebra of SpEED's Gaussian scale mixture, in float, as
// libvmaf speed.c does it (its own small solvers, adapted from GSL): the
// eigenvalues of the symmetric covariance matrix and the solution of a linear
// system with it. Each routine performs the reference's float operations in
// the reference's order (with its float/double promotions), because the
// scores depend on every rounding.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "metrics/speed/params.hpp"

namespace vqx::speed {

inline constexpr int kN = static_cast<int>(kBlockElems);
using Square = std::array<float, std::size_t{kN} * kN>;  // row-major
using Vector = std::array<float, kN>;

// compute_eigenvalues(): Householder reduction to tridiagonal form
// (gsl_linalg_symmtd_decomp), then implicit-shift QR steps with Givens
// rotations (gsl_eigen_symm), at most kEigenMaxIters of them. The eigenvalues
// come out in the order the iteration leaves them, unsorted.
Vector symmetric_eigenvalues(const Square& a);

// solve_linear_system(): a x = b for x, b and x being kN x cols row-major,
// through the Householder QR decomposition of `a` and back substitution.
// Returns false (x partly written) when a diagonal entry of R is below
// kEigenEps in magnitude.
class QrSolver {
 public:
  void init(std::size_t cols);  // allocates
  bool solve(const Square& a, const float* b, float* x);

 private:
  std::size_t cols_ = 0;
  std::vector<float> qtb_;  // Q^T b, kN x cols
};

}  // namespace vqx::speed

#include "metrics/speed/gsm.hpp"

#include <algorithm>
#include <cmath>

#include "metrics/speed/covariance.hpp"
#include "metrics/speed/pointwise.hpp"

namespace vqx::speed {

void GsmFit::init(const Geometry& g) {
  g_ = g;
  const std::size_t cells = std::size_t{kN} * g.blocks();
  neighbourhoods_.assign(cells, 0.0F);
  solution_.assign(cells, 0.0F);
  solver_.init(g.blocks());
}

// compute_independent_term(): row p of the kN x blocks matrix holds, for
// every block, its sample at offset p.
void GsmFit::gather_blocks(const float* band) {
  const std::size_t stride = g_.op_w;
  const std::size_t blocks = g_.blocks();
  for (unsigned r = 0; r < kBlock; ++r) {
    for (unsigned c = 0; c < kBlock; ++c) {
      float* out = &neighbourhoods_[(r * kBlock + c) * blocks];
      for (unsigned by = 0; by < g_.blocks_y; ++by) {
        const float* row = band + (by * kBlock + r) * stride + c;
        float* out_row = out + std::size_t{by} * g_.blocks_x;
        for (unsigned bx = 0; bx < g_.blocks_x; ++bx) {
          out_row[bx] = row[std::size_t{bx} * kBlock];
        }
      }
    }
  }
}

bool GsmFit::fit(const float* band, float sigma_nn, BlockStats& out) {
  covariance_matrix(band, g_.op_w, g_.sub_w, g_.sub_h, cov_);
  const Vector eigen = symmetric_eigenvalues(cov_);
  gather_blocks(band);
  const bool solved =
      regular(eigen) && solver_.solve(cov_, neighbourhoods_.data(), solution_.data());
  if (!solved) {
    std::fill(solution_.begin(), solution_.end(), 0.0F);
  }
  variances(out);
  entropies(eigen, sigma_nn, out);
  return solved;
}

bool GsmFit::fit_solved(const double* lower, const float* band, const float* variance,
                        bool pivots_ok, float sigma_nn, BlockStats& out) {
  covariance_from_sums(lower, g_.sub_w * g_.sub_h, cov_);
  const Vector eigen = symmetric_eigenvalues(cov_);
  const bool solved = regular(eigen) && pivots_ok;
  if (solved) {
    std::copy(variance, variance + g_.blocks(), out.variance.begin());
  } else {  // fit()'s zero solution, from this band-pass picture's blocks
    gather_blocks(band);
    std::fill(solution_.begin(), solution_.end(), 0.0F);
    variances(out);
  }
  entropies(eigen, sigma_nn, out);
  return solved;
}

bool GsmFit::regular(const Vector& eigen) {
  bool regular = true;
  for (const float e : eigen) {
    regular = regular && !(e < kEigenEps);
  }
  return regular;
}

// s = sum over p of x[p] * y[p] / 25, each term rounded to float
// (pointwise.hpp: variance_term), summed from p = 0.
void GsmFit::variances(BlockStats& out) const {
  const std::size_t blocks = g_.blocks();
  float* s = out.variance.data();
  for (std::size_t b = 0; b < blocks; ++b) {
    s[b] = variance_term(solution_[b], neighbourhoods_[b]);
  }
  for (std::size_t p = 1; p < kBlockElems; ++p) {
    const float* x = &solution_[p * blocks];
    const float* y = &neighbourhoods_[p * blocks];
    for (std::size_t b = 0; b < blocks; ++b) {
      s[b] += variance_term(x[b], y[b]);
    }
  }
}

// update_entropy(), one eigenvalue at a time (negative ones count as 0):
// the float entropy accumulates a double term.
void GsmFit::entropies(const Vector& eigen, float sigma_nn, BlockStats& out) const {
  const std::size_t blocks = g_.blocks();
  const float* s = out.variance.data();
  float* e = out.entropy.data();
  std::fill(out.entropy.begin(), out.entropy.end(), 0.0F);
  for (const float lambda : eigen) {
    const float l = lambda < 0 ? 0 : lambda;
    for (std::size_t b = 0; b < blocks; ++b) {
      e[b] = static_cast<float>(
          e[b] + (std::log2(static_cast<double>(l * s[b] + sigma_nn)) + kLog2TwoPiE));
    }
  }
}

}  // namespace vqx::speed

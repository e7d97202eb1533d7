// The Gaussian scale mixture fit of one band-pass picture (libvmaf speed.c,
// est_params()): the 25x25 covariance of the 5x5 neighbourhoods, its
// eigenvalues, and per 5x5 block a variance estimate s = y' K^-1 y / 25 and
// the entropy sum_k log2(lambda_k s + sigma_nn) + log2(2 pi e).
#pragma once

#include <cstddef>
#include <vector>

#include "metrics/speed/geometry.hpp"
#include "metrics/speed/linalg.hpp"

namespace vqx::speed {

struct BlockStats {
  std::vector<float> entropy;  // per block, row-major over the block grid
  std::vector<float> variance;
  void allocate(std::size_t blocks) {
    entropy.assign(blocks, 0.0F);
    variance.assign(blocks, 0.0F);
  }
};

class GsmFit {
 public:
  GsmFit() = default;
  // Allocated for `g` (init()).
  explicit GsmFit(const Geometry& g) { init(g); }
  // Allocates every buffer.
  void init(const Geometry& g);
  // Fits the band-pass picture `band` (op_w x op_h, row stride op_w); `out`
  // must have g.blocks() entries.
  // Returns false when the covariance matrix is singular (an eigenvalue below
  // kEigenEps, or a vanishing pivot): the variances are then 0, as in
  // libvmaf.
  bool fit(const float* band, float sigma_nn, BlockStats& out);
  // The same, with the covariance matrix's sums of products (`lower`:
  // kLowerEntries of them, packed by lower_index(), pointwise.hpp) and the
  // blocks' variances computed elsewhere (the GPU twins' device: `variance`,
  // one per block, valid when `pivots_ok`, i.e. when no pivot of the QR
  // solve was below kEigenEps); `band` gives the blocks when the fit is
  // singular (a zero solution, as fit()).
  bool fit_solved(const double* lower, const float* band, const float* variance, bool pivots_ok,
                  float sigma_nn, BlockStats& out);

 private:
  static bool regular(const Vector& eigen);  // no eigenvalue below kEigenEps
  void variances(BlockStats& out) const;     // from solution_ and neighbourhoods_
  void entropies(const Vector& eigen, float sigma_nn, BlockStats& out) const;
  void gather_blocks(const float* band);

  Geometry g_;
  Square cov_{};
  std::vector<float> neighbourhoods_;  // kN x blocks: the blocks' samples
  std::vector<float> solution_;        // kN x blocks: K^-1 times the above
  QrSolver solver_;
};

}  // namespace vqx::speed

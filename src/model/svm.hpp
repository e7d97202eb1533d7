// The support-vector regressor inside a VMAF model: libsvm's nu-SVR with an
// RBF kernel, read from the libsvm text that a model JSON carries in
// model_dict.model.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vqx/status.hpp"

namespace vqx {

class SvmRegressor {
 public:
  // Parses libsvm's model text. `n_features` is the model's feature count:
  // every support-vector index must lie in 1..n_features. Error messages
  // start with `where`, e.g. "models/x.json: model_dict.model".
  static Expected<SvmRegressor> parse(std::string_view text, std::size_t n_features,
                                      std::string_view where);

  // sum_i coef_i * exp(-gamma * |x - sv_i|^2) - rho, over the support vectors
  // in file order; |.|^2 sums the squared differences in index order, as
  // libsvm does. `x` has n_features values (already normalised).
  [[nodiscard]] double predict(std::span<const double> x) const;

  [[nodiscard]] std::size_t n_features() const { return n_features_; }
  [[nodiscard]] std::size_t n_support_vectors() const { return coef_.size(); }
  [[nodiscard]] double gamma() const { return gamma_; }
  [[nodiscard]] double rho() const { return rho_; }

 private:
  std::size_t n_features_ = 0;
  double gamma_ = 0;
  double rho_ = 0;
  std::vector<double> coef_;  // one per support vector
  // Support vectors, dense, row-major (n_support_vectors x n_features). An
  // index missing from a sparse libsvm row is stored as 0: libsvm then adds
  // x*x, and (x - 0)*(x - 0) is the same number.
  std::vector<double> sv_;
};

}  // namespace vqx

#include "metrics/integer_ssim/score.hpp"

#include "metrics/integer_ssim/params.hpp"

namespace vqx::integer_ssim {

double add_in_order(double sum, const double* terms, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) sum += terms[i];
  return sum;
}

double frame_score(double sum, int width, int height) {
  return sum / static_cast<double>(weight_total(width, height));
}

}  // namespace vqx::integer_ssim

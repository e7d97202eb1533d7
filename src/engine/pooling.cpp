#include "engine/pooling.hpp"

#include <cstddef>
#include <limits>

namespace vqx {

PooledStats pool(std::span<const double> values) {
  if (values.empty()) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    return {kNaN, kNaN, kNaN, kNaN};
  }
  double min = 0., max = 0., sum = 0., inverse_sum = 0.;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double s = values[i];
    sum += s;
    inverse_sum += 1. / (s + 1.);
    if (i == 0 || s < min) {
      min = s;
    }
    if (i == 0 || s > max) {
      max = s;
    }
  }
  const auto n = static_cast<double>(values.size());
  return {min, max, sum / n, n / inverse_sum - 1.0};
}

}  // namespace vqx

// Pooling per-frame scores into one number per metric, as libvmaf's
// vmaf_feature_score_pooled() does (and its JSON "pooled_metrics").
#pragma once

#include <span>

namespace vqx {

struct PooledStats {
  double min;
  double max;
  double mean;           // sum / n
  double harmonic_mean;  // n / sum(1 / (x + 1)) - 1  (libvmaf's shifted harmonic mean)
};

// One pass in index order, in double: sum += x, inverse_sum += 1 / (x + 1),
// min/max start from the first value and take a later one only if strictly
// smaller/larger (so a NaN first value stays). An empty span gives NaN in
// all four fields.
PooledStats pool(std::span<const double> values);

}  // namespace vqx

#include "metrics/cambi/pooling.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "metrics/cambi/pointwise.hpp"
#include "metrics/cambi/select.hpp"

namespace vqx::cambi {

void select_largest(std::span<float> values, std::size_t k) {
  select_largest_in(values.data(), static_cast<std::ptrdiff_t>(values.size()),
                    static_cast<std::ptrdiff_t>(k));
}

std::size_t topk_count(std::size_t n, double topk) {
  // libvmaf: int num = h * w; clip(topk * num, 1, num) through an int.
  const int num = static_cast<int>(n);
  return static_cast<std::size_t>(std::clamp(static_cast<int>(topk * num), 1, num));
}

double largest_sum(std::span<const float> values, std::size_t k,
                   std::span<std::uint32_t> low_counts) {
  // 1. Count the values per bucket (4 interleaved tables, so that runs of
  //    equal buckets do not wait on each other) and find the bucket holding
  //    the k-th largest.
  std::array<std::array<std::uint32_t, kBucketCount>, 4> tables{};
  const std::size_t n = values.size();
  const float* v = values.data();
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    ++tables[0][bucket_of(v[i])];
    ++tables[1][bucket_of(v[i + 1])];
    ++tables[2][bucket_of(v[i + 2])];
    ++tables[3][bucket_of(v[i + 3])];
  }
  for (; i < n; ++i) ++tables[0][bucket_of(v[i])];
  std::uint32_t split = kBucketCount - 1;
  std::size_t above = 0;  // values in buckets above `split`
  for (;; --split) {
    const std::size_t here =
        std::size_t{tables[0][split]} + tables[1][split] + tables[2][split] + tables[3][split];
    if (above + here >= k || split == 0) break;
    above += here;
  }
  // 2. Add the values above that bucket (exact in any order, see the
  //    header: 4 sums side by side), and count that bucket's values by their
  //    low 16 bits.
  std::uint32_t* low = low_counts.data();
  std::fill(low_counts.begin(), low_counts.end(), 0U);
  double sums[4] = {0, 0, 0, 0};
  for (i = 0; i + 4 <= n; i += 4) {
    for (std::size_t j = 0; j < 4; ++j) {
      const std::uint32_t b = bucket_of(v[i + j]);
      sums[j] += b > split ? v[i + j] : 0.0f;
      if (b == split) ++low[low_bits_of(v[i + j])];
    }
  }
  for (; i < n; ++i) {
    const std::uint32_t b = bucket_of(v[i]);
    sums[0] += b > split ? v[i] : 0.0f;
    if (b == split) ++low[low_bits_of(v[i])];
  }
  double sum = (sums[0] + sums[1]) + (sums[2] + sums[3]);
  // 3. The largest k - above values of the bucket, from its largest down
  //    (bucket 0 holds zeros only; count * value is exact: at most 47 bits).
  std::size_t rest = k - above;
  if (split == 0) return sum;
  for (std::uint32_t bits = kLowCounts; bits-- > 0 && rest > 0;) {
    const std::size_t take = std::min<std::size_t>(low[bits], rest);
    sum += static_cast<double>(take) * bucket_value(split, bits);
    rest -= take;
  }
  return sum;
}

double ordered_largest_sum(std::span<float> values, std::size_t k) {
  return ordered_largest_sum_in(values.data(), static_cast<std::ptrdiff_t>(values.size()),
                                static_cast<std::ptrdiff_t>(k));
}

double weighted_score(const std::array<double, kScaleCount>& pooled, unsigned window) {
  double weighted = 0;
  for (unsigned s = 0; s < kScaleCount; ++s) weighted += pooled[s] * kScaleWeights[s];
  return weighted / (window * window);
}

}  // namespace vqx::cambi

#include "metrics/cambi/pooling.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <utility>

namespace vqx::cambi {

void select_largest(std::span<float> values, std::size_t k) {
  if (values.size() == k) return;
  // Indices are signed: the right cursor may step below 0.
  const auto target = static_cast<std::ptrdiff_t>(k);
  std::ptrdiff_t lo = 0;
  std::ptrdiff_t hi = static_cast<std::ptrdiff_t>(values.size()) - 1;
  float* v = values.data();
  while (lo < hi) {
    const float pivot = v[target];
    std::ptrdiff_t i = lo;
    std::ptrdiff_t j = hi;
    // Larger values go left, smaller right, values equal to the pivot may
    // land on either side.
    do {
      while (v[i] > pivot) ++i;
      while (v[j] < pivot) --j;
      if (i <= j) {
        std::swap(v[i], v[j]);
        ++i;
        --j;
      }
    } while (i <= j);
    // Keep the part that holds index k.
    if (j < target) lo = i;
    if (target < i) hi = j;
  }
}

std::size_t topk_count(std::size_t n, double topk) {
  // libvmaf: int num = h * w; clip(topk * num, 1, num) through an int.
  const int num = static_cast<int>(n);
  return static_cast<std::size_t>(std::clamp(static_cast<int>(topk * num), 1, num));
}

namespace {

// Buckets of contrast values by the top 16 bits of their float
// representation (sign, exponent, 7 bits of mantissa), which orders
// non-negative floats. Contrast values are 0 or in [0.5, 9506.25]
// (weight 9 * 65^2 / 4 at most): bucket 0 holds the zeros, and every other
// bucket one value of the top 16 bits, from 0.5 up past 30000.
constexpr std::uint32_t kBucketOrigin = 0x3EFF;  // top bits of 0.5 (0x3F00), less 1
constexpr std::uint32_t kBucketCount = 2048;

std::uint32_t bucket_of(float v) {
  const auto top = static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(v) >> 16);
  return static_cast<std::uint32_t>(
      std::clamp<std::int32_t>(top - static_cast<std::int32_t>(kBucketOrigin), 0,
                               static_cast<std::int32_t>(kBucketCount) - 1));
}

}  // namespace

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
      if (b == split) ++low[std::bit_cast<std::uint32_t>(v[i + j]) & 0xFFFF];
    }
  }
  for (; i < n; ++i) {
    const std::uint32_t b = bucket_of(v[i]);
    sums[0] += b > split ? v[i] : 0.0f;
    if (b == split) ++low[std::bit_cast<std::uint32_t>(v[i]) & 0xFFFF];
  }
  double sum = (sums[0] + sums[1]) + (sums[2] + sums[3]);
  // 3. The largest k - above values of the bucket, from its largest down
  //    (bucket 0 holds zeros only; count * value is exact: at most 47 bits).
  std::size_t rest = k - above;
  if (split == 0) return sum;
  const std::uint32_t top = (split + kBucketOrigin) << 16;
  for (int bits = kLowCounts - 1; bits >= 0 && rest > 0; --bits) {
    const std::size_t take = std::min<std::size_t>(low[bits], rest);
    sum += static_cast<double>(take) * std::bit_cast<float>(top | static_cast<std::uint32_t>(bits));
    rest -= take;
  }
  return sum;
}

double ordered_largest_sum(std::span<float> values, std::size_t k) {
  select_largest(values, k);
  double sum = 0;
  for (std::size_t i = 0; i < k; ++i) sum += values[i];
  return sum;
}

}  // namespace vqx::cambi

#include "metrics/speed/covariance.hpp"

#include <array>

#include "core/kernel_build.hpp"

namespace vqx::speed {

namespace {

// The 325 sums of products (q <= p) are independent: all of them advance
// together, one window position at a time, which keeps each sum's own order
// (row-major over the window, as libvmaf's loop) while the work runs across
// vector lanes. Row p of the sums covers q < lanes(p), p + 1 rounded up to a
// multiple of 8 (a few entries above the diagonal come along, unused), and
// the centred values are padded with zeros to kLanes so that every row is a
// whole number of vectors. Positions are taken kStep at a time so that each
// sum is loaded and stored once per kStep products.
constexpr int kLanes = 32;
constexpr int kStep = 4;
constexpr int lanes(int p) { return (p / 8 + 1) * 8; }
static_assert(lanes(kN - 1) <= kLanes, "a row of sums must fit kLanes");
using Row = std::array<double, kLanes>;
using Sums = std::array<Row, kN>;

using Offsets = std::array<std::size_t, kN>;
using Means = std::array<double, kN>;

// out[p] = band[offset p + position] - mean[p], in double.
[[gnu::always_inline]] inline void centre(const float* at, const Offsets& offsets,
                                          const Means& means, Row& out) {
  for (int p = 0; p < kN; ++p) {
    out[p] = centred(at[offsets[p]], means[p]);
  }
}

VQX_CLONES void sums_of_products(const float* band, std::size_t stride, unsigned sub_w,
                                 unsigned sub_h, const Offsets& offsets, const Means& means,
                                 Sums& sums) {
  std::array<Row, kStep> c{};  // lanes kN.. stay 0
  for (unsigned i = 0; i < sub_h; ++i) {
    const float* row = band + i * stride;
    unsigned j = 0;
    for (; j + kStep <= sub_w; j += kStep) {
      for (int k = 0; k < kStep; ++k) {
        centre(row + j + k, offsets, means, c[k]);
      }
      for (int p = 0; p < kN; ++p) {
        const double c0 = c[0][p];
        const double c1 = c[1][p];
        const double c2 = c[2][p];
        const double c3 = c[3][p];
        double* __restrict s = sums[p].data();
        const int n = lanes(p);
        for (int q = 0; q < n; ++q) {
          double v = s[q];
          v += c0 * c[0][q];
          v += c1 * c[1][q];
          v += c2 * c[2][q];
          v += c3 * c[3][q];
          s[q] = v;
        }
      }
    }
    for (; j < sub_w; ++j) {
      centre(row + j, offsets, means, c[0]);
      for (int p = 0; p < kN; ++p) {
        const double c0 = c[0][p];
        double* __restrict s = sums[p].data();
        const int n = lanes(p);
        for (int q = 0; q < n; ++q) {
          s[q] += c0 * c[0][q];
        }
      }
    }
  }
}

}  // namespace

void covariance_matrix(const float* band, std::size_t stride, unsigned sub_w, unsigned sub_h,
                       Square& cov) {
  Offsets offsets{};
  for (int p = 0; p < kN; ++p) {
    offsets[p] = static_cast<std::size_t>(p / static_cast<int>(kBlock)) * stride +
                 static_cast<std::size_t>(p % static_cast<int>(kBlock));
  }
  const unsigned count = sub_w * sub_h;

  // The window means: float sums, each in row-major order.
  Vector totals{};
  for (unsigned i = 0; i < sub_h; ++i) {
    const float* row = band + i * stride;
    for (unsigned j = 0; j < sub_w; ++j) {
      for (int p = 0; p < kN; ++p) {
        totals[p] += row[j + offsets[p]];
      }
    }
  }
  Means means{};
  for (int p = 0; p < kN; ++p) {
    means[p] = window_mean(totals[p], count);
  }

  Sums sums{};
  sums_of_products(band, stride, sub_w, sub_h, offsets, means, sums);
  std::array<double, kLowerEntries> lower{};
  for (int p = 0; p < kN; ++p) {
    for (int q = 0; q <= p; ++q) {
      lower[static_cast<std::size_t>(lower_index(p, q))] = sums[p][q];
    }
  }
  covariance_from_sums(lower.data(), count, cov);
}

void covariance_from_sums(const double* lower, unsigned count, Square& cov) {
  for (int p = 0; p < kN; ++p) {
    for (int q = 0; q <= p; ++q) {
      const float v = covariance_entry(lower[lower_index(p, q)], count);
      cov[static_cast<std::size_t>(p) * kN + q] = v;
      cov[static_cast<std::size_t>(q) * kN + p] = v;
    }
  }
}

}  // namespace vqx::speed

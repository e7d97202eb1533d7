// float VIF's row of information terms (metrics/float_vif/statistic.hpp:
// row_terms, a Highway kernel) under every Highway target the CPU runs,
// against the plain loop of pointwise.hpp's pixel_terms() (the GPU twin's
// function), bit for bit: positions in every branch of the definition (flat
// and negative variances, variances at kEps, negative covariances, gains at
// the limit, sigma1^2 at and around sigma_nsq, zero and huge values),
// several sigma_nsq values (two that a float cannot hold), and widths
// around every vector length.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "metrics/float_vif/params.hpp"
#include "metrics/float_vif/statistic.hpp"
#include "simd_targets.hpp"

namespace vqx {
namespace {

struct Row {
  std::vector<float> mu1, mu2, xx, yy, xy;
};

// One position whose variances are var1, var2 and covariance cov (as far
// as float rounding lets them be).
void put(Row& r, std::size_t i, float m1, float m2, float var1, float var2, float cov) {
  r.mu1[i] = m1;
  r.mu2[i] = m2;
  r.xx[i] = m1 * m1 + var1;
  r.yy[i] = m2 * m2 + var2;
  r.xy[i] = m1 * m2 + cov;
}

Row random_row(std::mt19937& rng, std::size_t width, double sigma_nsq, float gain_limit) {
  Row r{std::vector<float>(width), std::vector<float>(width), std::vector<float>(width),
        std::vector<float>(width), std::vector<float>(width)};
  std::uniform_real_distribution<float> mean(0.0f, 255.0f);
  std::uniform_real_distribution<float> var(0.0f, 3000.0f);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const auto s = static_cast<float>(sigma_nsq);
  const float near_noise[] = {s, std::nextafter(s, 0.0f), std::nextafter(s, 1e9f), s * 0.5f,
                              s * 2.0f};
  for (std::size_t i = 0; i < width; ++i) {
    const float m1 = mean(rng);
    const float m2 = mean(rng);
    const float v1 = var(rng);
    const float v2 = var(rng);
    switch (rng() % 11) {
      case 0:  // flat: variances at and below kEps, or negative by rounding
        put(r, i, m1, m2, float_vif::kEps * static_cast<float>(rng() % 3),
            -float_vif::kEps * static_cast<float>(rng() % 3), 0.0f);
        break;
      case 1:  // negative covariance
        put(r, i, m1, m2, v1, v2, -std::abs(unit(rng)) * v1);
        break;
      case 2:  // a gain at or past the limit
        put(r, i, m1, m2, 1.0f, v2, gain_limit * (1.0f + 0.01f * unit(rng)));
        break;
      case 3:  // sigma1^2 at and around sigma_nsq (means 0: exact variances)
        put(r, i, 0.0f, 0.0f, near_noise[rng() % 5], v2, unit(rng) * 10.0f);
        break;
      case 5: {  // large gains over a small residual: the gain term keeps every bit
        const float var1 = 1000.0f + 100000.0f * std::abs(unit(rng));
        const float g = 1.0f + (gain_limit - 1.0f) * std::abs(unit(rng));
        put(r, i, 0.0f, 0.0f, var1, g * g * var1 + std::abs(unit(rng)), g * var1);
        break;
      }
      case 4:  // zero and huge values
        put(r, i, (rng() % 2) != 0 ? 0.0f : 1e18f, 0.0f, (rng() % 2) != 0 ? 0.0f : 1e30f,
            (rng() % 2) != 0 ? 0.0f : 1e30f, 0.0f);
        break;
      default:  // ordinary, correlated
        put(r, i, m1, m2, v1, v2, unit(rng) * std::sqrt(v1 * v2));
        break;
    }
  }
  return r;
}

TEST(FloatVifTerms, RowKernelEqualsThePointwiseDefinition) {
  test::for_each_simd_target([](const std::string&) {
    std::mt19937 rng(7);
    // 0.7 and 0.1: a float cannot hold them, rounding down and up.
    for (const double sigma_nsq : {2.0, 0.7, 0.1, 1e-3, 5.0}) {
      for (const double gain_limit : {100.0, 1.0}) {
        const float_vif::StatParams p = float_vif::make_stat_params(gain_limit, sigma_nsq);
        for (const std::size_t width :
             {1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 129, 255, 257, 1920}) {
          SCOPED_TRACE("sigma_nsq " + std::to_string(sigma_nsq) + ", gain limit " +
                       std::to_string(gain_limit) + ", width " + std::to_string(width));
          const Row r = random_row(rng, width, sigma_nsq, p.gain_limit);
          std::vector<float> num(width), den(width), want_num(width), want_den(width);
          float_vif::row_terms(r.mu1.data(), r.mu2.data(), r.xx.data(), r.yy.data(), r.xy.data(),
                               static_cast<unsigned>(width), p, num.data(), den.data());
          float_vif::reference::row_terms(r.mu1.data(), r.mu2.data(), r.xx.data(), r.yy.data(),
                                          r.xy.data(), static_cast<unsigned>(width), p,
                                          want_num.data(), want_den.data());
          for (std::size_t i = 0; i < width; ++i) {
            ASSERT_EQ(std::memcmp(&num[i], &want_num[i], sizeof(float)), 0)
                << "num at " << i << ": " << num[i] << " vs " << want_num[i];
            ASSERT_EQ(std::memcmp(&den[i], &want_den[i], sizeof(float)), 0)
                << "den at " << i << ": " << den[i] << " vs " << want_den[i];
          }
        }
      }
    }
  });
}

}  // namespace
}  // namespace vqx

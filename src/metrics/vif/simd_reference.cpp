// The plain forms of integer VIF's row kernels (simd.hpp): one column, one
// pixel at a time, in libvmaf's arithmetic (integer_vif.c). Every Highway
// target of simd.cpp is tested against these; Highway's scalar target
// runs them.
#include <algorithm>
#include <bit>

#include "core/index_math.hpp"
#include "metrics/vif/simd.hpp"

namespace vqx::vif::simd::reference {

namespace {

// A 16-bit value (or 16-bit half) as a row plane holds it, and back.
constexpr std::int16_t biased(std::uint32_t v) {
  return static_cast<std::int16_t>(static_cast<std::int32_t>(v & 0xffffU) - kBias);
}
constexpr std::uint32_t unbiased(std::int16_t v) {
  return static_cast<std::uint32_t>(std::int32_t{v} + kBias);
}

// Stores a 32-bit moment as its two halves.
void store_moment(std::uint32_t v, std::int16_t* hi, std::int16_t* lo, std::size_t j) {
  hi[j] = biased(v >> 16);
  lo[j] = biased(v);
}

// The Q11 log2 of an integer v >= 2^16 held exactly by a double: the whole
// part from the exponent, the fraction from the table entry of the top 16
// significant bits (libvmaf's log2_32 / log2_64).
struct Log2Parts {
  std::int32_t exponent;  // floor(log2(v))
  std::uint16_t index;    // v's top 16 bits
};
Log2Parts log2_parts(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  constexpr int kStored = kLog2TableBits - 1;  // bits of an index after its leading 1
  return {
      static_cast<std::int32_t>(bits >> kDoubleMantissaBits) - kDoubleExponentBias,
      static_cast<std::uint16_t>(
          ((bits >> (kDoubleMantissaBits - kStored)) & ((1U << kStored) - 1)) | (1U << kStored))};
}
// 2048 * log2(v) - 2048 * 15: the table holds 2048 * log2 of the index.
std::int32_t log2_q11(const std::uint16_t* lut, double v) {
  const Log2Parts p = log2_parts(v);
  return ((p.exponent - (kLog2TableBits - 1)) << kLogFracBits) + lut[p.index];
}

}  // namespace

void vertical_8bit(const Taps8& taps, std::size_t n, std::int16_t* const* out) {
  const Filter& f = kFilters[0];
  const Rounding means = mean_rounding(0, 8);
  for (std::size_t j = 0; j < n; ++j) {
    std::uint32_t mu1 = 0, mu2 = 0, xx = 0, yy = 0, xy = 0;
    for (int k = 0; k <= 2 * f.half; ++k) {
      const std::uint32_t t = f.taps[k];
      const std::uint32_t x = taps.ref[k][j];
      const std::uint32_t y = taps.dis[k][j];
      mu1 += t * x;
      mu2 += t * y;
      xx += t * (x * x);  // below 2^32 for 8-bit samples: exact
      yy += t * (y * y);
      xy += t * (x * y);
    }
    out[kMu1][j] = biased((mu1 + means.add) >> means.shift);
    out[kMu2][j] = biased((mu2 + means.add) >> means.shift);
    store_moment(xx, out[kXxHi], out[kXxLo], j);
    store_moment(yy, out[kYyHi], out[kYyLo], j);
    store_moment(xy, out[kXyHi], out[kXyLo], j);
  }
}

void prepare_16bit(const std::uint16_t* ref, const std::uint16_t* dis, std::size_t n,
                   std::int16_t* const* out) {
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t x = ref[j];
    const std::uint32_t y = dis[j];
    out[0][j] = biased(x);
    out[1][j] = biased(y);
    store_moment(x * x, out[2], out[3], j);
    store_moment(y * y, out[4], out[5], j);
    store_moment(x * y, out[6], out[7], j);
  }
}

namespace {
void vertical_16bit_row(int scale, const Taps16& taps, std::size_t n, Rounding means,
                        Rounding squares, std::int16_t* const* out) {
  const Filter& f = kFilters[scale];
  for (std::size_t j = 0; j < n; ++j) {
    std::uint64_t s[kSourcePlanes] = {};
    for (int p = 0; p < kSourcePlanes; ++p) {
      for (int k = 0; k <= 2 * f.half; ++k) {
        s[p] += std::uint64_t{f.taps[k]} * unbiased(taps.rows[p][k][j]);
      }
    }
    out[kMu1][j] = biased(static_cast<std::uint32_t>((s[0] + means.add) >> means.shift));
    out[kMu2][j] = biased(static_cast<std::uint32_t>((s[1] + means.add) >> means.shift));
    for (int m = 0; m < 3; ++m) {
      // The 48-bit moment, rounded by `shift` bits, modulo 2^32 (libvmaf).
      const std::uint64_t v = (s[2 + 2 * m] << 16) + s[3 + 2 * m];
      const auto r = static_cast<std::uint32_t>((v + squares.add) >> squares.shift);
      store_moment(r, out[kXxHi + 2 * m], out[kXxLo + 2 * m], j);
    }
  }
}
}  // namespace

void vertical_16bit(int scale, const Taps16* taps, int rows, std::size_t n, Rounding means,
                    Rounding squares, std::int16_t* const* out) {
  for (int r = 0; r < rows; ++r) {
    vertical_16bit_row(scale, taps[r], n, means, squares, out + r * kRowPlanes);
  }
}

void row_stats(int scale, const std::int16_t* const* planes, unsigned w, double gain_limit,
               const std::uint16_t* lut, RowSums& sums) {
  const Filter& f = kFilters[scale];
  for (unsigned j = 0; j < w; ++j) {
    std::uint64_t h[kRowPlanes] = {};
    for (int p = 0; p < kRowPlanes; ++p) {
      for (int k = 0; k <= 2 * f.half; ++k) {
        h[p] += std::uint64_t{f.taps[k]} * unbiased(planes[p][static_cast<int>(j) + k - f.half]);
      }
    }
    // E[.] is the 48-bit sum rounded by 16 bits, modulo 2^32 (libvmaf).
    auto moment = [&](int hi) {
      return static_cast<std::uint32_t>(((h[hi] << 16) + h[hi + 1] + kTapHalf) >> kTapBits);
    };
    const std::uint32_t mu1_sq = mean_product(h[kMu1], h[kMu1]);
    const std::uint32_t mu2_sq = mean_product(h[kMu2], h[kMu2]);
    const std::uint32_t mu1_mu2 = mean_product(h[kMu1], h[kMu2]);
    const auto sigma1_sq = static_cast<std::int32_t>(moment(kXxHi) - mu1_sq);
    const auto sigma2_sq = std::max(static_cast<std::int32_t>(moment(kYyHi) - mu2_sq), 0);
    const auto sigma12 = static_cast<std::int32_t>(moment(kXyHi) - mu1_mu2);

    if (sigma1_sq < kSigmaNsq) {
      sums.num_lin += sigma2_sq;
      sums.den_lin += 1;
      continue;
    }
    sums.den_log +=
        log2_q11(lut, static_cast<double>(kSigmaNsq + sigma1_sq)) - (kLog2SigmaNsq << kLogFracBits);
    if (sigma12 > 0 && sigma2_sq > 0) {
      double g = sigma12 / (sigma1_sq + kGainEps);
      const std::int32_t sv_sq = std::max(static_cast<std::int32_t>(sigma2_sq - g * sigma12), 0);
      g = std::min(g, gain_limit);
      const std::int32_t noise = sv_sq + kSigmaNsq;
      // An integer below 2^53 (g <= 100, sigma1^2 < 2^31): exact in double.
      const double signal =
          static_cast<double>(static_cast<std::int64_t>(g * g * sigma1_sq)) + noise;
      sums.num_log += log2_q11(lut, signal) - log2_q11(lut, static_cast<double>(noise));
    }
  }
}

namespace {

template <typename Src>
void downsample_row(int filter, const Src* const* rows, unsigned w, Rounding vertical,
                    std::int16_t* conv, std::uint16_t* out) {
  const Filter& f = kFilters[filter];
  for (unsigned j = 0; j < w; ++j) {
    std::uint32_t sum = 0;
    for (int k = 0; k <= 2 * f.half; ++k) sum += std::uint32_t{f.taps[k]} * rows[k][j];
    conv[j] = biased((sum + vertical.add) >> vertical.shift);
  }
  pad_reflect101(conv, static_cast<int>(w), f.half);
  for (unsigned c = 0; c < w / 2; ++c) {
    std::uint32_t sum = 0;
    for (int k = 0; k <= 2 * f.half; ++k) {
      sum += std::uint32_t{f.taps[k]} * unbiased(conv[2 * static_cast<int>(c) + k - f.half]);
    }
    out[c] = static_cast<std::uint16_t>(round_taps(sum));
  }
}

}  // namespace

void downsample_8bit(const std::uint8_t* const* rows, unsigned w, Rounding vertical,
                     std::int16_t* conv, std::uint16_t* out) {
  downsample_row(1, rows, w, vertical, conv, out);
}

void downsample_16bit(int filter, const std::uint16_t* const* rows, unsigned w, Rounding vertical,
                      std::int16_t* conv, std::uint16_t* out) {
  downsample_row(filter, rows, w, vertical, conv, out);
}

void log2_q11(const std::uint16_t* lut, const double* v, std::size_t n, std::int32_t* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = log2_q11(lut, v[i]);
}

}  // namespace vqx::vif::simd::reference

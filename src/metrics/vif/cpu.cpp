#include "metrics/vif/cpu.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <new>
#include <string>
#include <vector>

// Two forms of the moments and sums of a scale: the row kernels of
// simd.hpp (Highway, what compute() runs), and the plain loops below,
// written to be vectorised by the compiler and cloned for AVX2 and AVX-512
// (core/kernel_build.hpp), what compute_reference() runs; likewise the
// pyramid's downsampling (simd.hpp's downsample_* and the plain loops).
#include "core/kernel_build.hpp"
// The border rule and round_up, shared with the GPU twin.
#include "core/index_math.hpp"
#include "core/zeroed_memory.hpp"
#include "metrics/vif/scores.hpp"
#include "metrics/vif/simd.hpp"

namespace vqx::vif {

namespace {

// Rows are processed in blocks of kLanes columns. Every row buffer is padded
// to a multiple of kLanes (and input pictures have 64-byte aligned rows), so
// blocks never need a scalar tail; columns past the width compute values
// that are never used.
constexpr std::size_t kLanes = 16;
// Mirrored margin kept either side of horizontally filtered rows (>= 8).
constexpr std::size_t kMargin = 16;
// Planes of a prepared source row: x, y and the products x*x, y*y, x*y, the
// products as high and low 16-bit halves when they may exceed 16 bits.
constexpr int kMaxPlanes = 8;
// The planes entering the horizontal pass: the vertical means mu1, mu2 and
// the vertical second moments xx, yy, xy split into high and low halves, all
// below 2^16 but held in 32 bits: loads then need no widening, which is
// faster. (The ring of source planes stays 16-bit: at 32 bits it is too big
// for the cache and the vertical pass slows down.)
enum HPlane { kMu1, kMu2, kXxHi, kXxLo, kYyHi, kYyLo, kXyHi, kXyLo, kHPlanes };

// libvmaf's border rule for rows and columns alike is reflect101
// (core/index_math.hpp): ..., 2, 1, 0, 1, 2, ..., the edge not repeated.

// The buffers of one kernel, sized by init().
struct WorkspaceData {
  std::size_t padded = 0;   // round_up(width, kLanes)
  std::size_t hstride = 0;  // kMargin + padded + kMargin
  std::size_t conv_stride = 0;
  std::vector<std::uint16_t> ring;    // slot-major, then plane; `padded` samples each
  std::vector<std::uint32_t> sums;    // kMaxPlanes filter outputs of `padded` lanes
  std::vector<std::uint32_t> hrows;   // kHPlanes rows of hstride, mirrored margins
  std::vector<std::int32_t> sigma;    // sigma1^2, sigma2^2, sigma12 rows
  std::vector<std::int32_t> den_arg;  // one row of stats_row() intermediates
  std::vector<double> signal;
  std::vector<std::uint16_t> index;  // log2 table indices of one row, 3 kinds
  std::vector<std::uint16_t> conv;   // 2 vertically smoothed rows for downsampling
  const std::uint16_t* lut = nullptr;

  [[nodiscard]] std::uint16_t* ring_row(int slot, int plane) {
    return ring.data() + (static_cast<std::size_t>(slot) * kMaxPlanes + plane) * padded;
  }
  [[nodiscard]] std::uint32_t* sum_row(int plane) { return sums.data() + plane * padded; }
  [[nodiscard]] std::uint32_t* hrow(int plane) { return hrows.data() + plane * hstride + kMargin; }
  [[nodiscard]] std::uint16_t* conv_row(int which) {
    return conv.data() + which * conv_stride + kMargin;
  }
};

// out[j] = sum_k taps[k] * src[k][j] over whole blocks, with the taps of
// filter F, symmetric about src[Half]. Samples are below 2^16 and the taps
// sum to 2^16, so 32-bit sums are exact.
template <int F, typename Src>
VQX_FORCE_INLINE void symmetric_filter(const Src* const* src, std::size_t blocks,
                                       std::uint32_t* __restrict out) {
  constexpr int kHalf = kFilters[F].half;
  const std::uint16_t* taps = kFilters[F].taps.data();
  const std::size_t n = blocks * kLanes;
  const Src* mid = src[kHalf];
  for (std::size_t j = 0; j < n; ++j) {
    std::uint32_t acc = std::uint32_t{taps[kHalf]} * mid[j];
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
    for (int k = 0; k < kHalf; ++k) {
      acc += std::uint32_t{taps[k]} * (std::uint32_t{src[k][j]} + src[2 * kHalf - k][j]);
    }
    out[j] = acc;
  }
}

// The same filter along one row: out[j] = sum_k taps[k] * row[j + k - Half].
// row[-Half .. n + Half) must be valid and below 2^16.
template <int F>
VQX_FORCE_INLINE void row_filter(const std::uint32_t* row, std::size_t blocks,
                                 std::uint32_t* __restrict out) {
  constexpr int kHalf = kFilters[F].half;
  const std::uint16_t* taps = kFilters[F].taps.data();
  const auto n = static_cast<std::ptrdiff_t>(blocks * kLanes);
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    std::uint32_t acc = std::uint32_t{taps[kHalf]} * row[j];
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
    for (int k = 0; k < kHalf; ++k) {
      acc += std::uint32_t{taps[k]} * (row[j + k - kHalf] + row[j + kHalf - k]);
    }
    out[j] = acc;
  }
}

// The filter F of a row at its even columns only, rounded back to 16 bits:
// out[j] = filtered value at column 2j.
template <int F>
VQX_FORCE_INLINE void even_columns_filter(const std::uint16_t* row, std::size_t blocks,
                                          std::uint16_t* __restrict out) {
  constexpr int kHalf = kFilters[F].half;
  const std::uint16_t* taps = kFilters[F].taps.data();
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint16_t* centre = row + 2 * j;
    std::uint32_t acc = std::uint32_t{taps[kHalf]} * centre[0];
#if defined(__GNUC__)
#pragma GCC unroll 8
#endif
    for (int k = 0; k < kHalf; ++k) {
      acc += std::uint32_t{taps[k]} * (std::uint32_t{centre[k - kHalf]} + centre[kHalf - k]);
    }
    out[j] = static_cast<std::uint16_t>(round_taps(acc));
  }
}

// Splits the products of one source row into the planes the vertical pass
// filters: x, y, x*x, y*y, x*y, all below 2^16 for 8-bit samples.
VQX_FORCE_INLINE void prepare_row_8bit(const std::uint8_t* __restrict r,
                                       const std::uint8_t* __restrict d, std::size_t blocks,
                                       std::uint16_t* __restrict px, std::uint16_t* __restrict py,
                                       std::uint16_t* __restrict pxx, std::uint16_t* __restrict pyy,
                                       std::uint16_t* __restrict pxy) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint16_t x = r[j];
    const std::uint16_t y = d[j];
    px[j] = x;
    py[j] = y;
    pxx[j] = static_cast<std::uint16_t>(x * x);
    pyy[j] = static_cast<std::uint16_t>(y * y);
    pxy[j] = static_cast<std::uint16_t>(x * y);
  }
}

// The same for 16-bit samples: the 32-bit products as high and low halves.
VQX_FORCE_INLINE void prepare_row_16bit(
    const std::uint16_t* __restrict r, const std::uint16_t* __restrict d, std::size_t blocks,
    std::uint16_t* __restrict px, std::uint16_t* __restrict py, std::uint16_t* __restrict pxx_hi,
    std::uint16_t* __restrict pxx_lo, std::uint16_t* __restrict pyy_hi,
    std::uint16_t* __restrict pyy_lo, std::uint16_t* __restrict pxy_hi,
    std::uint16_t* __restrict pxy_lo) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t x = r[j];
    const std::uint32_t y = d[j];
    const std::uint32_t xx = x * x;
    const std::uint32_t yy = y * y;
    const std::uint32_t xy = x * y;
    px[j] = static_cast<std::uint16_t>(x);
    py[j] = static_cast<std::uint16_t>(y);
    pxx_hi[j] = static_cast<std::uint16_t>(xx >> 16);
    pxx_lo[j] = static_cast<std::uint16_t>(xx);
    pyy_hi[j] = static_cast<std::uint16_t>(yy >> 16);
    pyy_lo[j] = static_cast<std::uint16_t>(yy);
    pxy_hi[j] = static_cast<std::uint16_t>(xy >> 16);
    pxy_lo[j] = static_cast<std::uint16_t>(xy);
  }
}

// A filtered row rounded to 16 bits: (sum + add) >> shift.
VQX_FORCE_INLINE void round_to_16bit(const std::uint32_t* __restrict sum, std::size_t blocks,
                                     std::uint32_t add, int shift, std::uint16_t* __restrict out) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) out[j] = static_cast<std::uint16_t>((sum[j] + add) >> shift);
}

// Vertical means rounded to 16 bits, (sum + add) >> shift, as libvmaf casts
// them.
VQX_FORCE_INLINE void round_means(const std::uint32_t* __restrict s1,
                                  const std::uint32_t* __restrict s2, std::size_t blocks,
                                  std::uint32_t add, int shift, std::uint32_t* __restrict mu1,
                                  std::uint32_t* __restrict mu2) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    mu1[j] = static_cast<std::uint16_t>((s1[j] + add) >> shift);
    mu2[j] = static_cast<std::uint16_t>((s2[j] + add) >> shift);
  }
}

// An exact 32-bit vertical second moment (8-bit input), split into halves.
VQX_FORCE_INLINE void split_moment(const std::uint32_t* __restrict s, std::size_t blocks,
                                   std::uint32_t* __restrict hi, std::uint32_t* __restrict lo) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    hi[j] = s[j] >> 16;
    lo[j] = s[j] & 0xffffu;
  }
}

// A vertical second moment filtered as halves (16-bit input), rounded by
// `shift` bits to 32 bits and split into halves again:
// (hi * 2^16 + lo + add) >> shift = (hi << (16 - shift)) + ((lo + add) >> shift),
// modulo 2^32 as in libvmaf (the low sum plus add stays below 2^32).
VQX_FORCE_INLINE void round_moment(const std::uint32_t* __restrict s_hi,
                                   const std::uint32_t* __restrict s_lo, std::size_t blocks,
                                   std::uint32_t add, int shift, std::uint32_t* __restrict hi,
                                   std::uint32_t* __restrict lo) {
  const std::size_t n = blocks * kLanes;
  const int up = 16 - shift;
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint32_t v = (s_hi[j] << up) + ((s_lo[j] + add) >> shift);
    hi[j] = v >> 16;
    lo[j] = v & 0xffffu;
  }
}

// From the horizontal sums to the local variances and covariance, in Q16 of
// (16-bit sample)^2: sigma1^2 = E[x^2] - mu1^2 etc. The mean products keep
// their rounded top 32 bits; E[.] = hi + ((lo + 2^15) >> 16) is the 48-bit
// sum rounded by 16 bits. sigma2^2 is clamped at 0, the others are not.
VQX_FORCE_INLINE void local_statistics(
    const std::uint32_t* __restrict m1, const std::uint32_t* __restrict m2,
    const std::uint32_t* __restrict xx_hi, const std::uint32_t* __restrict xx_lo,
    const std::uint32_t* __restrict yy_hi, const std::uint32_t* __restrict yy_lo,
    const std::uint32_t* __restrict xy_hi, const std::uint32_t* __restrict xy_lo,
    std::size_t blocks, std::int32_t* __restrict s11, std::int32_t* __restrict s22,
    std::int32_t* __restrict s12) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    const std::uint64_t a = m1[j];
    const std::uint64_t b = m2[j];
    const std::uint32_t mu1_sq = mean_product(a, a);
    const std::uint32_t mu2_sq = mean_product(b, b);
    const std::uint32_t mu1_mu2 = mean_product(a, b);
    const std::uint32_t ex2 = xx_hi[j] + round_taps(xx_lo[j]);
    const std::uint32_t ey2 = yy_hi[j] + round_taps(yy_lo[j]);
    const std::uint32_t exy = xy_hi[j] + round_taps(xy_lo[j]);
    s11[j] = static_cast<std::int32_t>(ex2 - mu1_sq);
    s22[j] = std::max(static_cast<std::int32_t>(ey2 - mu2_sq), 0);
    s12[j] = static_cast<std::int32_t>(exy - mu1_mu2);
  }
}

// The four integer sums of one scale.
struct ScaleAccum {
  std::int64_t num_log = 0;  // Q11 log2 terms of the numerator
  std::int64_t den_log = 0;  // Q11 log2 terms of the denominator
  std::int64_t num_lin = 0;  // sigma2^2 summed where sigma1^2 is below the noise
  std::int64_t den_lin = 0;  // count of those pixels
};

// floor(x) for 0 <= x < 2^52, exactly, in operations that vectorise on
// every x86 level (floor itself does not without -fno-trapping-math): x
// rounded to an integer by adding and removing 2^52, less 1 where that
// rounded up. Non-negative doubles order as their bit patterns do.
VQX_FORCE_INLINE double floor_small(double x) {
  const double r = (x + 0x1p52) - 0x1p52;
  const bool rounded_up = std::bit_cast<std::int64_t>(r) > std::bit_cast<std::int64_t>(x);
  const std::uint64_t one_if_up = std::bit_cast<std::uint64_t>(1.0) & -std::uint64_t{rounded_up};
  return r - std::bit_cast<double>(one_if_up);
}

// The Q11 log2 of an integer v, 2^16 <= v < 2^53, is taken from the double
// holding v exactly: its exponent e gives the whole part, and its top
// kLog2TableBits (16) significant bits, (v >> (e - 15)), index the table.
// This is libvmaf's log2_32 / log2_64 (which find e with a count of leading
// zeros). An index is the leading 1 and the 15 stored bits after it.
constexpr int kIndexFraction = kLog2TableBits - 1;  // stored bits in an index
VQX_FORCE_INLINE std::int32_t log2_exponent(double v) {
  return static_cast<std::int32_t>(std::bit_cast<std::uint64_t>(v) >> kDoubleMantissaBits) -
         kDoubleExponentBias;
}
VQX_FORCE_INLINE std::uint16_t log2_index(double v) {
  constexpr std::uint64_t kLeadingOne = std::uint64_t{1} << kIndexFraction;
  return static_cast<std::uint16_t>(
      ((std::bit_cast<std::uint64_t>(v) >> (kDoubleMantissaBits - kIndexFraction)) &
       (kLeadingOne - 1)) |
      kLeadingOne);
}

// Adds one row of pixels to the sums. Where the reference varies more than
// the noise (sigma1^2 >= sigma_nsq):
//   den += log2(1 + sigma1^2 / sigma_nsq)
//   num += log2(1 + g^2 sigma1^2 / (sv^2 + sigma_nsq)),  g = sigma12 / sigma1^2,
//          sv^2 = sigma2^2 - g sigma12, g capped at the gain limit,
// the num term only where sigma12 > 0 and sigma2^2 > 0. Each log2(1 + a/b)
// is log2(b + a) - log2(b) from the Q11 table. Elsewhere the pixel counts 1
// in den and 1 - sigma2^2 / 255^2 in num (applied in finish()). g and sv^2
// use double exactly as libvmaf does.
//
// Branch-free passes over the row, each simple enough to vectorise:
// classify the pixels, the double arithmetic of the gain, the whole parts of
// the log2s with their table indices (index 0, whose entry is 0, where a
// term does not apply), then the table entries.

// Pass 1: flat pixels add to the linear sums; the others get their den
// argument (0: none); pixels without a num term get stand-ins
// (sigma12 = 0 marks them) that keep pass 2 harmless.
VQX_FORCE_INLINE void classify(std::int32_t* __restrict s11, std::int32_t* __restrict s22,
                               std::int32_t* __restrict s12, std::size_t blocks,
                               std::int32_t* __restrict den_arg, ScaleAccum& acc) {
  const std::size_t n = blocks * kLanes;
  std::int64_t lin_num = 0;
  std::int32_t lin_den = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::int32_t sigma1_sq = s11[j];
    const std::int32_t sigma2_sq = s22[j];
    const std::int32_t sigma12 = s12[j];
    const std::int32_t flat = sigma1_sq < kSigmaNsq ? 1 : 0;
    const std::int32_t gain = (1 - flat) & (sigma12 > 0 ? 1 : 0) & (sigma2_sq > 0 ? 1 : 0);
    lin_num += sigma2_sq * flat;
    lin_den += flat;
    den_arg[j] = flat != 0 ? 0 : kSigmaNsq + sigma1_sq;
    s11[j] = gain != 0 ? sigma1_sq : kSigmaNsq;
    s22[j] = sigma2_sq * gain;
    s12[j] = sigma12 * gain;
  }
  acc.num_lin += lin_num;
  acc.den_lin += lin_den;
}

// Pass 2: the gain g and the noise left after it, in double as libvmaf has
// them. The noise (an int) replaces sigma2^2; signal = noise +
// trunc(g^2 sigma1^2) is an integer below 2^53, exact in double.
VQX_FORCE_INLINE void gain_terms(const std::int32_t* __restrict s11, std::int32_t* __restrict s22,
                                 const std::int32_t* __restrict s12, std::size_t blocks,
                                 double gain_limit, double* __restrict signal) {
  const std::size_t n = blocks * kLanes;
  for (std::size_t j = 0; j < n; ++j) {
    const double sigma1_sq = s11[j];
    const double sigma2_sq = s22[j];
    const double sigma12 = s12[j];
    double g = sigma12 / (sigma1_sq + kGainEps);
    const std::int32_t sv_sq = std::max(static_cast<std::int32_t>(sigma2_sq - g * sigma12), 0);
    g = g < gain_limit ? g : gain_limit;
    // Local variances stay below 2^30 (Q16 of (65535 / 2)^2), so this sum,
    // an int in libvmaf too, cannot overflow.
    const std::int32_t noise = sv_sq + kSigmaNsq;
    s22[j] = noise;
    // g >= 0, g <= gain_limit <= 100 and sigma1^2 < 2^31: g^2 sigma1^2 < 2^45.
    signal[j] = floor_small(g * g * sigma1_sq) + noise;
  }
}

// Pass 3: the whole parts of the log2s, 2048 * (e - 15) each (den also
// less 2048 * 17, 17 = log2(sigma_nsq)), summed; the table indices stored.
VQX_FORCE_INLINE void log2_parts(const std::int32_t* __restrict den_arg,
                                 const std::int32_t* __restrict noise,
                                 const std::int32_t* __restrict s12,
                                 const double* __restrict signal, std::size_t blocks,
                                 std::uint16_t* __restrict den_idx,
                                 std::uint16_t* __restrict sig_idx,
                                 std::uint16_t* __restrict noise_idx, ScaleAccum& acc) {
  constexpr std::int32_t kDenBias = kIndexFraction + kLog2SigmaNsq;
  const std::size_t n = blocks * kLanes;
  std::int32_t den_whole = 0;
  std::int32_t num_whole = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const std::int32_t informative = den_arg[j] != 0 ? 1 : 0;
    const std::int32_t gain = s12[j] != 0 ? 1 : 0;
    const auto den_v = static_cast<double>(den_arg[j]);
    const auto noise_v = static_cast<double>(noise[j]);
    const double signal_v = signal[j];
    den_whole += ((log2_exponent(den_v) - kDenBias) << kLogFracBits) * informative;
    num_whole += ((log2_exponent(signal_v) - log2_exponent(noise_v)) << kLogFracBits) * gain;
    den_idx[j] = static_cast<std::uint16_t>(log2_index(den_v) * informative);
    sig_idx[j] = static_cast<std::uint16_t>(log2_index(signal_v) * gain);
    noise_idx[j] = static_cast<std::uint16_t>(log2_index(noise_v) * gain);
  }
  acc.den_log += den_whole;
  acc.num_log += num_whole;
}

// Pass 4: the table entries. Plain loads do best here: the table is 16-bit,
// which has no gather instruction, and emulated gathers are slower, so the
// table is read through a volatile pointer, which keeps this loop scalar.
VQX_FORCE_INLINE void log2_table_sums(const volatile std::uint16_t* lut,
                                      const std::uint16_t* __restrict den_idx,
                                      const std::uint16_t* __restrict sig_idx,
                                      const std::uint16_t* __restrict noise_idx, std::size_t blocks,
                                      ScaleAccum& acc) {
  const std::size_t n = blocks * kLanes;
  std::int32_t den_table = 0;
  std::int32_t num_table = 0;
  for (std::size_t j = 0; j < n; ++j) {
    den_table += lut[den_idx[j]];
    num_table += std::int32_t{lut[sig_idx[j]]} - std::int32_t{lut[noise_idx[j]]};
  }
  acc.den_log += den_table;
  acc.num_log += num_table;
}

VQX_FORCE_INLINE void stats_row(WorkspaceData& ws, std::size_t blocks, double gain_limit,
                                ScaleAccum& acc) {
  std::int32_t* s11 = ws.sigma.data();
  std::int32_t* s22 = s11 + ws.padded;
  std::int32_t* s12 = s22 + ws.padded;
  std::uint16_t* den_idx = ws.index.data();
  std::uint16_t* sig_idx = den_idx + ws.padded;
  std::uint16_t* noise_idx = sig_idx + ws.padded;
  classify(s11, s22, s12, blocks, ws.den_arg.data(), acc);
  gain_terms(s11, s22, s12, blocks, gain_limit, ws.signal.data());
  log2_parts(ws.den_arg.data(), s22, s12, ws.signal.data(), blocks, den_idx, sig_idx, noise_idx,
             acc);
  log2_table_sums(ws.lut, den_idx, sig_idx, noise_idx, blocks, acc);
}

// The scale's num and den (scores.cpp, shared with the GPU twin).
ScaleSums finish(const ScaleAccum& acc) {
  return finish_scale(acc.num_log, acc.den_log, acc.num_lin, acc.den_lin);
}

// One scale of one frame pair: where the samples are and what to do.
struct ScaleJob {
  const void* ref;
  const void* dis;
  std::size_t ref_stride;  // in samples
  std::size_t dis_stride;
  unsigned w;
  unsigned h;
  unsigned bpc;
  double gain_limit;
  WorkspaceData* ws;
};

// The num/den sums of one scale. Source rows are prepared once into a ring
// of 2 * Half + 1 slots (row y in slot y mod slots: the mirrored rows an
// output row needs always lie within Half rows of it, so in the ring).
template <int Scale, typename Src, bool Wide>
VQX_FORCE_INLINE ScaleAccum scale_sums(const ScaleJob& job) {
  constexpr int kHalf = kFilters[Scale].half;
  constexpr int kTaps = 2 * kHalf + 1;
  constexpr int kPlanes = Wide ? 8 : 5;
  WorkspaceData& ws = *job.ws;
  const auto* ref = static_cast<const Src*>(job.ref);
  const auto* dis = static_cast<const Src*>(job.dis);
  const int h = static_cast<int>(job.h);
  const std::size_t blocks = round_up(std::size_t{job.w}, kLanes) / kLanes;
  const std::size_t n = blocks * kLanes;
  const Rounding means = mean_rounding(Scale, job.bpc);
  const Rounding squares = square_rounding(Scale, job.bpc);

  ScaleAccum acc;
  int next_row = 0;
  for (int i = 0; i < h; ++i) {
    for (const int last = std::min(i + kHalf, h - 1); next_row <= last; ++next_row) {
      const int slot = next_row % kTaps;
      const Src* r = ref + next_row * job.ref_stride;
      const Src* d = dis + next_row * job.dis_stride;
      if constexpr (Wide) {
        prepare_row_16bit(r, d, blocks, ws.ring_row(slot, 0), ws.ring_row(slot, 1),
                          ws.ring_row(slot, 2), ws.ring_row(slot, 3), ws.ring_row(slot, 4),
                          ws.ring_row(slot, 5), ws.ring_row(slot, 6), ws.ring_row(slot, 7));
      } else {
        prepare_row_8bit(r, d, blocks, ws.ring_row(slot, 0), ws.ring_row(slot, 1),
                         ws.ring_row(slot, 2), ws.ring_row(slot, 3), ws.ring_row(slot, 4));
      }
    }
    int slots[kTaps];
    for (int k = 0; k < kTaps; ++k) slots[k] = reflect101(i + k - kHalf, h) % kTaps;

    const std::uint16_t* src[kTaps];
    for (int p = 0; p < kPlanes; ++p) {
      for (int k = 0; k < kTaps; ++k) src[k] = ws.ring_row(slots[k], p);
      symmetric_filter<Scale>(src, blocks, ws.sum_row(p));
    }
    round_means(ws.sum_row(0), ws.sum_row(1), blocks, means.add, means.shift, ws.hrow(kMu1),
                ws.hrow(kMu2));
    for (int m = 0; m < 3; ++m) {
      if constexpr (Wide) {
        round_moment(ws.sum_row(2 + 2 * m), ws.sum_row(3 + 2 * m), blocks, squares.add,
                     squares.shift, ws.hrow(kXxHi + 2 * m), ws.hrow(kXxLo + 2 * m));
      } else {
        split_moment(ws.sum_row(2 + m), blocks, ws.hrow(kXxHi + 2 * m), ws.hrow(kXxLo + 2 * m));
      }
    }

    for (int p = 0; p < kHPlanes; ++p) {
      std::uint32_t* row = ws.hrow(p);
      pad_reflect101(row, static_cast<int>(job.w), kHalf);
      row_filter<Scale>(row, blocks, ws.sum_row(p));
    }
    std::int32_t* s11 = ws.sigma.data();
    std::int32_t* s22 = s11 + ws.padded;
    std::int32_t* s12 = s22 + ws.padded;
    local_statistics(ws.sum_row(kMu1), ws.sum_row(kMu2), ws.sum_row(kXxHi), ws.sum_row(kXxLo),
                     ws.sum_row(kYyHi), ws.sum_row(kYyLo), ws.sum_row(kXyHi), ws.sum_row(kXyLo),
                     blocks, s11, s22, s12);
    // Lanes past the width count as flat pixels (taken back out below).
    for (std::size_t j = job.w; j < n; ++j) s11[j] = s22[j] = s12[j] = 0;
    stats_row(ws, blocks, job.gain_limit, acc);
  }
  // Every row counted its n - w padding lanes as flat pixels.
  acc.den_lin -= static_cast<std::int64_t>(n - job.w) * h;
  return acc;
}

// Scale + 1 from scale: the filter of scale + 1, then every second row and
// column. Scale 0 arrives at bpc bits and leaves the vertical pass as 16
// bits; later scales are 16-bit throughout.
template <int Scale, typename Src>
VQX_FORCE_INLINE void downsample(const ScaleJob& job, std::uint16_t* out_ref,
                                 std::uint16_t* out_dis, std::size_t out_stride) {
  constexpr int kHalf = kFilters[Scale + 1].half;
  constexpr int kTaps = 2 * kHalf + 1;
  WorkspaceData& ws = *job.ws;
  const int h = static_cast<int>(job.h);
  const std::size_t blocks = round_up(std::size_t{job.w}, kLanes) / kLanes;
  const std::size_t n_out = round_up(std::size_t{job.w / 2}, kLanes);
  const Rounding vertical = mean_rounding(Scale, job.bpc);

  for (int i = 0; i < h / 2; ++i) {
    for (int which = 0; which < 2; ++which) {
      const auto* base = static_cast<const Src*>(which == 0 ? job.ref : job.dis);
      const std::size_t stride = which == 0 ? job.ref_stride : job.dis_stride;
      const Src* rows[kTaps];
      for (int k = 0; k < kTaps; ++k) {
        rows[k] = base + static_cast<std::size_t>(reflect101(2 * i + k - kHalf, h)) * stride;
      }
      symmetric_filter<Scale + 1>(rows, blocks, ws.sum_row(0));
      std::uint16_t* conv = ws.conv_row(which);
      round_to_16bit(ws.sum_row(0), blocks, vertical.add, vertical.shift, conv);
      pad_reflect101(conv, static_cast<int>(job.w), kHalf);
      std::uint16_t* out =
          (which == 0 ? out_ref : out_dis) + static_cast<std::size_t>(i) * out_stride;
      even_columns_filter<Scale + 1>(conv, n_out / kLanes, out);
    }
  }
}

// The entry points, one per (scale, sample type), compiled once per target.
VQX_CLONES ScaleAccum sums_scale0_8bit(const ScaleJob& job) {
  return scale_sums<0, std::uint8_t, false>(job);
}
VQX_CLONES ScaleAccum sums_scale0_16bit(const ScaleJob& job) {
  return scale_sums<0, std::uint16_t, true>(job);
}
VQX_CLONES ScaleAccum sums_scale1(const ScaleJob& job) {
  return scale_sums<1, std::uint16_t, true>(job);
}
VQX_CLONES ScaleAccum sums_scale2(const ScaleJob& job) {
  return scale_sums<2, std::uint16_t, true>(job);
}
VQX_CLONES ScaleAccum sums_scale3(const ScaleJob& job) {
  return scale_sums<3, std::uint16_t, true>(job);
}
VQX_CLONES void downsample_scale0_8bit(const ScaleJob& job, std::uint16_t* out_ref,
                                       std::uint16_t* out_dis, std::size_t out_stride) {
  downsample<0, std::uint8_t>(job, out_ref, out_dis, out_stride);
}
VQX_CLONES void downsample_scale0_16bit(const ScaleJob& job, std::uint16_t* out_ref,
                                        std::uint16_t* out_dis, std::size_t out_stride) {
  downsample<0, std::uint16_t>(job, out_ref, out_dis, out_stride);
}
VQX_CLONES void downsample_scale1(const ScaleJob& job, std::uint16_t* out_ref,
                                  std::uint16_t* out_dis, std::size_t out_stride) {
  downsample<1, std::uint16_t>(job, out_ref, out_dis, out_stride);
}
VQX_CLONES void downsample_scale2(const ScaleJob& job, std::uint16_t* out_ref,
                                  std::uint16_t* out_dis, std::size_t out_stride) {
  downsample<2, std::uint16_t>(job, out_ref, out_dis, out_stride);
}

// The row kernels run on vertical strips of output columns: kStrip16 for
// 16-bit sources, so that the ring of prepared rows (2 * 8 + kVerticalRows
// rows of up to 8 planes, 348 KB) stays in L2; kStrip8 for 8-bit ones,
// which have no ring, so that a picture up to 4K wide is one strip
// (narrower strips filter the columns where they meet twice: 1024 columns
// cost VIF 3 % more CPU time at 1080p, 6 % at 4K, on a Zen 5 EPYC,
// docs/performance.md). A strip's source columns start at a multiple of
// kVectorSamples (the largest vector of int16, AVX-512's 32).
constexpr std::size_t kStrip16 = 1024;
constexpr std::size_t kStrip8 = 4096;
constexpr std::size_t kVectorSamples = 32;
// The most source columns of a strip: half either side, and the start
// rounded down.
constexpr std::size_t strip_span(std::size_t strip) {
  return strip + 2 * kMaxHalf + kVectorSamples;
}

// A cache line in bytes.
constexpr std::size_t kCacheLine = 64;

// The buffers of the row kernels (simd.hpp): the row planes between the
// vertical and the horizontal pass (of simd::kVerticalRows output rows),
// and for 16-bit sources the ring of prepared rows (row y in slot y mod
// (2 * half + kVerticalRows), as above).
struct SimdBuffers {
  std::size_t padded = 0;      // round_up(min(width, the depth's strip span), simd::kBlock)
  std::size_t ring_pitch = 0;  // the same for the widest 16-bit source
  std::size_t plane_stride = 0;
  // In the workspace's slab, zeroed, 64-byte aligned (an AVX-512 vector:
  // the kernels' vectors never straddle two cache lines where their offsets
  // are whole vectors).
  std::int16_t* planes = nullptr;  // kVerticalRows x kRowPlanes rows of plane_stride, kPad margins
  std::int16_t* ring = nullptr;    // slot-major, then source plane; `ring_pitch` each
  std::uint16_t* scratch = nullptr;  // row_stats()'s, row_stats_scratch(padded)
  std::int16_t* conv = nullptr;      // the downsampling's row: kPad, padded, kPad

  [[nodiscard]] std::int16_t* plane(int row, int p) const {
    return planes + static_cast<std::size_t>(row * simd::kRowPlanes + p) * plane_stride +
           simd::kPad;
  }
  [[nodiscard]] std::int16_t* conv_row() const { return conv + simd::kPad; }
  [[nodiscard]] std::int16_t* ring_row(int slot, int plane) const {
    return ring + (static_cast<std::size_t>(slot) * simd::kSourcePlanes + plane) * ring_pitch;
  }
};

// The num/den sums of one scale through the row kernels, dispatched once
// per output row (the 16-bit vertical pass once per kVerticalRows of them);
// each 16-bit source row is prepared once, into the ring.
template <int Scale, typename Src>
ScaleAccum simd_scale_sums(const ScaleJob& job, SimdBuffers& b) {
  constexpr int kHalf = kFilters[Scale].half;
  constexpr int kTaps = 2 * kHalf + 1;
  constexpr bool kNarrow = sizeof(Src) == 1;  // 8-bit samples, scale 0 only
  static_assert(!kNarrow || Scale == 0);
  const int h = static_cast<int>(job.h);
  const std::size_t w = job.w;
  const Rounding means = mean_rounding(Scale, job.bpc);
  const Rounding squares = square_rounding(Scale, job.bpc);
  // The row planes of up to kVerticalRows output rows, row by row.
  constexpr int kOutRows = kNarrow ? 1 : simd::kVerticalRows;
  constexpr int kRingSlots = kTaps + kOutRows - 1;  // the rows a call reads, and those ahead
  std::int16_t* planes[kOutRows * simd::kRowPlanes];
  for (int r = 0; r < kOutRows; ++r) {
    for (int p = 0; p < simd::kRowPlanes; ++p) planes[r * simd::kRowPlanes + p] = b.plane(r, p);
  }

  simd::RowSums acc;
  constexpr std::size_t kStrip = kNarrow ? kStrip8 : kStrip16;
  for (std::size_t c0 = 0; c0 < w; c0 += kStrip) {
    // Output columns [c0, c1) from source columns [s0, s1): half more on
    // either side, s0 a multiple of kVectorSamples so that whole vectors
    // from it stay within the rows' padding.
    const std::size_t c1 = std::min(w, c0 + kStrip);
    const std::size_t s0 = c0 == 0 ? 0 : (c0 - kHalf) / kVectorSamples * kVectorSamples;
    const std::size_t s1 = std::min(w, c1 + kHalf);
    const std::size_t n = s1 - s0;
    const auto* ref = static_cast<const Src*>(job.ref) + s0;
    const auto* dis = static_cast<const Src*>(job.dis) + s0;

    int next_row = 0;
    for (int i = 0; i < h;) {
      int rows = 1;  // output rows i .. i + rows - 1 in this turn
      if constexpr (kNarrow) {
        // 8-bit rows are read as they are (17 rows of bytes stay in L2).
        simd::Taps8 taps{};
        for (int k = 0; k < kTaps; ++k) {
          const auto y = static_cast<std::size_t>(reflect101(i + k - kHalf, h));
          taps.ref[k] = ref + y * job.ref_stride;
          taps.dis[k] = dis + y * job.dis_stride;
        }
        simd::vertical_8bit(taps, n, planes);
      } else {
        rows = std::min(kOutRows, h - i);
        for (const int last = std::min(i + rows - 1 + kHalf, h - 1); next_row <= last; ++next_row) {
          const int slot = next_row % kRingSlots;
          std::int16_t* src[simd::kSourcePlanes];
          for (int p = 0; p < simd::kSourcePlanes; ++p) src[p] = b.ring_row(slot, p);
          simd::prepare_16bit(ref + next_row * job.ref_stride, dis + next_row * job.dis_stride, n,
                              src);
        }
        simd::Taps16 taps[kOutRows]{};
        for (int r = 0; r < rows; ++r) {
          for (int k = 0; k < kTaps; ++k) {
            const int slot = reflect101(i + r + k - kHalf, h) % kRingSlots;
            for (int p = 0; p < simd::kSourcePlanes; ++p) taps[r].rows[p][k] = b.ring_row(slot, p);
          }
        }
        simd::vertical_16bit(Scale, taps, rows, n, means, squares, planes);
      }
      for (int r = 0; r < rows; ++r) {
        std::int16_t* const* row_planes = planes + r * simd::kRowPlanes;
        // Mirrored where the strip meets the picture's sides; elsewhere the
        // values written lie outside what the horizontal pass weighs.
        std::int16_t* strip_planes[simd::kRowPlanes];
        for (int p = 0; p < simd::kRowPlanes; ++p) {
          pad_reflect101(row_planes[p], static_cast<int>(n), kHalf);
          strip_planes[p] = row_planes[p] + (c0 - s0);
        }
        simd::row_stats(Scale, strip_planes, static_cast<unsigned>(c1 - c0), job.gain_limit,
                        job.ws->lut, b.scratch, acc);
      }
      i += rows;
    }
  }
  return {acc.num_log, acc.den_log, acc.num_lin, acc.den_lin};
}

// Scale + 1 from scale through the row kernels (the reference: downsample
// above), one output row at a time.
// The downsampling's source rows are prefetched this many output rows
// ahead, a cache line at a time.
constexpr int kPrefetchRows = 4;
template <typename Src>
void simd_downsample(int scale, const ScaleJob& job, SimdBuffers& b, std::uint16_t* out_ref,
                     std::uint16_t* out_dis, std::size_t out_stride) {
  const int filter = scale + 1;
  const int half = kFilters[filter].half;
  const int h = static_cast<int>(job.h);
  const Rounding vertical = mean_rounding(scale, job.bpc);
  for (int i = 0; i < h / 2; ++i) {
    for (int which = 0; which < 2; ++which) {
      const auto* base = static_cast<const Src*>(which == 0 ? job.ref : job.dis);
      const std::size_t stride = which == 0 ? job.ref_stride : job.dis_stride;
      const Src* rows[2 * kMaxHalf + 1];
      for (int k = 0; k <= 2 * half; ++k) {
        rows[k] = base + static_cast<std::size_t>(reflect101(2 * i + k - half, h)) * stride;
      }
      // The source rows a few output rows ahead are brought into the cache
      // now (the picture was last read a whole scale ago).
      for (int k = 1; k <= 2; ++k) {
        const int y = 2 * (i + kPrefetchRows) + half + k;
        if (y >= h) break;
        const auto* row =
            reinterpret_cast<const char*>(base + static_cast<std::size_t>(y) * stride);
        for (std::size_t at = 0; at < job.w * sizeof(Src); at += kCacheLine) {
          __builtin_prefetch(row + at);
        }
      }
      std::uint16_t* out =
          (which == 0 ? out_ref : out_dis) + static_cast<std::size_t>(i) * out_stride;
      if constexpr (sizeof(Src) == 1) {
        simd::downsample_8bit(rows, job.w, vertical, b.conv_row(), out);
      } else {
        simd::downsample_16bit(filter, rows, job.w, vertical, b.conv_row(), out);
      }
    }
  }
}

}  // namespace

// The buffers of a CpuKernel, plus the pyramid of scales 1..3.
struct Workspace : WorkspaceData {
  ZeroedSlab slab;  // the pyramid's planes and simd's buffers
  std::array<std::uint16_t*, kScaleCount - 1> pyr_ref{};
  std::array<std::uint16_t*, kScaleCount - 1> pyr_dis{};
  std::array<std::size_t, kScaleCount - 1> pyr_stride{};
  SimdBuffers simd;
};

const std::array<std::uint16_t, 65536>& log2_q11_table() {
  // libvmaf rounds log2 to float before scaling, and that rounding matters:
  // 38 entries differ from a table built from log2 in double. Rounding a
  // double log2 to float gives the correctly rounded float, which
  // reproduces glibc's log2f table entry for entry (checked for all i).
  static const std::array<std::uint16_t, 65536> kTable = [] {
    std::array<std::uint16_t, 65536> t{};
    for (unsigned i = 32767; i < 65536; ++i) {
      const auto l = static_cast<float>(std::log2(static_cast<double>(i)));
      t[i] = static_cast<std::uint16_t>(std::round(l * static_cast<float>(kLogOne)));
    }
    return t;
  }();
  return kTable;
}

CpuKernel::CpuKernel() = default;
CpuKernel::~CpuKernel() = default;
CpuKernel::CpuKernel(CpuKernel&&) noexcept = default;
CpuKernel& CpuKernel::operator=(CpuKernel&&) noexcept = default;

Status check_format(unsigned width, unsigned height, unsigned bpc) {
  if (width < kMinSide || height < kMinSide) {
    return Error(Errc::kUnsupported, "vif: picture " + std::to_string(width) + "x" +
                                         std::to_string(height) + " is too small (at least " +
                                         std::to_string(kMinSide) + "x" + std::to_string(kMinSide) +
                                         ")");
  }
  if (bpc < kMinBpc || bpc > kMaxBpc) {
    return Error(Errc::kUnsupported, "vif: bit depth " + std::to_string(bpc) + " not supported");
  }
  return Status::Ok();
}

Status CpuKernel::init(unsigned width, unsigned height, unsigned bpc) {
  VQX_RETURN_IF_ERROR(check_format(width, height, bpc));
  width_ = width;
  height_ = height;
  bpc_ = bpc;
  auto ws = std::make_unique<Workspace>();
  ws->lut = log2_q11_table().data();
  ws->padded = round_up(std::size_t{width}, kLanes);
  ws->hstride = kMargin + ws->padded + kMargin;
  // The even-column pass of the downsampling filter reads up to
  // 2 * round_up(w / 2, kLanes) + half columns of its row.
  ws->conv_stride = kMargin + round_up(std::size_t{width}, 2 * kLanes) + kMargin;

  // Every buffer of the row kernels in one slab. (The plain loops' buffers
  // wait for compute_reference(): the row kernels never touch them.)
  ZeroedSlab& slab = ws->slab;
  SimdBuffers& b = ws->simd;
  std::array<std::size_t, 2 * (kScaleCount - 1)> pyramid{};
  for (int s = 1; s < kScaleCount; ++s) {
    // Whole blocks of the row kernels are read from every row.
    ws->pyr_stride[s - 1] = round_up(std::size_t{width} >> s, simd::kBlock);
    const std::size_t area = ws->pyr_stride[s - 1] * (std::size_t{height} >> s);
    pyramid[2 * (s - 1)] = slab.plan<std::uint16_t>(area);
    pyramid[2 * (s - 1) + 1] = slab.plan<std::uint16_t>(area);
  }
  const std::size_t span = strip_span(bpc > 8 ? kStrip16 : kStrip8);
  b.padded = round_up(std::min(std::size_t{width}, span), simd::kBlock);
  b.plane_stride = simd::kPad + b.padded + simd::kPad;
  const std::size_t planes =
      slab.plan<std::int16_t>(simd::kVerticalRows * simd::kRowPlanes * b.plane_stride);
  const std::size_t scratch = slab.plan<std::uint16_t>(simd::row_stats_scratch(b.padded));
  const std::size_t conv =
      slab.plan<std::int16_t>(simd::kPad + round_up(std::size_t{width}, simd::kBlock) + simd::kPad);
  // The ring serves 16-bit scale 0 and scales 1..3 at every depth (of 8-bit
  // pictures, scale 1 is the widest it serves).
  const std::size_t wide_width = bpc > 8 ? width : width >> 1;
  b.ring_pitch = round_up(std::min(wide_width, strip_span(kStrip16)), simd::kBlock);
  const std::size_t ring =
      slab.plan<std::int16_t>(static_cast<std::size_t>(2 * kMaxHalf + simd::kVerticalRows) *
                              simd::kSourcePlanes * b.ring_pitch);
  slab.allocate();
  for (int s = 1; s < kScaleCount; ++s) {
    ws->pyr_ref[s - 1] = slab.get<std::uint16_t>(pyramid[2 * (s - 1)]);
    ws->pyr_dis[s - 1] = slab.get<std::uint16_t>(pyramid[2 * (s - 1) + 1]);
  }
  b.planes = slab.get<std::int16_t>(planes);
  b.scratch = slab.get<std::uint16_t>(scratch);
  b.conv = slab.get<std::int16_t>(conv);
  b.ring = slab.get<std::int16_t>(ring);
  ws_ = std::move(ws);
  return Status::Ok();
}

Status CpuKernel::check(const Plane& p) const {
  const std::size_t bps = bpc_ > 8 ? 2 : 1;
  if (ws_ == nullptr) return Error(Errc::kInternal, "vif: kernel used before init()");
  if (p.width() != width_ || p.height() != height_ || p.bytes_per_sample() != bps) {
    return Error(Errc::kMismatch, "vif: plane is " + std::to_string(p.width()) + "x" +
                                      std::to_string(p.height()) + ", expected " +
                                      std::to_string(width_) + "x" + std::to_string(height_));
  }
  // Rows are read in whole vectors, up to 64 bytes (AVX-512's) past the
  // last whole vector: Plane rows are padded to 64 bytes, which covers them.
  if (p.stride_bytes() < round_up(std::size_t{width_} * bps, std::size_t{64})) {
    return Error(Errc::kInternal, "vif: plane rows are not padded to 64 bytes");
  }
  return Status::Ok();
}

namespace {

// The sums of scale s (a ScaleJob on it), by the row kernels or, for the
// reference, by the plain loops.
ScaleAccum scale_sums(int s, const ScaleJob& job, SimdBuffers& b, bool reference) {
  const bool wide = job.bpc > 8 || s > 0;
  if (reference) {
    if (s == 0) return wide ? sums_scale0_16bit(job) : sums_scale0_8bit(job);
    return s == 1 ? sums_scale1(job) : s == 2 ? sums_scale2(job) : sums_scale3(job);
  }
  switch (s) {
    case 0:
      return wide ? simd_scale_sums<0, std::uint16_t>(job, b)
                  : simd_scale_sums<0, std::uint8_t>(job, b);
    case 1:
      return simd_scale_sums<1, std::uint16_t>(job, b);
    case 2:
      return simd_scale_sums<2, std::uint16_t>(job, b);
    default:
      return simd_scale_sums<3, std::uint16_t>(job, b);
  }
}

void compute_frame(Workspace& ws, unsigned width, unsigned height, unsigned bpc, const Plane& ref,
                   const Plane& dist, const KernelParams& params, FrameSums& out, bool reference) {
  const std::size_t bps = bpc > 8 ? 2 : 1;
  ScaleJob job{ref.data(),
               dist.data(),
               ref.stride_bytes() / bps,
               dist.stride_bytes() / bps,
               width,
               height,
               bpc,
               params.gain_limit,
               &ws};
  out = {};
  if (!params.skip_scale0) out[0] = finish(scale_sums(0, job, ws.simd, reference));
  for (int s = 1; s < kScaleCount; ++s) {
    std::uint16_t* next_ref = ws.pyr_ref[s - 1];
    std::uint16_t* next_dis = ws.pyr_dis[s - 1];
    const std::size_t next_stride = ws.pyr_stride[s - 1];
    if (!reference) {
      if (s == 1 && bpc == 8) {
        simd_downsample<std::uint8_t>(s - 1, job, ws.simd, next_ref, next_dis, next_stride);
      } else {
        simd_downsample<std::uint16_t>(s - 1, job, ws.simd, next_ref, next_dis, next_stride);
      }
    } else {
      switch (s) {
        case 1:
          if (bpc == 8) {
            downsample_scale0_8bit(job, next_ref, next_dis, next_stride);
          } else {
            downsample_scale0_16bit(job, next_ref, next_dis, next_stride);
          }
          break;
        case 2:
          downsample_scale1(job, next_ref, next_dis, next_stride);
          break;
        default:
          downsample_scale2(job, next_ref, next_dis, next_stride);
          break;
      }
    }
    job = ScaleJob{next_ref,    next_dis, next_stride,       next_stride, width >> s,
                   height >> s, bpc,      params.gain_limit, &ws};
    out[s] = finish(scale_sums(s, job, ws.simd, reference));
  }
}

}  // namespace

void CpuKernel::compute(const Plane& ref, const Plane& dist, const KernelParams& params,
                        FrameSums& out) {
  compute_frame(*ws_, width_, height_, bpc_, ref, dist, params, out, false);
}

void CpuKernel::compute_reference(const Plane& ref, const Plane& dist, const KernelParams& params,
                                  FrameSums& out) {
  WorkspaceData& ws = *ws_;
  if (ws.ring.empty()) {
    ws.ring.assign(static_cast<std::size_t>(2 * kMaxHalf + 1) * kMaxPlanes * ws.padded, 0);
    ws.sums.assign(static_cast<std::size_t>(kMaxPlanes) * ws.padded, 0);
    ws.hrows.assign(static_cast<std::size_t>(kHPlanes) * ws.hstride, 0);
    ws.sigma.assign(3 * ws.padded, 0);
    ws.den_arg.assign(ws.padded, 0);
    ws.signal.assign(ws.padded, 0.0);
    ws.index.assign(3 * ws.padded, 0);
    ws.conv.assign(2 * ws.conv_stride, 0);
  }
  compute_frame(*ws_, width_, height_, bpc_, ref, dist, params, out, true);
}

}  // namespace vqx::vif

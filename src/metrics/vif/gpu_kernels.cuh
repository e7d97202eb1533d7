// Integer VIF's GPU kernels, free of the runtime, so that a device-free test
// runs them on the CPU, one host thread per GPU thread
// (tests/unit/vif_kernels_test.cpp), against the CPU twin's sums.
//
// stats_kernel: one scale's four integer sums (num_log, den_log, num_lin,
// den_lin: libvmaf's vif_statistic_*). A block of kStatsThreads threads
// makes a tile of kStatsW x kStatsH pixels:
//  * it loads the tile's samples of ref and dist with the filter's half
//    width either side into shared memory: in 32-bit words where the tile
//    lies inside the picture and the rows allow it, else sample by sample
//    with the mirrored border;
//  * the vertical pass: each thread filters kVertRows rows of one column
//    at once, so that each sample it reads from shared memory serves every
//    one of those rows, into the five filtered moments (mu1, mu2, and the
//    second moments xx, yy, xy), kept in shared memory;
//  * the horizontal pass: each thread makes four neighbouring pixels from
//    128-bit reads of the moments (four columns a read), then the
//    per-pixel log2 terms (pixel_terms);
//  * the block's four sums go to the scale's totals through `Sum` (the
//    device's gpu/reduce.cuh integer atomics in gpu.cu, a host one in the
//    test): integers, exact in any order.
// subsample_kernel: the next scale, the filter at the even rows and columns
// of this one (all that decimation keeps).
// stats_args, subsample_args, the grids and *_kernel_for: each scale's
// launch (arguments, grid, instantiation), one sequence for the twin and
// the test.
// The arithmetic is integer_vif.c's, operation for operation, as cpu.cpp's;
// only the order of integer additions differs, which changes no bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/device_bits.cuh"
#include "core/device_unroll.hpp"
#include "core/index_math.hpp"
#include "metrics/vif/params.hpp"

namespace vqx::vif {

// The kernels are static: this header is compiled by the twin's .cu and, as
// host code, by the device-free test (see ciede/gpu_kernels.cuh).

inline constexpr int kSums = 4;  // num_log, den_log, num_lin, den_lin

inline constexpr int kStatsThreads = 256;
inline constexpr int kStatsW = 64;      // output columns per block
inline constexpr int kStatsH = 16;      // output rows per block
inline constexpr int kVertRows = 4;     // rows of one column a thread filters vertically
inline constexpr int kHorizPixels = 4;  // pixels of one row a thread filters horizontally
static_assert(kStatsH % kVertRows == 0 && kStatsW % kHorizPixels == 0);

struct StatsArgs {
  const void* ref;
  const void* dis;
  std::size_t pitch_ref;
  std::size_t pitch_dis;
  int w;
  int h;
  // Vertical pass rounding: means, then squares (shift 0: none).
  int mu_shift;
  std::uint32_t mu_round;
  int sq_shift;
  std::uint64_t sq_round;
  double gain_limit;
  const std::uint16_t* lut;  // log2_q11_table()
  unsigned long long* sums;  // kSums for this scale
};

struct SubsampleArgs {
  const void* ref;
  const void* dis;
  std::size_t pitch_in_ref;
  std::size_t pitch_in_dis;
  int w_in;
  int h_in;
  std::uint16_t* ref_out;
  std::uint16_t* dis_out;
  std::size_t pitch_out;  // bytes
  int w_out;              // w_in / 2
  int h_out;
  int v_shift;
  std::uint32_t v_round;
};

namespace kernel_detail {

struct FilterTable {
  std::uint16_t taps[kScaleCount][2 * kMaxHalf + 1];
};

constexpr FilterTable make_filter_table() {
  FilterTable t{};
  for (int s = 0; s < kScaleCount; ++s) {
    for (int k = 0; k < 2 * kFilters[s].half + 1; ++k) t.taps[s][k] = kFilters[s].taps[k];
  }
  return t;
}

// A tap of a scale's filter as a compile-time constant once the loops over
// the taps are unrolled (a table in memory would cost a load a product).
template <int Scale>
__device__ inline std::uint32_t tap(int k) {
  constexpr FilterTable kTable = make_filter_table();
  return kTable.taps[Scale][k];
}

template <typename Sample>
__device__ inline std::uint32_t load(const void* base, std::size_t pitch, int x, int y) {
  return reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(base) +
                                         pitch * static_cast<std::size_t>(y))[x];
}

// The mirrored index of `i` for a filter of half width `half` on a side of
// n > half samples (reflect101, as cpu.cpp); indices past what any output
// needs are clamped first (they only feed outputs outside the picture).
__device__ inline int mirrored(int i, int n, int half) {
  return reflect101(i < n - 1 + half ? i : n - 1 + half, n);
}

__device__ inline std::int32_t table_at(const std::uint16_t* lut, std::uint64_t i) {
#if defined(__CUDACC__) || defined(__HIPCC__)
  return __ldg(lut + i);
#else
  return lut[i];
#endif
}

// libvmaf's log2_32 / log2_64 (integer_vif.h): the Q11 log2 of the top
// kLog2TableBits bits from the table, plus kLogOne per bit dropped.
__device__ inline std::int32_t log2_32(const std::uint16_t* lut, std::uint32_t v) {
  const int k = 32 - kLog2TableBits - leading_zeros(v);
  return table_at(lut, v >> k) + kLogOne * k;
}
__device__ inline std::int32_t log2_64(const std::uint16_t* lut, std::uint64_t v) {
  const int k = 64 - kLog2TableBits - leading_zeros(v);
  return table_at(lut, v >> k) + kLogOne * k;
}

// Multiply-accumulate of the moments: 32 x 32 -> 64-bit products, one
// widening multiply-add each, into 64-bit sums (every sum here stays below
// 2^53: at most 2^16 taps of 2^16 times a value below 2^33), or 32-bit
// ones where they suffice (the vertical pass of 8-bit samples at scale 0).
__device__ inline void mac(std::uint32_t& acc, std::uint32_t a, std::uint32_t b) { acc += a * b; }
__device__ inline void mac(std::uint64_t& acc, std::uint32_t a, std::uint32_t b) {
  acc += static_cast<std::uint64_t>(a) * b;
}

// A pixel's variance or covariance: its filtered second moment (rounded)
// less the product of its two filtered means (libvmaf's vif_statistic_*:
// sigma1_sq, sigma2_sq before its clamp at 0, sigma12).
__device__ inline std::int32_t variance(std::uint32_t moment, std::uint32_t mu_a,
                                        std::uint32_t mu_b) {
  return static_cast<std::int32_t>(moment - mean_product(mu_a, mu_b));
}

// Per-pixel terms of the statistics from the pixel's variances (sigma2_sq
// clamped at 0), added to the four sums (libvmaf's vif_statistic_*, the
// same integer and double operations in the same order).
__device__ inline void pixel_terms(std::int32_t sigma1_sq, std::int32_t sigma2_sq,
                                   std::int32_t sigma12, const StatsArgs& a,
                                   long long (&sums)[kSums]) {
  constexpr std::int32_t kNsq = kSigmaNsq;
  if (sigma1_sq >= kNsq) {
    sums[1] +=
        log2_32(a.lut, static_cast<std::uint32_t>(kNsq + sigma1_sq)) - kLogOne * kLog2SigmaNsq;
    if (sigma12 > 0 && sigma2_sq > 0) {
      double g = sigma12 / (sigma1_sq + kGainEps);
      std::int32_t sv_sq = static_cast<std::int32_t>(sigma2_sq - g * sigma12);
      sv_sq = sv_sq > 0 ? sv_sq : 0;
      g = g < a.gain_limit ? g : a.gain_limit;
      const std::uint32_t numer1 = static_cast<std::uint32_t>(sv_sq + kNsq);
      const std::int64_t numer1_tmp = static_cast<std::int64_t>(g * g * sigma1_sq) + numer1;
      sums[0] += log2_64(a.lut, static_cast<std::uint64_t>(numer1_tmp)) - log2_64(a.lut, numer1);
    }
  } else {
    sums[2] += sigma2_sq;
    sums[3] += 1;
  }
}

// The shared memory of a stats block: the five vertically filtered
// moments, then the samples. A row of moments starts on 16 bytes and holds
// whole groups of kHorizPixels columns, so that the horizontal pass reads
// that many neighbouring moments at once up to the last group its pixels
// reach (kMomentCols; the columns past kCols are never given a tap).
template <int Scale>
struct alignas(16) StatsTile {
  static constexpr int kHalf = kFilters[Scale].half;
  static constexpr int kCols = kStatsW + 2 * kHalf;
  static constexpr int kRows = kStatsH + 2 * kHalf;
  // Groups read for a thread's kHorizPixels pixels: their columns span
  // kHorizPixels - 1 + 2 kHalf + 1, from the start of a group.
  static constexpr int kQuadReads = (2 * kHalf + 2 * kHorizPixels - 1) / kHorizPixels;
  static constexpr int kMomentCols = kStatsW + kHorizPixels * (kQuadReads - 1);
  static_assert(kCols % 2 == 0 && kMomentCols >= kCols && kMomentCols % kHorizPixels == 0);
  std::uint32_t moment[5][kStatsH][kMomentCols];  // mu1, mu2, xx, yy, xy
  std::uint16_t ref[kRows][kCols];
  std::uint16_t dis[kRows][kCols];
};

// kHorizPixels neighbouring 32-bit moments, read at once (columns c to c +
// kHorizPixels - 1, c a multiple of kHorizPixels): one 16-byte load.
struct alignas(16) MomentQuad {
  std::uint32_t v[kHorizPixels];
};
static_assert(sizeof(MomentQuad) == 16, "one 128-bit shared-memory load");
__device__ inline MomentQuad quad_at(const std::uint32_t* row, int c) {
  return *reinterpret_cast<const MomentQuad*>(row + c);
}

// What filter_quad makes of a row: the means' sums whole (32 bits hold
// them), or the second moments' 64-bit sums rounded to 32 bits by
// round_taps, as variance() takes them.
enum class Moment { kMean, kSecond };

// Pixels c to c + kHorizPixels - 1 (c a multiple of kHorizPixels) of a row
// of moments, filtered horizontally: columns c to c + kHorizPixels - 1 + 2
// half, read a group at a time; column c + j is tap j - o of pixel c + o.
template <int Scale, Moment kKind>
__device__ inline void filter_quad(const std::uint32_t* row, int c,
                                   std::uint32_t (&out)[kHorizPixels]) {
  using Acc = std::conditional_t<kKind == Moment::kMean, std::uint32_t, std::uint64_t>;
  constexpr int kTaps = 2 * kFilters[Scale].half + 1;
  constexpr int kG = kHorizPixels;
  Acc acc[kG] = {};
  VQX_UNROLL
  for (int m = 0; m < StatsTile<Scale>::kQuadReads; ++m) {
    const MomentQuad q = quad_at(row, c + kG * m);
    VQX_UNROLL
    for (int j = 0; j < kG; ++j) {
      VQX_UNROLL
      for (int o = 0; o < kG; ++o) {
        const int k = kG * m + j - o;  // column c + kG m + j's tap for pixel c + o
        if (k >= 0 && k < kTaps) mac(acc[o], tap<Scale>(k), q.v[j]);
      }
    }
  }
  VQX_UNROLL
  for (int o = 0; o < kG; ++o) {
    if constexpr (kKind == Moment::kMean) {
      out[o] = acc[o];
    } else {
      out[o] = static_cast<std::uint32_t>(round_taps(acc[o]));
    }
  }
}

// Stores a word of samples (4 bytes or 2 16-bit samples) as 16-bit samples.
template <typename Sample>
__device__ inline void store_word(std::uint16_t* to, std::uint32_t w) {
  if constexpr (sizeof(Sample) == 1) {
    // Bytes 0 and 1, then 2 and 3, each widened to 16 bits.
#if defined(__CUDACC__) || defined(__HIPCC__)
    const std::uint32_t lo = __byte_perm(w, 0U, 0x4140);
    const std::uint32_t hi = __byte_perm(w, 0U, 0x4342);
#else
    const std::uint32_t lo = (w & 0xffU) | ((w & 0xff00U) << 8);
    const std::uint32_t hi = ((w >> 16) & 0xffU) | ((w >> 8) & 0xff0000U);
#endif
    to[0] = static_cast<std::uint16_t>(lo);
    to[1] = static_cast<std::uint16_t>(lo >> 16);
    to[2] = static_cast<std::uint16_t>(hi);
    to[3] = static_cast<std::uint16_t>(hi >> 16);
  } else {
    to[0] = static_cast<std::uint16_t>(w);
    to[1] = static_cast<std::uint16_t>(w >> 16);
  }
}

// Loads the tile's samples. A tile inside the picture whose rows start on
// 4-byte boundaries is read in 32-bit words (4 or 2 samples each); else
// sample by sample, with the mirrored border.
template <int Scale, typename Sample>
__device__ inline void load_tile(const StatsArgs& a, int x0, int y0, StatsTile<Scale>& t) {
  using Tile = StatsTile<Scale>;
  constexpr int kHalf = Tile::kHalf;
  constexpr int kRowBytes = Tile::kCols * static_cast<int>(sizeof(Sample));
  constexpr int kPerWord = 4 / static_cast<int>(sizeof(Sample));
  // x0 is a multiple of kStatsW, so a row starts on a word when the half
  // width does, and the pitches and bases are whole words.
  static_assert((kStatsW * sizeof(Sample)) % 4 == 0, "tiles start on words");
  constexpr bool kWordRows = kRowBytes % 4 == 0 && (kHalf * sizeof(Sample)) % 4 == 0;
  const int tid = static_cast<int>(threadIdx.x);
  const int xs = x0 - kHalf;
  const int ys = y0 - kHalf;
  const bool inside = xs >= 0 && ys >= 0 && xs + Tile::kCols <= a.w && ys + Tile::kRows <= a.h;
  const bool whole_words = ((reinterpret_cast<std::uintptr_t>(a.ref) |
                             reinterpret_cast<std::uintptr_t>(a.dis) | a.pitch_ref | a.pitch_dis) &
                            3U) == 0;
  if constexpr (kWordRows) {
    if (inside && whole_words) {
      constexpr int kWords = kRowBytes / 4;
      for (int i = tid; i < Tile::kRows * kWords; i += kStatsThreads) {
        const int r = i / kWords;
        const int j = i % kWords;
        const std::size_t byte = static_cast<std::size_t>(xs) * sizeof(Sample) + 4U * j;
        const std::uint32_t wr = *reinterpret_cast<const std::uint32_t*>(
            static_cast<const std::uint8_t*>(a.ref) + a.pitch_ref * (ys + r) + byte);
        const std::uint32_t wd = *reinterpret_cast<const std::uint32_t*>(
            static_cast<const std::uint8_t*>(a.dis) + a.pitch_dis * (ys + r) + byte);
        store_word<Sample>(&t.ref[r][kPerWord * j], wr);
        store_word<Sample>(&t.dis[r][kPerWord * j], wd);
      }
      return;
    }
  }
  for (int i = tid; i < Tile::kRows * Tile::kCols; i += kStatsThreads) {
    const int r = i / Tile::kCols;
    const int c = i % Tile::kCols;
    const int y = mirrored(ys + r, a.h, kHalf);
    const int x = mirrored(xs + c, a.w, kHalf);
    t.ref[r][c] = static_cast<std::uint16_t>(load<Sample>(a.ref, a.pitch_ref, x, y));
    t.dis[r][c] = static_cast<std::uint16_t>(load<Sample>(a.dis, a.pitch_dis, x, y));
  }
}

}  // namespace kernel_detail

// Statistics of one scale. Scale, Sample and the vertical squares'
// accumulator (32 bits suffice for 8-bit samples at scale 0, as in libvmaf;
// else 64-bit integers, see mac()). Grid: (ceil(w / kStatsW),
// ceil(h / kStatsH)); block: kStatsThreads. Sum::add(totals, v) adds a
// thread's kSums values to totals[0, kSums) (every thread calls it).
// Scale 0, most of the work, runs five blocks an SM (48 registers a
// thread, no spills; four blocks at 64 registers reached 45 % of the
// SM's warps, five 57 %); the smaller scales keep four, where five would
// spill.
template <int Scale, typename Sample, typename SqAcc, typename Sum>
static __global__ void __launch_bounds__(kStatsThreads, Scale == 0 ? 5 : 4)
    stats_kernel(StatsArgs a, Sum sum) {
  using kernel_detail::mac;
  using kernel_detail::tap;
  using Tile = kernel_detail::StatsTile<Scale>;
  constexpr int kTaps = 2 * Tile::kHalf + 1;
  constexpr int kCols = Tile::kCols;
  __shared__ Tile t;

  const int tid = static_cast<int>(threadIdx.x);
  const int x0 = static_cast<int>(blockIdx.x) * kStatsW;
  const int y0 = static_cast<int>(blockIdx.y) * kStatsH;
  kernel_detail::load_tile<Scale, Sample>(a, x0, y0, t);
  __syncthreads();

  // Vertical: kVertRows rows of column c from rows r0 to r0 + kVertRows +
  // kTaps - 2 of the tile; the means rounded to 16 bits, the second moments
  // by the scale's rounding.
  constexpr int kReads = kVertRows + kTaps - 1;
  for (int i = tid; i < (kStatsH / kVertRows) * kCols; i += kStatsThreads) {
    const int c = i % kCols;
    const int r0 = (i / kCols) * kVertRows;
    std::uint32_t mu1[kVertRows] = {};
    std::uint32_t mu2[kVertRows] = {};
    SqAcc xx[kVertRows] = {};
    SqAcc yy[kVertRows] = {};
    SqAcc xy[kVertRows] = {};
    VQX_UNROLL
    for (int j = 0; j < kReads; ++j) {
      const std::uint32_t p = t.ref[r0 + j][c];
      const std::uint32_t q = t.dis[r0 + j][c];
      VQX_UNROLL
      for (int o = 0; o < kVertRows; ++o) {
        const int k = j - o;  // the tap this row is to output row r0 + o
        if (k < 0 || k >= kTaps) continue;
        const std::uint32_t fp = tap<Scale>(k) * p;
        const std::uint32_t fq = tap<Scale>(k) * q;
        mu1[o] += fp;
        mu2[o] += fq;
        mac(xx[o], fp, p);
        mac(yy[o], fq, q);
        mac(xy[o], fp, q);
      }
    }
    VQX_UNROLL
    for (int o = 0; o < kVertRows; ++o) {
      const auto square = [&](SqAcc v) {
        return static_cast<std::uint32_t>((static_cast<std::uint64_t>(v) + a.sq_round) >>
                                          a.sq_shift);
      };
      t.moment[0][r0 + o][c] = (mu1[o] + a.mu_round) >> a.mu_shift;
      t.moment[1][r0 + o][c] = (mu2[o] + a.mu_round) >> a.mu_shift;
      t.moment[2][r0 + o][c] = square(xx[o]);
      t.moment[3][r0 + o][c] = square(yy[o]);
      t.moment[4][r0 + o][c] = square(xy[o]);
    }
  }
  __syncthreads();

  // Horizontal: pixels c to c + kHorizPixels - 1 of row r read columns c
  // to c + kTaps + kHorizPixels - 2, kHorizPixels at a time.
  constexpr int kG = kHorizPixels;
  constexpr int kQuads = kStatsW / kG;
  long long sums[kSums] = {0, 0, 0, 0};
  for (int i = tid; i < kStatsH * kQuads; i += kStatsThreads) {
    const int r = i / kQuads;
    const int c = kG * (i % kQuads);
    // Each second moment is made into its variance as soon as it is
    // filtered, so that fewer values stay live.
    std::uint32_t mu1[kG], mu2[kG], m[kG];
    std::int32_t s11[kG], s22[kG], s12[kG];
    kernel_detail::filter_quad<Scale, kernel_detail::Moment::kMean>(t.moment[0][r], c, mu1);
    kernel_detail::filter_quad<Scale, kernel_detail::Moment::kMean>(t.moment[1][r], c, mu2);
    kernel_detail::filter_quad<Scale, kernel_detail::Moment::kSecond>(t.moment[2][r], c, m);
    for (int o = 0; o < kG; ++o) s11[o] = kernel_detail::variance(m[o], mu1[o], mu1[o]);
    kernel_detail::filter_quad<Scale, kernel_detail::Moment::kSecond>(t.moment[3][r], c, m);
    for (int o = 0; o < kG; ++o) {
      const std::int32_t v = kernel_detail::variance(m[o], mu2[o], mu2[o]);
      s22[o] = v > 0 ? v : 0;
    }
    kernel_detail::filter_quad<Scale, kernel_detail::Moment::kSecond>(t.moment[4][r], c, m);
    for (int o = 0; o < kG; ++o) s12[o] = kernel_detail::variance(m[o], mu1[o], mu2[o]);
    if (y0 + r < a.h) {
      VQX_UNROLL
      for (int o = 0; o < kG; ++o) {
        if (x0 + c + o < a.w) kernel_detail::pixel_terms(s11[o], s22[o], s12[o], a, sums);
      }
    }
  }
  unsigned long long v[kSums];
  for (int k = 0; k < kSums; ++k) v[k] = static_cast<unsigned long long>(sums[k]);
  sum.add(a.sums, v);
}

// The next scale: filter `Filter` (vertical, rounded to 16 bits, then
// horizontal) evaluated at the even rows and columns of the input. A block
// makes kSubW x kSubH outputs with kSubThreads threads, one per input
// column of its vertical pass (the 2 kSubW columns under its outputs and
// the filter's half either side): each thread loads the rows of its column
// that the block's outputs read before it uses any, so that the loads
// overlap and each sample is read once, and filters them at the even rows
// into a shared tile; after one barrier, each output is filtered
// horizontally from the tile. Grid: (ceil(w_out / kSubW), ceil(h_out /
// kSubH)); block: kSubThreads, four blocks an SM (64 registers; the 8-bit
// instantiation took 66 unbounded, three blocks, and ran 5 % longer).
inline constexpr int kSubThreads = 256;
inline constexpr int kSubW = (kSubThreads - 2 * kMaxHalf) / 2;
inline constexpr int kSubH = 8;

template <int Filter, typename Sample>
static __global__ void __launch_bounds__(kSubThreads, 4) subsample_kernel(SubsampleArgs a) {
  using kernel_detail::load;
  using kernel_detail::mirrored;
  using kernel_detail::tap;
  constexpr int kHalf = kFilters[Filter].half;
  constexpr int kTaps = 2 * kHalf + 1;
  constexpr int kLoads = 2 * kSubH - 1 + 2 * kHalf;
  static_assert(2 * kSubW - 1 + 2 * kHalf <= kSubThreads, "a thread for every column");
  __shared__ std::uint16_t v_ref[kSubH][kSubThreads];
  __shared__ std::uint16_t v_dis[kSubH][kSubThreads];
  const int t = static_cast<int>(threadIdx.x);
  const int ox0 = static_cast<int>(blockIdx.x) * kSubW;
  const int oy0 = static_cast<int>(blockIdx.y) * kSubH;
  const int y0 = 2 * oy0 - kHalf;  // the first input row read

  if (t < 2 * kSubW - 1 + 2 * kHalf) {
    const int x = mirrored(2 * ox0 - kHalf + t, a.w_in, kHalf);
    std::uint32_t in_r[kLoads];
    std::uint32_t in_d[kLoads];
    if (y0 >= 0 && y0 + kLoads <= a.h_in) {
      // Every row inside the picture: one address a plane, a pitch apart
      // (the mirrored index of each row and its own product cost more
      // than the loads they address).
      const auto* r = static_cast<const std::uint8_t*>(a.ref) + a.pitch_in_ref * y0;
      const auto* d = static_cast<const std::uint8_t*>(a.dis) + a.pitch_in_dis * y0;
      VQX_UNROLL
      for (int i = 0; i < kLoads; ++i) {
        in_r[i] = reinterpret_cast<const Sample*>(r)[x];
        in_d[i] = reinterpret_cast<const Sample*>(d)[x];
        r += a.pitch_in_ref;
        d += a.pitch_in_dis;
      }
    } else {
      VQX_UNROLL
      for (int i = 0; i < kLoads; ++i) {
        const int y = mirrored(y0 + i, a.h_in, kHalf);
        in_r[i] = load<Sample>(a.ref, a.pitch_in_ref, x, y);
        in_d[i] = load<Sample>(a.dis, a.pitch_in_dis, x, y);
      }
    }
    VQX_UNROLL
    for (int o = 0; o < kSubH; ++o) {
      std::uint32_t acc_r = 0;
      std::uint32_t acc_d = 0;
      VQX_UNROLL
      for (int k = 0; k < kTaps; ++k) {
        acc_r += tap<Filter>(k) * in_r[2 * o + k];
        acc_d += tap<Filter>(k) * in_d[2 * o + k];
      }
      v_ref[o][t] = static_cast<std::uint16_t>((acc_r + a.v_round) >> a.v_shift);
      v_dis[o][t] = static_cast<std::uint16_t>((acc_d + a.v_round) >> a.v_shift);
    }
  }
  __syncthreads();

  for (int i = t; i < kSubH * kSubW; i += kSubThreads) {
    const int o = i / kSubW;
    const int c = i % kSubW;
    const int ox = ox0 + c;
    const int oy = oy0 + o;
    if (ox >= a.w_out || oy >= a.h_out) continue;
    std::uint32_t acc_r = 0;
    std::uint32_t acc_d = 0;
    VQX_UNROLL
    for (int k = 0; k < kTaps; ++k) {
      acc_r += tap<Filter>(k) * static_cast<std::uint32_t>(v_ref[o][2 * c + k]);
      acc_d += tap<Filter>(k) * static_cast<std::uint32_t>(v_dis[o][2 * c + k]);
    }
    auto* out_r = reinterpret_cast<std::uint16_t*>(reinterpret_cast<std::uint8_t*>(a.ref_out) +
                                                   a.pitch_out * oy);
    auto* out_d = reinterpret_cast<std::uint16_t*>(reinterpret_cast<std::uint8_t*>(a.dis_out) +
                                                   a.pitch_out * oy);
    out_r[ox] = static_cast<std::uint16_t>(round_taps(acc_r));
    out_d[ox] = static_cast<std::uint16_t>(round_taps(acc_d));
  }
}

// --- The pyramid's launches, as the twin makes them (gpu.cu) and the
// device-free test repeats them on host threads ----------------------------

// One scale's two planes as the kernels read them.
struct ScalePlanes {
  const void* ref;
  const void* dis;
  std::size_t pitch_ref;  // bytes
  std::size_t pitch_dis;
  int w;
  int h;
};

// The statistics of scale `scale` of a `bpc`-bit picture, from `in`, into
// `sums` (kSums), with the scale's roundings (params.hpp).
inline StatsArgs stats_args(int scale, unsigned bpc, const ScalePlanes& in, double gain_limit,
                            const std::uint16_t* lut, unsigned long long* sums) {
  const Rounding means = mean_rounding(scale, bpc);
  const Rounding squares = square_rounding(scale, bpc);
  return {.ref = in.ref,
          .dis = in.dis,
          .pitch_ref = in.pitch_ref,
          .pitch_dis = in.pitch_dis,
          .w = in.w,
          .h = in.h,
          .mu_shift = means.shift,
          .mu_round = means.add,
          .sq_shift = squares.shift,
          .sq_round = squares.add,
          .gain_limit = gain_limit,
          .lut = lut,
          .sums = sums};
}

// Scale `scale` (1 to 3), half of `in` (scale - 1) each way, into 16-bit
// planes of `pitch_out` bytes a row. The filter's vertical rounding is
// that of the input scale's means.
inline SubsampleArgs subsample_args(int scale, unsigned bpc, const ScalePlanes& in,
                                    std::uint16_t* ref_out, std::uint16_t* dis_out,
                                    std::size_t pitch_out) {
  const Rounding vertical = mean_rounding(scale - 1, bpc);
  return {.ref = in.ref,
          .dis = in.dis,
          .pitch_in_ref = in.pitch_ref,
          .pitch_in_dis = in.pitch_dis,
          .w_in = in.w,
          .h_in = in.h,
          .ref_out = ref_out,
          .dis_out = dis_out,
          .pitch_out = pitch_out,
          .w_out = in.w / 2,
          .h_out = in.h / 2,
          .v_shift = vertical.shift,
          .v_round = vertical.add};
}

inline dim3 stats_grid(const StatsArgs& a) {
  return {ceil_div(static_cast<unsigned>(a.w), unsigned{kStatsW}),
          ceil_div(static_cast<unsigned>(a.h), unsigned{kStatsH})};
}
inline dim3 subsample_grid(const SubsampleArgs& a) {
  return {ceil_div(static_cast<unsigned>(a.w_out), unsigned{kSubW}),
          ceil_div(static_cast<unsigned>(a.h_out), unsigned{kSubH})};
}

// The instantiations a scale of a `bpc`-bit picture runs: 8-bit samples
// (with 32-bit vertical squares) where scale 0 is 8-bit, else 16-bit
// containers; the subsampling to scale 1 reads scale 0's samples.
template <typename Sum>
using StatsKernel = void (*)(StatsArgs, Sum);
using SubsampleKernel = void (*)(SubsampleArgs);

template <typename Sum>
static inline StatsKernel<Sum> stats_kernel_for(int scale, unsigned bpc) {
  switch (scale) {
    case 0:
      return bpc > 8 ? &stats_kernel<0, std::uint16_t, std::uint64_t, Sum>
                     : &stats_kernel<0, std::uint8_t, std::uint32_t, Sum>;
    case 1:
      return &stats_kernel<1, std::uint16_t, std::uint64_t, Sum>;
    case 2:
      return &stats_kernel<2, std::uint16_t, std::uint64_t, Sum>;
    default:
      return &stats_kernel<3, std::uint16_t, std::uint64_t, Sum>;
  }
}

static inline SubsampleKernel subsample_kernel_for(int scale, unsigned bpc) {
  switch (scale) {
    case 1:
      return bpc > 8 ? &subsample_kernel<1, std::uint16_t> : &subsample_kernel<1, std::uint8_t>;
    case 2:
      return &subsample_kernel<2, std::uint16_t>;
    default:
      return &subsample_kernel<3, std::uint16_t>;
  }
}

}  // namespace vqx::vif

// Integer VIF on the GPU, bit for bit libvmaf's integer_vif.c (and so
// cpu.cpp). Per scale, one kernel computes the statistics: a block loads
// its tile of ref and dist with the mirrored border into shared memory,
// runs the vertical filter (the five moments), then the horizontal filter
// and the per-pixel log2 terms; each block adds its four integer sums to the
// scale's totals with integer atomics (exact in any order). A second kernel
// makes the next scale: the filter at the even rows and columns only,
// which is all that decimation keeps. The host finishes num and den in
// double (scores.cpp, shared with the CPU extractor).
#include <array>
#include <cstdint>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/vif/gpu.hpp"
#include "metrics/vif/params.hpp"
#include "metrics/vif/scores.hpp"

namespace vqx::vif {

namespace {

constexpr int kSums = 4;  // num_log, den_log, num_lin, den_lin
constexpr const char* kLutName = "vif.log2_q11";
constexpr std::size_t kPitchAlign = 256;
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kThreads = kBlockX * kBlockY;

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
// the taps are unrolled (a constant table is not folded: its products
// would take a load and, in double, a conversion each).
template <int Scale>
__device__ inline std::uint32_t tap(int k) {
  constexpr FilterTable kTable = make_filter_table();
  return kTable.taps[Scale][k];
}

template <typename Sample>
__device__ Sample load(const void* base, std::size_t pitch, int x, int y) {
  return reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(base) + pitch * y)[x];
}

// The mirrored index of `i` for a filter of half width `half` on a side of
// n > half samples (reflect101, as cpu.cpp); indices past what any output
// needs are clamped first (they only feed outputs outside the picture).
__device__ inline int mirrored(int i, int n, int half) {
  return reflect101(i < n - 1 + half ? i : n - 1 + half, n);
}

// libvmaf's log2_32 / log2_64 (integer_vif.h): the Q11 log2 of the top
// kLog2TableBits bits from the table, plus kLogOne per bit dropped.
__device__ inline std::int32_t log2_32(const std::uint16_t* lut, std::uint32_t v) {
  const int k = 32 - kLog2TableBits - __clz(v);
  return __ldg(lut + (v >> k)) + kLogOne * k;
}
__device__ inline std::int32_t log2_64(const std::uint16_t* lut, std::uint64_t v) {
  const int k = 64 - kLog2TableBits - __clzll(static_cast<long long>(v));
  return __ldg(lut + (v >> k)) + kLogOne * k;
}

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
  const std::uint16_t* lut;
  unsigned long long* sums;  // kSums for this scale
};

// Multiply-accumulate of the moments: 32 x 32 -> 64-bit products, one
// widening multiply-add each, into 64-bit sums (every sum here stays below
// 2^53: at most 2^16 taps of 2^16 times a value below 2^33). Cheaper than
// doubles built from the 32-bit values and fused multiply-adds, which the
// tenth session used (docs/gpu.md).
__device__ inline void mac(std::uint32_t& acc, std::uint32_t a, std::uint32_t b) { acc += a * b; }
__device__ inline void mac(std::uint64_t& acc, std::uint32_t a, std::uint32_t b) {
  acc += static_cast<std::uint64_t>(a) * b;
}

// Per-pixel terms of the statistics from the filtered moments, added to
// the four sums (libvmaf's vif_statistic_*, the same integer and double
// operations in the same order).
__device__ inline void pixel_terms(std::uint32_t mu1, std::uint32_t mu2, std::uint64_t xx,
                                   std::uint64_t yy, std::uint64_t xy, const StatsArgs& a,
                                   long long (&sums)[kSums]) {
  constexpr std::int32_t kNsq = kSigmaNsq;
  const std::uint32_t mu1_sq = mean_product(mu1, mu1);
  const std::uint32_t mu2_sq = mean_product(mu2, mu2);
  const std::uint32_t mu1_mu2 = mean_product(mu1, mu2);
  const auto xx_f = static_cast<std::uint32_t>(round_taps(xx));
  const auto yy_f = static_cast<std::uint32_t>(round_taps(yy));
  const auto xy_f = static_cast<std::uint32_t>(round_taps(xy));
  const auto sigma1_sq = static_cast<std::int32_t>(xx_f - mu1_sq);
  std::int32_t sigma2_sq = static_cast<std::int32_t>(yy_f - mu2_sq);
  const auto sigma12 = static_cast<std::int32_t>(xy_f - mu1_mu2);
  sigma2_sq = sigma2_sq > 0 ? sigma2_sq : 0;
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

// Statistics of one scale. Scale, Sample and the vertical squares'
// accumulator (32 bits suffice for 8-bit samples at scale 0, as in libvmaf;
// else 64-bit integers, see mac()). A block makes a tile of kStatsW x
// kStatsH pixels, each thread 2 x 2 of them.
constexpr int kStatsW = 2 * kBlockX;
constexpr int kStatsH = 2 * kBlockY;

template <int Scale, typename Sample, typename SqAcc>
__global__ void __launch_bounds__(kThreads, 4) stats_kernel(StatsArgs a) {
  constexpr int kHalf = kFilters[Scale].half;
  constexpr int kTaps = 2 * kHalf + 1;
  constexpr int kCols = kStatsW + 2 * kHalf;
  constexpr int kRows = kStatsH + 2 * kHalf;
  __shared__ std::uint16_t s_ref[kRows][kCols];
  __shared__ std::uint16_t s_dis[kRows][kCols];
  __shared__ std::uint32_t v_mu1[kStatsH][kCols];
  __shared__ std::uint32_t v_mu2[kStatsH][kCols];
  __shared__ std::uint32_t v_xx[kStatsH][kCols];
  __shared__ std::uint32_t v_yy[kStatsH][kCols];
  __shared__ std::uint32_t v_xy[kStatsH][kCols];

  const int tid = static_cast<int>(threadIdx.x + threadIdx.y * kBlockX);
  const int x0 = static_cast<int>(blockIdx.x) * kStatsW;
  const int y0 = static_cast<int>(blockIdx.y) * kStatsH;

  for (int i = tid; i < kRows * kCols; i += kThreads) {
    const int r = i / kCols;
    const int c = i % kCols;
    const int y = mirrored(y0 - kHalf + r, a.h, kHalf);
    const int x = mirrored(x0 - kHalf + c, a.w, kHalf);
    s_ref[r][c] = load<Sample>(a.ref, a.pitch_ref, x, y);
    s_dis[r][c] = load<Sample>(a.dis, a.pitch_dis, x, y);
  }
  __syncthreads();

  // Vertical: the filtered means (rounded to 16 bits) and second moments.
  for (int i = tid; i < kStatsH * kCols; i += kThreads) {
    const int r = i / kCols;
    const int c = i % kCols;
    std::uint32_t mu1 = 0;
    std::uint32_t mu2 = 0;
    SqAcc xx = 0;
    SqAcc yy = 0;
    SqAcc xy = 0;
#pragma unroll
    for (int k = 0; k < kTaps; ++k) {
      const std::uint32_t p = s_ref[r + k][c];
      const std::uint32_t q = s_dis[r + k][c];
      const std::uint32_t fp = tap<Scale>(k) * p;
      const std::uint32_t fq = tap<Scale>(k) * q;
      mu1 += fp;
      mu2 += fq;
      mac(xx, fp, p);
      mac(yy, fq, q);
      mac(xy, fp, q);
    }
    v_mu1[r][c] = (mu1 + a.mu_round) >> a.mu_shift;
    v_mu2[r][c] = (mu2 + a.mu_round) >> a.mu_shift;
    v_xx[r][c] =
        static_cast<std::uint32_t>((static_cast<std::uint64_t>(xx) + a.sq_round) >> a.sq_shift);
    v_yy[r][c] =
        static_cast<std::uint32_t>((static_cast<std::uint64_t>(yy) + a.sq_round) >> a.sq_shift);
    v_xy[r][c] =
        static_cast<std::uint32_t>((static_cast<std::uint64_t>(xy) + a.sq_round) >> a.sq_shift);
  }
  __syncthreads();

  long long sums[kSums] = {0, 0, 0, 0};  // num_log, den_log, num_lin, den_lin
  for (int part = 0; part < 4; ++part) {
    const int r = static_cast<int>(threadIdx.y) + (part / 2) * kBlockY;
    const int c = static_cast<int>(threadIdx.x) + (part % 2) * kBlockX;
    if (x0 + c >= a.w || y0 + r >= a.h) continue;
    std::uint32_t mu1 = 0;
    std::uint32_t mu2 = 0;
    std::uint64_t xx = 0;
    std::uint64_t yy = 0;
    std::uint64_t xy = 0;
#pragma unroll
    for (int k = 0; k < kTaps; ++k) {
      mu1 += tap<Scale>(k) * v_mu1[r][c + k];
      mu2 += tap<Scale>(k) * v_mu2[r][c + k];
      mac(xx, tap<Scale>(k), v_xx[r][c + k]);
      mac(yy, tap<Scale>(k), v_yy[r][c + k]);
      mac(xy, tap<Scale>(k), v_xy[r][c + k]);
    }
    pixel_terms(mu1, mu2, xx, yy, xy, a, sums);
  }
  unsigned long long v[kSums];
  for (int k = 0; k < kSums; ++k) v[k] = static_cast<unsigned long long>(sums[k]);
  vqx::gpu::add_exact_block(a.sums, 1, v);
}

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

// The next scale: filter `Filter` (vertical, rounded to 16 bits, then
// horizontal) evaluated at the even rows and columns of the input. A block
// makes kSubW x kSubH outputs with kSubThreads threads, one per input
// column of its vertical pass (the 2 kSubW columns under its outputs and
// the filter's half either side): each thread loads the rows of its column
// that the block's outputs read before it uses any, so that the loads
// overlap and each sample is read once, and filters them at the even rows
// into a shared tile; after one barrier, each output is filtered
// horizontally from the tile.
constexpr int kSubThreads = 256;
constexpr int kSubW = (kSubThreads - 2 * kMaxHalf) / 2;
constexpr int kSubH = 8;

template <int Filter, typename Sample>
__global__ void __launch_bounds__(kSubThreads) subsample_kernel(SubsampleArgs a) {
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
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int y = mirrored(y0 + i, a.h_in, kHalf);
      in_r[i] = load<Sample>(a.ref, a.pitch_in_ref, x, y);
      in_d[i] = load<Sample>(a.dis, a.pitch_in_dis, x, y);
    }
#pragma unroll
    for (int o = 0; o < kSubH; ++o) {
      std::uint32_t acc_r = 0;
      std::uint32_t acc_d = 0;
#pragma unroll
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
#pragma unroll
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

dim3 grid_for(unsigned w, unsigned h, unsigned tile_w, unsigned tile_h) {
  return {ceil_div(w, tile_w), ceil_div(h, tile_h)};
}

class VifTwin final : public gpu::Twin {
 public:
  VifTwin(const KernelParams& p, bool debug) : params_(p), debug_(debug) {}

  std::vector<gpu::ConstantTable> constant_tables(const PictureFormat& /*fmt*/) override {
    const auto& table = log2_q11_table();
    return {{kLutName, table.data(), table.size() * sizeof(table[0])}};
  }

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& res) override {
    VQX_RETURN_IF_ERROR(check_format(fmt.width, fmt.height, fmt.bpc));
    fmt_ = fmt;
    VQX_ASSIGN_OR_RETURN(const void* lut, res.constant(kLutName));
    lut_ = static_cast<const std::uint16_t*>(lut);
    for (int s = 1; s < kScaleCount; ++s) {
      Scale& sc = scales_[s];
      sc.w = fmt.width >> s;
      sc.h = fmt.height >> s;
      sc.pitch = round_up(std::size_t{sc.w} * 2, kPitchAlign);
      VQX_ASSIGN_OR_RETURN(sc.ref, gpu::DeviceBuffer<std::uint16_t>::allocate(sc.pitch / 2 * sc.h));
      VQX_ASSIGN_OR_RETURN(sc.dis, gpu::DeviceBuffer<std::uint16_t>::allocate(sc.pitch / 2 * sc.h));
    }
    VQX_ASSIGN_OR_RETURN(sums_,
                         gpu::DeviceBuffer<unsigned long long>::allocate(kScaleCount * kSums));
    VQX_ASSIGN_OR_RETURN(
        results_, gpu::PinnedBuffer<unsigned long long>::allocate(slots * kScaleCount * kSums));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override { return gpu::clear_async(sums_, s); }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    const bool hbd = fmt_.bpc > 8;
    // Scale 0 reads the uploaded luma.
    const void* in_ref = f.ref[0].data;
    const void* in_dis = f.dist[0].data;
    std::size_t pitch_ref = f.ref[0].pitch;
    std::size_t pitch_dis = f.dist[0].pitch;
    for (int scale = 0; scale < kScaleCount; ++scale) {
      const unsigned w = scale == 0 ? fmt_.width : scales_[scale].w;
      const unsigned h = scale == 0 ? fmt_.height : scales_[scale].h;
      if (scale > 0) {
        // Make this scale from the one before.
        const unsigned w_in = scale == 1 ? fmt_.width : scales_[scale - 1].w;
        const unsigned h_in = scale == 1 ? fmt_.height : scales_[scale - 1].h;
        // The filter's vertical rounding is that of the input scale's means.
        const Rounding vertical = mean_rounding(scale - 1, fmt_.bpc);
        const SubsampleArgs sa{.ref = in_ref,
                               .dis = in_dis,
                               .pitch_in_ref = pitch_ref,
                               .pitch_in_dis = pitch_dis,
                               .w_in = static_cast<int>(w_in),
                               .h_in = static_cast<int>(h_in),
                               .ref_out = scales_[scale].ref.get(),
                               .dis_out = scales_[scale].dis.get(),
                               .pitch_out = scales_[scale].pitch,
                               .w_out = static_cast<int>(w),
                               .h_out = static_cast<int>(h),
                               .v_shift = vertical.shift,
                               .v_round = vertical.add};
        const dim3 grid = grid_for(w, h, kSubW, kSubH);
        const dim3 block(kSubThreads);
        if (scale == 1 && !hbd) {
          subsample_kernel<1, std::uint8_t><<<grid, block, 0, s.handle()>>>(sa);
        } else if (scale == 1) {
          subsample_kernel<1, std::uint16_t><<<grid, block, 0, s.handle()>>>(sa);
        } else if (scale == 2) {
          subsample_kernel<2, std::uint16_t><<<grid, block, 0, s.handle()>>>(sa);
        } else {
          subsample_kernel<3, std::uint16_t><<<grid, block, 0, s.handle()>>>(sa);
        }
        VQX_RETURN_IF_ERROR(gpu::check_launch("vif subsample_kernel"));
        in_ref = scales_[scale].ref.get();
        in_dis = scales_[scale].dis.get();
        pitch_ref = pitch_dis = scales_[scale].pitch;
      }
      if (scale == 0 && params_.skip_scale0) continue;

      const Rounding means = mean_rounding(scale, fmt_.bpc);
      const Rounding squares = square_rounding(scale, fmt_.bpc);
      const StatsArgs a{.ref = in_ref,
                        .dis = in_dis,
                        .pitch_ref = pitch_ref,
                        .pitch_dis = pitch_dis,
                        .w = static_cast<int>(w),
                        .h = static_cast<int>(h),
                        .mu_shift = means.shift,
                        .mu_round = means.add,
                        .sq_shift = squares.shift,
                        .sq_round = squares.add,
                        .gain_limit = params_.gain_limit,
                        .lut = lut_,
                        .sums = sums_.get() + scale * kSums};
      const dim3 grid = grid_for(w, h, kStatsW, kStatsH);
      const dim3 block(kBlockX, kBlockY);
      switch (scale) {
        case 0:
          if (hbd) {
            stats_kernel<0, std::uint16_t, std::uint64_t><<<grid, block, 0, s.handle()>>>(a);
          } else {
            stats_kernel<0, std::uint8_t, std::uint32_t><<<grid, block, 0, s.handle()>>>(a);
          }
          break;
        case 1:
          stats_kernel<1, std::uint16_t, std::uint64_t><<<grid, block, 0, s.handle()>>>(a);
          break;
        case 2:
          stats_kernel<2, std::uint16_t, std::uint64_t><<<grid, block, 0, s.handle()>>>(a);
          break;
        default:
          stats_kernel<3, std::uint16_t, std::uint64_t><<<grid, block, 0, s.handle()>>>(a);
          break;
      }
      VQX_RETURN_IF_ERROR(gpu::check_launch("vif stats_kernel"));
    }
    return gpu::copy_to_host_async(&results_[std::size_t{slot} * kScaleCount * kSums], sums_.get(),
                                   sums_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const unsigned long long* r = &results_[std::size_t{slot} * kScaleCount * kSums];
    FrameSums sums{};
    for (int scale = 0; scale < kScaleCount; ++scale) {
      if (scale == 0 && params_.skip_scale0) continue;
      const unsigned long long* q = r + scale * kSums;
      sums[scale] = finish_scale(static_cast<std::int64_t>(q[0]), static_cast<std::int64_t>(q[1]),
                                 static_cast<std::int64_t>(q[2]), static_cast<std::int64_t>(q[3]));
    }
    write_scores(sums, params_.skip_scale0, debug_, index, out);
    return Status::Ok();
  }

 private:
  struct Scale {
    unsigned w = 0;
    unsigned h = 0;
    std::size_t pitch = 0;  // bytes
    gpu::DeviceBuffer<std::uint16_t> ref;
    gpu::DeviceBuffer<std::uint16_t> dis;
  };

  KernelParams params_;
  bool debug_;
  PictureFormat fmt_;
  const std::uint16_t* lut_ = nullptr;
  std::array<Scale, kScaleCount> scales_;          // [0] unused: scale 0 is the uploaded luma
  gpu::DeviceBuffer<unsigned long long> sums_;     // kSums per scale
  gpu::PinnedBuffer<unsigned long long> results_;  // the same, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const Config& config) {
  return std::make_unique<VifTwin>(config.kernel, config.debug);
}

}  // namespace vqx::vif

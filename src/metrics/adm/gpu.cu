// Integer ADM on the GPU, bit for bit libvmaf's integer_adm.c (and so
// cpu.cpp). Per scale, four steps, each over the whole band at once:
//   dwt      one thread per band sample: the 4x4 Daubechies-2 window of the
//            input (picture or previous approximation), boundary-mirrored;
//            writes the detail bands of ref and dist and the approximation
//            that the next scale reads;
//   decouple where libvmaf decouples (the summed area plus the filter
//            margin): restored and additive parts, their CSF weighting, and
//            per pixel the sums over the bands of |c|/30 and |c|/15 that the
//            masking threshold is built from;
//   sums     over the summed area: the 3x3 masking threshold, the masked
//            cubes (numerators) and the reference cubes (denominator); each
//            block adds its part of a row to that row's sums with integer
//            atomics (exact);
//   rows     libvmaf rounds every row's sum before adding it to the total:
//            one block per (scale, sum, band) rounds each row's sum and adds
//            them up (exact integers, so in any order).
// The host then finishes in float and double exactly as the CPU does
// (AdmCpu::finish, shared).
#include <array>
#include <cstdint>
#include <optional>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "metrics/adm/cpu.hpp"
#include "metrics/adm/gpu.hpp"
#include "metrics/adm/scores.hpp"

namespace vqx::adm {

namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kRowThreads = 256;
constexpr int kKinds = 3;                    // dlm, aim, den
constexpr int kRowSums = kKinds * 3;         // per row: kind * 3 + band
constexpr int kTotals = kScales * kRowSums;  // what comes back per frame

// The border rule (-1 -> 1, n -> n - 1, n + 1 -> n - 2) is
// reflect101_repeat_end (core/index_math.hpp); the fixed-point steps and
// libvmaf's int32 wrap-around (wrap_abs, ...) are params.hpp's, as on the CPU.

struct Band3 {  // the three detail bands (h, v, d) of one image, one scale
  void* b[3];
};

struct Geometry {
  int in_w, in_h, w, h;
  int dec_x0, dec_x1, dec_y0, dec_y1;
  int sum_x0, sum_x1, sum_y0, sum_y1;
};

Geometry to_device(const ScaleGeometry& g) {
  return {g.in_w,        g.in_h,      g.w,           g.h,         g.dec_x.begin, g.dec_x.end,
          g.dec_y.begin, g.dec_y.end, g.sum_x.begin, g.sum_x.end, g.sum_y.begin, g.sum_y.end};
}

// ---------------------------------------------------------------------------
// DWT.

__constant__ std::int32_t c_lo[4] = {kDb2Lo[0], kDb2Lo[1], kDb2Lo[2], kDb2Lo[3]};
__constant__ std::int32_t c_hi[4] = {kDb2Hi[0], kDb2Hi[1], kDb2Hi[2], kDb2Hi[3]};

struct Dwt0Args {
  const void* src[2];  // ref, dist
  std::size_t pitch[2];
  int bpc;
  Geometry g;
  Band3 out[2];            // int16 bands
  std::int32_t* a_out[2];  // approximation, w x h
};

// Scale 0 from picture samples: vertical pass in 32-bit unsigned wrap-around
// arithmetic, centred by the low-pass taps' sum and shifted by bpc to 16
// bits; horizontal pass in int32 with rounding by 2^15.
template <typename Sample>
__global__ void __launch_bounds__(kBlockX* kBlockY) dwt0_kernel(Dwt0Args a) {
  const int j = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (j >= a.g.w || i >= a.g.h) return;
  const Dwt0Bias bias = dwt0_bias(a.bpc);
  int rows[4];
  int cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = reflect101_repeat_end(2 * i - 1 + k, a.g.in_h);
    cols[k] = reflect101_repeat_end(2 * j - 1 + k, a.g.in_w);
  }
  for (int side = 0; side < 2; ++side) {
    std::int32_t lo[4];
    std::int32_t hi[4];
    for (int c = 0; c < 4; ++c) {
      std::uint32_t l = bias.lo;
      std::uint32_t h = bias.hi;
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t u = reinterpret_cast<const Sample*>(
            static_cast<const std::uint8_t*>(a.src[side]) + a.pitch[side] * rows[k])[cols[c]];
        l += static_cast<std::uint32_t>(c_lo[k]) * u;
        h += static_cast<std::uint32_t>(c_hi[k]) * u;
      }
      lo[c] = static_cast<std::int16_t>(static_cast<std::int32_t>(l) >> a.bpc);
      hi[c] = static_cast<std::int16_t>(static_cast<std::int32_t>(h) >> a.bpc);
    }
    std::int32_t sa = kDwt0HorzAdd, sv = kDwt0HorzAdd, sh = kDwt0HorzAdd, sd = kDwt0HorzAdd;
    for (int k = 0; k < 4; ++k) {
      sa += c_lo[k] * lo[k];
      sv += c_hi[k] * lo[k];
      sh += c_lo[k] * hi[k];
      sd += c_hi[k] * hi[k];
    }
    const int o = i * a.g.w + j;
    a.a_out[side][o] = sa >> kDwt0HorzShift;
    static_cast<std::int16_t*>(a.out[side].b[0])[o] =
        static_cast<std::int16_t>(sh >> kDwt0HorzShift);
    static_cast<std::int16_t*>(a.out[side].b[1])[o] =
        static_cast<std::int16_t>(sv >> kDwt0HorzShift);
    static_cast<std::int16_t*>(a.out[side].b[2])[o] =
        static_cast<std::int16_t>(sd >> kDwt0HorzShift);
  }
}

struct DwtNArgs {
  const std::int32_t* src[2];  // previous approximation, in_w x in_h
  Geometry g;
  std::int64_t vadd, hadd;
  int vsh, hsh;
  Band3 out[2];            // int32 bands
  std::int32_t* a_out[2];  // null at the last scale
};

// Scales 1..3 from the previous approximation, in int64 with arithmetic
// shifts (adm_dwt2_s123_combined).
__global__ void __launch_bounds__(kBlockX* kBlockY) dwtn_kernel(DwtNArgs a) {
  const int j = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (j >= a.g.w || i >= a.g.h) return;
  int rows[4];
  int cols[4];
  for (int k = 0; k < 4; ++k) {
    rows[k] = reflect101_repeat_end(2 * i - 1 + k, a.g.in_h);
    cols[k] = reflect101_repeat_end(2 * j - 1 + k, a.g.in_w);
  }
  for (int side = 0; side < 2; ++side) {
    std::int64_t lo[4];
    std::int64_t hi[4];
    for (int c = 0; c < 4; ++c) {
      std::int64_t l = 0;
      std::int64_t h = 0;
      for (int k = 0; k < 4; ++k) {
        const std::int64_t s = a.src[side][rows[k] * a.g.in_w + cols[c]];
        l += c_lo[k] * s;
        h += c_hi[k] * s;
      }
      lo[c] = static_cast<std::int32_t>((l + a.vadd) >> a.vsh);
      hi[c] = static_cast<std::int32_t>((h + a.vadd) >> a.vsh);
    }
    std::int64_t sa = 0, sv = 0, sh = 0, sd = 0;
    for (int k = 0; k < 4; ++k) {
      sa += c_lo[k] * lo[k];
      sv += c_hi[k] * lo[k];
      sh += c_lo[k] * hi[k];
      sd += c_hi[k] * hi[k];
    }
    const int o = i * a.g.w + j;
    if (a.a_out[side] != nullptr)
      a.a_out[side][o] = static_cast<std::int32_t>((sa + a.hadd) >> a.hsh);
    static_cast<std::int32_t*>(a.out[side].b[0])[o] =
        static_cast<std::int32_t>((sh + a.hadd) >> a.hsh);
    static_cast<std::int32_t*>(a.out[side].b[1])[o] =
        static_cast<std::int32_t>((sv + a.hadd) >> a.hsh);
    static_cast<std::int32_t*>(a.out[side].b[2])[o] =
        static_cast<std::int32_t>((sd + a.hadd) >> a.hsh);
  }
}

// ---------------------------------------------------------------------------
// Decoupling and CSF.

// k = t / o in Q15 clamped to [0, 1] (1 for o = 0), through libvmaf's Q30
// reciprocal table div_lookup (recip(n) = (int32)(2^30 / n), negated for
// negative n). Scale 0: |o| < 2^15 always.
__device__ inline std::int64_t ratio0(std::int32_t o, std::int32_t t) {
  if (o == 0) return kRatioOne;
  const std::int32_t mag = o < 0 ? -o : o;
  const std::int32_t recip = kRecipNumerator / mag;
  const std::int64_t lookup = o < 0 ? -std::int64_t{recip} : std::int64_t{recip};
  const std::int64_t k = (lookup * t + kRatioHalf) >> kRatioFracBits;
  return k < 0 ? 0 : (k > kRatioOne ? kRatioOne : k);
}

// Scales 1..3: a denominator of 2^15 or more is first rounded to its
// kDivisorBits (15) leading bits (get_best15_from32), the shift growing by
// the bits dropped.
__device__ inline std::int64_t ratio_n(std::int32_t o, std::int32_t t) {
  if (o == 0) return kRatioOne;
  const std::uint32_t mag =
      o < 0 ? 0u - static_cast<std::uint32_t>(o) : static_cast<std::uint32_t>(o);
  int shift = 0;
  std::uint32_t top = mag;
  if (mag >= (1u << kDivisorBits)) {
    shift = 32 - kDivisorBits - __clz(mag);
    top = (mag + (1u << (shift - 1))) >> shift;
  }
  const std::int64_t recip = kRecipNumerator / static_cast<std::int32_t>(top);  // top <= 2^15
  const std::int64_t sign = o < 0 ? -1 : 1;
  const std::int64_t round = static_cast<std::int32_t>(1u << (kRatioFracBits - 1 + shift));
  const std::int64_t k = ((recip * t) * sign + round) >> (kRatioFracBits + shift);
  return k < 0 ? 0 : (k > kRatioOne ? kRatioOne : k);
}

// The restored coefficient and libvmaf's enhancement for parallel vectors.
template <typename T>
__device__ inline T restore(std::int64_t k, std::int32_t o, std::int32_t t, bool angle,
                            double gain) {
  T r = static_cast<T>(restore_product<std::int64_t>(k, o));
  const float rf = (static_cast<float>(k) / kRatioOne) * (static_cast<float>(o) / 64);
  if (angle && rf > 0.0f) {
    const double g = static_cast<double>(r) * gain;
    r = static_cast<T>(g < t ? g : static_cast<double>(t));
  } else if (angle && rf < 0.0f) {
    const double g = static_cast<double>(r) * gain;
    r = static_cast<T>(g > t ? g : static_cast<double>(t));
  }
  return r;
}

struct DecoupleArgs {
  Band3 ref, dis;
  Band3 restored, additive;
  std::int32_t *flt_a, *ctr_a, *flt_r, *ctr_r;  // masking inputs, w x h
  Geometry g;
  double gain;
  float cos_sq;
  std::uint32_t q[3];  // CSF weights: Q21/Q21/Q23 at scale 0, Q32 above
  bool aim;
};

// |c|/30 and |c|/15 of a CSF-weighted coefficient c.
template <bool Scale0>
__device__ inline void mask_terms(std::int32_t src, int band, const DecoupleArgs& a,
                                  std::int32_t& flt, std::int32_t& ctr) {
  if constexpr (Scale0) {
    const std::int32_t prod = static_cast<std::int32_t>(a.q[band]) * src;
    const std::int32_t c = band == 2 ? csf0_d(prod) : csf0_hv(prod);
    const std::int32_t m = wrap_abs(c);
    flt += div30_q12(m);
    ctr += div15_q12(m);
  } else {
    const auto c = static_cast<std::int32_t>(
        (static_cast<std::int64_t>(a.q[band]) * src + kCsfNAdd) >> kCsfNShift);
    const std::int32_t m = wrap_abs(c);
    flt += static_cast<std::int32_t>((kOneBy30Q32 * m + kQ32Bias) >> kQ32Shift);
    ctr += static_cast<std::int32_t>((kOneBy15Q32 * m + kQ32Bias) >> kQ32Shift);
  }
}

template <typename T>
__global__ void __launch_bounds__(kBlockX* kBlockY) decouple_kernel(DecoupleArgs a) {
  constexpr bool kScale0 = sizeof(T) == 2;
  const int j = a.g.dec_x0 + static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int i = a.g.dec_y0 + static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (j >= a.g.dec_x1 || i >= a.g.dec_y1) return;
  const int o = i * a.g.w + j;
  std::int32_t ov[3], tv[3];
  for (int b = 0; b < 3; ++b) {
    ov[b] = static_cast<const T*>(a.ref.b[b])[o];
    tv[b] = static_cast<const T*>(a.dis.b[b])[o];
  }
  // The angle test on (h, v): float products of the exact int64 sums.
  const std::int64_t dot = std::int64_t{ov[0]} * tv[0] + std::int64_t{ov[1]} * tv[1];
  const std::int64_t osq = std::int64_t{ov[0]} * ov[0] + std::int64_t{ov[1]} * ov[1];
  const std::int64_t tsq = std::int64_t{tv[0]} * tv[0] + std::int64_t{tv[1]} * tv[1];
  const double dn = static_cast<float>(dot) / kAngleScale;
  const double on = static_cast<float>(osq) / kAngleScale;
  const double tn = static_cast<float>(tsq) / kAngleScale;
  const bool angle = dn >= 0.0 && dn * dn >= static_cast<double>(a.cos_sq) * on * tn;

  std::int32_t flt_a = 0, ctr_a = 0, flt_r = 0, ctr_r = 0;
  for (int b = 0; b < 3; ++b) {
    const std::int64_t k = kScale0 ? ratio0(ov[b], tv[b]) : ratio_n(ov[b], tv[b]);
    const T r = restore<T>(k, ov[b], tv[b], angle, a.gain);
    const T add = static_cast<T>(static_cast<std::uint32_t>(tv[b]) - static_cast<std::uint32_t>(r));
    static_cast<T*>(a.restored.b[b])[o] = r;
    static_cast<T*>(a.additive.b[b])[o] = add;
    mask_terms<kScale0>(add, b, a, flt_a, ctr_a);
    if (a.aim) mask_terms<kScale0>(r, b, a, flt_r, ctr_r);
  }
  a.flt_a[o] = flt_a;
  a.ctr_a[o] = ctr_a;
  if (a.aim) {
    a.flt_r[o] = flt_r;
    a.ctr_r[o] = ctr_r;
  }
}

// ---------------------------------------------------------------------------
// Sums.

struct SumsArgs {
  Band3 ref, restored, additive;
  const std::int32_t *flt_a, *ctr_a, *flt_r, *ctr_r;
  Geometry g;
  std::uint32_t q[3];
  CubeRounding cube[3];
  std::uint64_t den_sq_add, den_cub_add;  // scales 1..3
  int den_sq_shift, den_cub_shift;
  bool aim;
  unsigned long long* rows;  // kRowSums x h
};

// max(|x| - thr, 0)^3 with libvmaf's roundings (as masking.cpp, with the
// native 64-bit shift where the CPU has shift_right).
__device__ inline std::int64_t masked_cube(std::int32_t x, std::int32_t thr,
                                           const CubeRounding& r) {
  std::int32_t m = wrap_sub(wrap_abs(x), wrap_shl(thr, r.thr_shift));
  m = m < 0 ? 0 : m;
  const auto sq = static_cast<std::int32_t>((std::int64_t{m} * m + r.sq_add) >> r.sq_shift);
  return (std::int64_t{sq} * m + r.cub_add) >> r.cub_shift;
}

// The 3x3 sum of the filter terms with the centre replaced by ctr.
__device__ inline std::int32_t threshold(const std::int32_t* flt, const std::int32_t* ctr, int w,
                                         int up, int i, int down, int jm, int j, int jp) {
  std::int32_t s = 0;
  for (int r : {up, i, down}) s += flt[r * w + jm] + flt[r * w + j] + flt[r * w + jp];
  return s - flt[i * w + j] + ctr[i * w + j];
}

template <typename T>
__device__ inline std::int32_t weigh(const SumsArgs& a, int band, std::int32_t s) {
  if constexpr (sizeof(T) == 2) {
    return static_cast<std::int32_t>(a.q[band]) * s;
  } else {
    return static_cast<std::int32_t>((static_cast<std::int64_t>(a.q[band]) * s + kCsfNAdd) >>
                                     kCsfNShift);
  }
}

// A block adds kSumPixels pixels of a row per thread (columns kRowThreads
// apart, so that a warp's loads stay together): one block reduction for
// kSumPixels * kRowThreads pixels.
constexpr int kSumPixels = 4;

template <typename T>
__global__ void __launch_bounds__(kRowThreads) sums_kernel(SumsArgs a) {
  const int i = a.g.sum_y0 + static_cast<int>(blockIdx.y);
  const int w = a.g.w;
  const int up = reflect101_repeat_end(i - 1, a.g.h);
  const int down = reflect101_repeat_end(i + 1, a.g.h);
  unsigned long long v[kRowSums] = {};
  for (int p = 0; p < kSumPixels; ++p) {
    const int j =
        a.g.sum_x0 + static_cast<int>((blockIdx.x * kSumPixels + p) * kRowThreads + threadIdx.x);
    if (j >= a.g.sum_x1) break;
    const int jm = reflect101_repeat_end(j - 1, w);
    const int jp = reflect101_repeat_end(j + 1, w);
    const int o = i * w + j;
    const std::int32_t thr_a = threshold(a.flt_a, a.ctr_a, w, up, i, down, jm, j, jp);
    const std::int32_t thr_r = a.aim ? threshold(a.flt_r, a.ctr_r, w, up, i, down, jm, j, jp) : 0;
    for (int b = 0; b < 3; ++b) {
      // Integer sums modulo 2^64 (the numerators' int64 terms in two's
      // complement): exact in any order.
      const std::int32_t xr = weigh<T>(a, b, static_cast<const T*>(a.restored.b[b])[o]);
      v[b] += static_cast<unsigned long long>(masked_cube(xr, thr_a, a.cube[b]));
      if (a.aim) {
        const std::int32_t xa = weigh<T>(a, b, static_cast<const T*>(a.additive.b[b])[o]);
        v[3 + b] += static_cast<unsigned long long>(masked_cube(xa, thr_r, a.cube[b]));
      }
      const std::int32_t ref = static_cast<const T*>(a.ref.b[b])[o];
      if constexpr (sizeof(T) == 2) {
        const std::uint64_t m = static_cast<std::uint16_t>(wrap_abs(ref));
        v[6 + b] += m * m * m;
      } else {
        const std::uint64_t m = static_cast<std::uint32_t>(wrap_abs(ref));
        v[6 + b] += rounded_cube(m, a.den_sq_add, a.den_sq_shift, a.den_cub_add, a.den_cub_shift);
      }
    }
  }
  // Without aim, sums 3..5 are 0 and add nothing.
  vqx::gpu::add_exact_block(a.rows + i, static_cast<std::size_t>(a.g.h), v);
}

// ---------------------------------------------------------------------------
// Per-row rounding and the totals.

struct RowScale {
  const unsigned long long* rows;  // kRowSums x h
  int h, y0, y1;
  int shift, den_shift;
  std::int64_t add;
  std::uint64_t den_add;
};
struct RowsArgs {
  RowScale s[kScales];
  unsigned long long* totals;  // kTotals
};

__global__ void __launch_bounds__(kRowThreads) rows_kernel(RowsArgs a) {
  const int t = static_cast<int>(blockIdx.x);  // scale * kRowSums + k
  const RowScale& s = a.s[t / kRowSums];
  const int k = t % kRowSums;
  const unsigned long long* rows = s.rows + k * s.h;
  unsigned long long v = 0;  // two's complement: the numerators are int64
  for (int i = s.y0 + static_cast<int>(threadIdx.x); i < s.y1; i += kRowThreads) {
    if (k < 6) {  // numerators: int64, arithmetic shift
      v += static_cast<unsigned long long>((static_cast<std::int64_t>(rows[i]) + s.add) >> s.shift);
    } else {
      v += (rows[i] + s.den_add) >> s.den_shift;
    }
  }
  vqx::gpu::add_exact_block(a.totals + t, v);
}

// ---------------------------------------------------------------------------

dim3 grid2(int w, int h) {
  return {static_cast<unsigned>(ceil_div(w, kBlockX)), static_cast<unsigned>(ceil_div(h, kBlockY))};
}

class AdmTwin final : public gpu::Twin {
 public:
  explicit AdmTwin(const AdmParams& p) : params_(p) {}

  Status init(const PictureFormat& fmt, unsigned slots, const gpu::Resources& /*res*/) override {
    VQX_ASSIGN_OR_RETURN(AdmCpu setup, AdmCpu::create(params_, fmt.width, fmt.height, fmt.bpc,
                                                      /*allocate=*/false));
    setup_.emplace(std::move(setup));
    fmt_ = fmt;
    std::size_t rows_total = 0;
    for (int s = 0; s < kScales; ++s) {
      const ScaleGeometry& g = setup_->geometry(s);
      const std::size_t n = static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
      const std::size_t elem = s == 0 ? 2 : 4;
      Scale& sc = scales_[s];
      VQX_ASSIGN_OR_RETURN(sc.bands, gpu::DeviceBuffer<std::uint8_t>::allocate(12 * n * elem));
      VQX_ASSIGN_OR_RETURN(sc.masks, gpu::DeviceBuffer<std::int32_t>::allocate(4 * n));
      if (s < kScales - 1) {
        VQX_ASSIGN_OR_RETURN(sc.approx, gpu::DeviceBuffer<std::int32_t>::allocate(2 * n));
      }
      sc.row_offset = rows_total;
      rows_total += static_cast<std::size_t>(kRowSums) * static_cast<std::size_t>(g.h);
    }
    VQX_ASSIGN_OR_RETURN(rows_, gpu::DeviceBuffer<unsigned long long>::allocate(rows_total));
    VQX_ASSIGN_OR_RETURN(totals_, gpu::DeviceBuffer<unsigned long long>::allocate(kTotals));
    VQX_ASSIGN_OR_RETURN(results_,
                         gpu::PinnedBuffer<unsigned long long>::allocate(slots * kTotals));
    return Status::Ok();
  }

  Status clear(const gpu::Stream& s) override {
    VQX_RETURN_IF_ERROR(gpu::clear_async(rows_, s));
    return gpu::clear_async(totals_, s);
  }

  Status launch(const gpu::DeviceFrame& f, unsigned /*index*/, unsigned slot,
                const gpu::Stream& s) override {
    for (int scale = 0; scale < kScales; ++scale) {
      VQX_RETURN_IF_ERROR(run_scale(scale, f, s));
    }
    RowsArgs ra{};
    for (int scale = 0; scale < kScales; ++scale) {
      const ScaleGeometry& g = setup_->geometry(scale);
      const SumConsts k = sum_consts(scale, g);
      ra.s[scale] = {rows_.get() + scales_[scale].row_offset,
                     g.h,
                     g.sum_y.begin,
                     g.sum_y.end,
                     k.row_shift,
                     k.den_row_shift,
                     k.row_add,
                     k.den_row_add};
    }
    ra.totals = totals_.get();
    rows_kernel<<<kTotals, kRowThreads, 0, s.handle()>>>(ra);
    VQX_RETURN_IF_ERROR(gpu::check_launch("adm rows_kernel"));
    return gpu::copy_to_host_async(&results_[std::size_t{slot} * kTotals], totals_.get(),
                                   totals_.bytes(), s);
  }

  Status collect(unsigned slot, unsigned index, FeatureWriter& out) override {
    const unsigned long long* r = &results_[std::size_t{slot} * kTotals];
    std::array<ScaleSums, kScales> sums{};
    for (int scale = 0; scale < kScales; ++scale) {
      const unsigned long long* q = r + scale * kRowSums;
      for (int b = 0; b < 3; ++b) {
        sums[scale].dlm[b] = static_cast<std::int64_t>(q[b]);
        sums[scale].aim[b] = static_cast<std::int64_t>(q[3 + b]);
        sums[scale].den[b] = q[6 + b];
      }
    }
    AdmScores scores;
    setup_->finish(sums, scores);
    write_scores(scores, params_.debug, index, out);
    return Status::Ok();
  }

 private:
  struct Scale {
    gpu::DeviceBuffer<std::uint8_t> bands;   // ref, dis, restored, additive: 3 bands each
    gpu::DeviceBuffer<std::int32_t> masks;   // flt_a, ctr_a, flt_r, ctr_r
    gpu::DeviceBuffer<std::int32_t> approx;  // ref, dis approximation (next scale's input)
    std::size_t row_offset = 0;
  };

  // Band `b` of group `group` (0 ref, 1 dis, 2 restored, 3 additive).
  Band3 bands(int scale, int group) const {
    const ScaleGeometry& g = setup_->geometry(scale);
    const std::size_t n = static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
    const std::size_t elem = scale == 0 ? 2 : 4;
    std::uint8_t* base =
        scales_[scale].bands.get() + static_cast<std::size_t>(group) * 3 * n * elem;
    return {{base, base + n * elem, base + 2 * n * elem}};
  }

  Status run_scale(int scale, const gpu::DeviceFrame& f, const gpu::Stream& s) {
    const ScaleGeometry& geo = setup_->geometry(scale);
    const Geometry g = to_device(geo);
    const std::size_t n = static_cast<std::size_t>(g.w) * static_cast<std::size_t>(g.h);
    Scale& sc = scales_[scale];
    std::int32_t* approx = sc.approx.get();

    // 1. The transform.
    if (scale == 0) {
      Dwt0Args a{{f.ref[0].data, f.dist[0].data}, {f.ref[0].pitch, f.dist[0].pitch},
                 static_cast<int>(fmt_.bpc),      g,
                 {bands(0, 0), bands(0, 1)},      {approx, approx + n}};
      if (fmt_.bpc == 8) {
        dwt0_kernel<std::uint8_t><<<grid2(g.w, g.h), dim3(kBlockX, kBlockY), 0, s.handle()>>>(a);
      } else {
        dwt0_kernel<std::uint16_t><<<grid2(g.w, g.h), dim3(kBlockX, kBlockY), 0, s.handle()>>>(a);
      }
    } else {
      const ScaleGeometry& prev = setup_->geometry(scale - 1);
      const std::size_t pn = static_cast<std::size_t>(prev.w) * static_cast<std::size_t>(prev.h);
      const std::int32_t* in = scales_[scale - 1].approx.get();
      // Roundings per scale (params.hpp, as dwt.cpp).
      const DwtRounding r = dwt_rounding(scale);
      DwtNArgs a{{in, in + pn},
                 g,
                 r.vert_add,
                 r.horz_add,
                 r.vert_shift,
                 r.horz_shift,
                 {bands(scale, 0), bands(scale, 1)},
                 {approx, approx == nullptr ? nullptr : approx + n}};
      dwtn_kernel<<<grid2(g.w, g.h), dim3(kBlockX, kBlockY), 0, s.handle()>>>(a);
    }
    VQX_RETURN_IF_ERROR(gpu::check_launch("adm dwt_kernel"));
    if (scale == 0 && params_.skip_scale0) return Status::Ok();

    // 2. Decoupling and CSF over the decoupling area.
    const CsfWeights& csf = setup_->csf();
    const bool aim = !params_.skip_aim;
    std::int32_t* masks = sc.masks.get();
    DecoupleArgs d{};
    d.ref = bands(scale, 0);
    d.dis = bands(scale, 1);
    d.restored = bands(scale, 2);
    d.additive = bands(scale, 3);
    d.flt_a = masks;
    d.ctr_a = masks + n;
    d.flt_r = masks + 2 * n;
    d.ctr_r = masks + 3 * n;
    d.g = g;
    d.gain = setup_->decouple().enhn_gain_limit;
    d.cos_sq = setup_->decouple().cos_1deg_sq;
    for (int b = 0; b < 3; ++b) d.q[b] = scale == 0 ? csf.q_scale0[b] : csf.q[scale][b];
    d.aim = aim;
    const dim3 dgrid = grid2(g.dec_x1 - g.dec_x0, g.dec_y1 - g.dec_y0);
    if (scale == 0) {
      decouple_kernel<std::int16_t><<<dgrid, dim3(kBlockX, kBlockY), 0, s.handle()>>>(d);
    } else {
      decouple_kernel<std::int32_t><<<dgrid, dim3(kBlockX, kBlockY), 0, s.handle()>>>(d);
    }
    VQX_RETURN_IF_ERROR(gpu::check_launch("adm decouple_kernel"));

    // 3. Masked numerators and the denominator, per row.
    const SumConsts k = sum_consts(scale, geo);
    SumsArgs m{};
    m.ref = d.ref;
    m.restored = d.restored;
    m.additive = d.additive;
    m.flt_a = d.flt_a;
    m.ctr_a = d.ctr_a;
    m.flt_r = d.flt_r;
    m.ctr_r = d.ctr_r;
    m.g = g;
    for (int b = 0; b < 3; ++b) {
      m.q[b] = d.q[b];
      m.cube[b] = k.cubes[b];
    }
    m.den_sq_add = k.ref.sq_add;
    m.den_sq_shift = k.ref.sq_shift;
    m.den_cub_add = k.ref.cub_add;
    m.den_cub_shift = k.ref.cub_shift;
    m.aim = aim;
    m.rows = rows_.get() + sc.row_offset;
    const dim3 sgrid(static_cast<unsigned>(ceil_div(g.sum_x1 - g.sum_x0, kSumPixels * kRowThreads)),
                     static_cast<unsigned>(g.sum_y1 - g.sum_y0));
    if (scale == 0) {
      sums_kernel<std::int16_t><<<sgrid, kRowThreads, 0, s.handle()>>>(m);
    } else {
      sums_kernel<std::int32_t><<<sgrid, kRowThreads, 0, s.handle()>>>(m);
    }
    return gpu::check_launch("adm sums_kernel");
  }

  AdmParams params_;
  PictureFormat fmt_;
  std::optional<AdmCpu> setup_;  // checks, constants and the final arithmetic
  std::array<Scale, kScales> scales_;
  gpu::DeviceBuffer<unsigned long long> rows_;     // per scale: kRowSums x h row sums
  gpu::DeviceBuffer<unsigned long long> totals_;   // kTotals
  gpu::PinnedBuffer<unsigned long long> results_;  // the same, per result slot
};

}  // namespace

std::unique_ptr<gpu::Twin> make_twin(const AdmParams& params) {
  return std::make_unique<AdmTwin>(params);
}

}  // namespace vqx::adm

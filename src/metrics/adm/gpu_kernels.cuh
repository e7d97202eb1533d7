// Integer ADM's kernels but the last rounding of the row sums, free of the
// runtime, so that a device-free test runs them on the CPU, one host thread
// per GPU thread (tests/unit/adm_kernels_test.cpp), against the CPU twin's
// row kernels (dwt.hpp, decouple.hpp, masking.hpp).
//
// dwt0_kernel, dwtn_kernel: one thread per output sample of the four bands
// of a scale (scale 0 from the picture, scales 1 to 3 from the previous
// approximation): the 4x4 window under it (load_window), a vertical pass
// of its four columns, then the horizontal pass. Where the sample lies in
// the decoupling area, the same thread then decouples it (decouple_pixel)
// from the bands it has just made: the restored part, and the masking
// filter's terms of the restored and additive parts (|c|/30 summed over
// the bands, which the 3x3 sums read).
// sums_kernel: over one scale's summed area, per row, the masked cubes of
// the restored part (detail loss) and of the additive part (additive
// impairment) against the 3x3 masking thresholds, and the reference cubes
// (denominator). Where the CPU keeps planes of the additive part and of
// the centre taps (|c|/15 summed over the bands), each pixel forms them
// from what it reads: the distorted bands less the restored part, and its
// bands' terms. A block makes kSumPixels * kSumThreads pixels of a row,
// each thread kSumPixels of them, kSumThreads apart (a warp's loads stay
// together):
//  * it first adds the masking terms of the three rows under each of its
//    columns and of the columns either side of the block into shared
//    memory (the 3x3 sum as column sums, as threshold_row on the CPU; int32
//    sums that wrap, so that any order gives the same bits), and issues
//    every pixel's other loads before any is used;
//  * after one barrier, each pixel's threshold is its three column sums,
//    less the centre term, plus the centre tap; its cubes go to the row's
//    kRowSums sums through `Sum` (the device's gpu/reduce.cuh integer
//    atomics in gpu.cu, a host one in the test): integers, exact in any
//    order.
// The arithmetic is integer_adm.c's, operation for operation, as
// masking.cpp's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/device_bits.cuh"
#include "core/device_unroll.hpp"
#include "core/index_math.hpp"
#include "metrics/adm/cpu.hpp"
#include "metrics/adm/csf.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

// The kernels are static: this header is compiled by the twin's .cu and, as
// host code, by the device-free test (see ciede/gpu_kernels.cuh).

// The transform's and the decoupling's blocks: one thread a pixel.
inline constexpr int kBlockX = 32;
inline constexpr int kBlockY = 8;
inline constexpr int kSumThreads = 256;
inline constexpr int kKinds = 3;             // dlm, aim, den
inline constexpr int kRowSums = kKinds * 3;  // per row: kind * 3 + band
// Pixels of a row per thread in sums_kernel (kSumThreads apart).
inline constexpr int kSumPixels = 4;
inline constexpr int kSumSpan = kSumPixels * kSumThreads;  // pixels of a row per block

struct Band3 {  // the three detail bands (h, v, d) of one image, one scale
  void* b[3];
};

struct Geometry {
  int in_w, in_h, w, h;
  int dec_x0, dec_x1, dec_y0, dec_y1;
  int sum_x0, sum_x1, sum_y0, sum_y1;
};

// A scale's geometry as the kernels take it.
inline Geometry to_device(const ScaleGeometry& g) {
  return {g.in_w,        g.in_h,      g.w,           g.h,         g.dec_x.begin, g.dec_x.end,
          g.dec_y.begin, g.dec_y.end, g.sum_x.begin, g.sum_x.end, g.sum_y.begin, g.sum_y.end};
}

// The CSF weights (h, v, d) the kernels of scale `scale` take: Q21/Q21/Q23
// at scale 0, Q32 above.
inline std::array<std::uint32_t, 3> csf_weights_of(const CsfWeights& w, int scale) {
  if (scale == 0) return {w.q_scale0[0], w.q_scale0[1], w.q_scale0[2]};
  return w.q[static_cast<std::size_t>(scale)];
}

struct DecoupleArgs {
  Band3 restored;
  std::int32_t *flt_a, *flt_r;  // the masking filter's terms, w x h
  double gain;
  float cos_sq;
  std::uint32_t q[3];  // CSF weights: Q21/Q21/Q23 at scale 0, Q32 above
  bool aim;
};

struct Dwt0Args {
  const void* src[2];  // ref, dist
  std::size_t pitch[2];
  int bpc;
  Geometry g;
  Band3 out[2];            // int16 bands
  std::int32_t* a_out[2];  // approximation, w x h
  DecoupleArgs dec;        // where `decouple`, over the decoupling area
  bool decouple;
};

struct DwtNArgs {
  const std::int32_t* src[2];  // previous approximation, in_w x in_h
  Geometry g;
  std::int64_t vadd, hadd;
  int vsh, hsh;
  Band3 out[2];            // int32 bands
  std::int32_t* a_out[2];  // null at the last scale
  DecoupleArgs dec;
  bool decouple;
};

struct SumsArgs {
  Band3 ref, dis, restored;
  const std::int32_t *flt_a, *flt_r;
  Geometry g;
  std::uint32_t q[3];
  CubeRounding cube[3];
  std::uint64_t den_sq_add, den_cub_add;  // scales 1..3
  int den_sq_shift, den_cub_shift;
  unsigned long long* rows;  // kRowSums x h
};

namespace kernel_detail {

// The Daubechies-2 taps, constants once the loops over them are unrolled.
__device__ inline std::int32_t db2_lo(int k) {
  constexpr std::array<std::int32_t, 4> kTable = kDb2Lo;
  return kTable[static_cast<std::size_t>(k)];
}
__device__ inline std::int32_t db2_hi(int k) {
  constexpr std::array<std::int32_t, 4> kTable = kDb2Hi;
  return kTable[static_cast<std::size_t>(k)];
}

// Whether output (i, j)'s 4x4 window (input rows 2i - 1 to 2i + 2,
// columns 2j - 1 to 2j + 2) lies inside an in_w x in_h input.
__device__ inline bool window_inside(int in_w, int in_h, int i, int j) {
  return i >= 1 && 2 * i + 2 < in_h && j >= 1 && 2 * j + 2 < in_w;
}

// The 4x4 window under output (i, j) of an input whose rows are `pitch`
// bytes apart: u[k][c] is input row 2i - 1 + k, column 2j - 1 + c, with the
// boundary rule (reflect101_repeat_end). Inside the input (Inside: see
// window_inside) the rows and columns follow each other: one address a row
// and constant offsets, where the edges need an index each.
template <typename Sample, bool Inside, typename V>
__device__ inline void load_window(const void* src, std::size_t pitch, int in_w, int in_h, int i,
                                   int j, V (&u)[4][4]) {
  const auto* base = static_cast<const std::uint8_t*>(src);
  if constexpr (Inside) {
    const std::uint8_t* row = base + pitch * static_cast<std::size_t>(2 * i - 1);
    VQX_UNROLL
    for (int k = 0; k < 4; ++k) {
      const Sample* r = reinterpret_cast<const Sample*>(row) + (2 * j - 1);
      VQX_UNROLL
      for (int c = 0; c < 4; ++c) u[k][c] = static_cast<V>(r[c]);
      row += pitch;
    }
  } else {
    int rows[4];
    int cols[4];
    VQX_UNROLL
    for (int k = 0; k < 4; ++k) {
      rows[k] = reflect101_repeat_end(2 * i - 1 + k, in_h);
      cols[k] = reflect101_repeat_end(2 * j - 1 + k, in_w);
    }
    VQX_UNROLL
    for (int k = 0; k < 4; ++k) {
      const Sample* r =
          reinterpret_cast<const Sample*>(base + pitch * static_cast<std::size_t>(rows[k]));
      VQX_UNROLL
      for (int c = 0; c < 4; ++c) u[k][c] = static_cast<V>(r[cols[c]]);
    }
  }
}

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
    shift = 32 - kDivisorBits - leading_zeros(mag);
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

// The additive part of a coefficient: the distorted one less the restored
// one, wrapping in T.
template <typename T>
__device__ inline T additive_part(std::int32_t dis, std::int32_t restored) {
  return static_cast<T>(static_cast<std::uint32_t>(dis) - static_cast<std::uint32_t>(restored));
}

// |c| of a coefficient of band `band` once CSF-weighted by q.
template <bool Scale0>
__device__ inline std::int32_t csf_magnitude(std::uint32_t q, int band, std::int32_t src) {
  if constexpr (Scale0) {
    const std::int32_t prod = static_cast<std::int32_t>(q) * src;
    const std::int32_t c = band == 2 ? csf0_d(prod) : csf0_hv(prod);
    return wrap_abs(c);
  } else {
    return wrap_abs(csf_n(static_cast<std::int64_t>(q) * src));
  }
}

// The masking filter's terms of a magnitude m: m/30 for the 3x3 sums
// (kFilter), m/15 for the centre tap (kCentre).
enum class MaskTerm { kFilter, kCentre };
template <bool Scale0, MaskTerm kTerm>
__device__ inline std::int32_t mask_term(std::int32_t m) {
  constexpr bool kFilter = kTerm == MaskTerm::kFilter;
  if constexpr (Scale0) {
    return kFilter ? div30_q12(m) : div15_q12(m);
  } else {
    return kFilter ? div30_q32(m) : div15_q32(m);
  }
}

// A pixel's centre tap: its three bands' centre terms, added in band order.
template <bool Scale0>
__device__ inline std::int32_t centre_tap(const std::uint32_t (&q)[3],
                                          const std::int32_t (&bands)[3]) {
  std::int32_t ctr = 0;
  VQX_UNROLL
  for (int b = 0; b < 3; ++b)
    ctr += mask_term<Scale0, MaskTerm::kCentre>(csf_magnitude<Scale0>(q[b], b, bands[b]));
  return ctr;
}

template <typename T>
__device__ inline std::int32_t weigh(const SumsArgs& a, int band, std::int32_t s) {
  if constexpr (sizeof(T) == 2) {
    return static_cast<std::int32_t>(a.q[band]) * s;
  } else {
    return csf_n(static_cast<std::int64_t>(a.q[band]) * s);
  }
}

// What one pixel's sums read beside the column sums: the three bands of the
// restored part, the distorted picture (for the additive part, which is
// also needed without aim: its centre tap masks the restored part) and the
// reference.
struct PixelLoads {
  std::int32_t restored[3], dis[3], ref[3];
};

template <typename T>
__device__ inline PixelLoads load_pixel(const SumsArgs& a, std::size_t o) {
  PixelLoads p{};
  VQX_UNROLL
  for (int b = 0; b < 3; ++b) {
    p.restored[b] = static_cast<const T*>(a.restored.b[b])[o];
    p.dis[b] = static_cast<const T*>(a.dis.b[b])[o];
    p.ref[b] = static_cast<const T*>(a.ref.b[b])[o];
  }
  return p;
}

// A pixel's additive part, band by band.
template <typename T>
__device__ inline void additive_of(const PixelLoads& p, std::int32_t (&add)[3]) {
  VQX_UNROLL
  for (int b = 0; b < 3; ++b) add[b] = additive_part<T>(p.dis[b], p.restored[b]);
}

// One pixel's kRowSums terms, added to v, from its thresholds.
template <typename T, bool Aim>
__device__ inline void add_pixel(const SumsArgs& a, const PixelLoads& p,
                                 const std::int32_t (&additive)[3], std::int32_t thr_a,
                                 std::int32_t thr_r, unsigned long long (&v)[kRowSums]) {
  VQX_UNROLL
  for (int b = 0; b < 3; ++b) {
    // Integer sums modulo 2^64 (the numerators' int64 terms in two's
    // complement): exact in any order.
    v[b] += static_cast<unsigned long long>(
        masked_cube(weigh<T>(a, b, p.restored[b]), thr_a, a.cube[b]));
    if constexpr (Aim) {
      v[3 + b] += static_cast<unsigned long long>(
          masked_cube(weigh<T>(a, b, additive[b]), thr_r, a.cube[b]));
    }
    if constexpr (sizeof(T) == 2) {
      const std::uint64_t m = static_cast<std::uint16_t>(wrap_abs(p.ref[b]));
      v[6 + b] += m * m * m;
    } else {
      const std::uint64_t m = static_cast<std::uint32_t>(wrap_abs(p.ref[b]));
      v[6 + b] += rounded_cube(m, a.den_sq_add, a.den_sq_shift, a.den_cub_add, a.den_cub_shift);
    }
  }
}

// The horizontal pass of a window's four vertically filtered columns (lo,
// hi: the low- and high-pass sums), each band's sum started at `start`:
// a = lo * low taps, v = lo * high taps, h = hi * low taps, d = hi * high taps.
template <typename Acc>
struct Bands4 {
  Acc a, v, h, d;
};
template <typename Acc, typename V>
__device__ inline Bands4<Acc> horizontal_pass(const V (&lo)[4], const V (&hi)[4], Acc start) {
  Bands4<Acc> s{start, start, start, start};
  VQX_UNROLL
  for (int k = 0; k < 4; ++k) {
    s.a += db2_lo(k) * lo[k];
    s.v += db2_hi(k) * lo[k];
    s.h += db2_lo(k) * hi[k];
    s.d += db2_hi(k) * hi[k];
  }
  return s;
}

// Whether band sample (i, j) lies in the decoupling area.
__device__ inline bool in_decoupling(const Geometry& g, int i, int j) {
  return i >= g.dec_y0 && i < g.dec_y1 && j >= g.dec_x0 && j < g.dec_x1;
}

// Decoupling and CSF (adm_decouple, adm_csf) of the pixel at offset o, from
// its reference and distorted bands (ov, tv; h, v, d): its restored part,
// and the masking filter's terms of its additive and restored parts
// (|c|/30 summed over the bands; the additive part itself and the centre
// taps are the sums kernel's). T: int16 bands (scale 0) or int32 (scales 1
// to 3).
template <typename T>
__device__ inline void decouple_pixel(const DecoupleArgs& a, int o, const std::int32_t (&ov)[3],
                                      const std::int32_t (&tv)[3]) {
  constexpr bool kScale0 = sizeof(T) == 2;
  // The angle test on (h, v): float products of the exact int64 sums.
  const std::int64_t dot = std::int64_t{ov[0]} * tv[0] + std::int64_t{ov[1]} * tv[1];
  const std::int64_t osq = std::int64_t{ov[0]} * ov[0] + std::int64_t{ov[1]} * ov[1];
  const std::int64_t tsq = std::int64_t{tv[0]} * tv[0] + std::int64_t{tv[1]} * tv[1];
  const double dn = static_cast<float>(dot) / kAngleScale;
  const double on = static_cast<float>(osq) / kAngleScale;
  const double tn = static_cast<float>(tsq) / kAngleScale;
  const bool angle = dn >= 0.0 && dn * dn >= static_cast<double>(a.cos_sq) * on * tn;

  std::int32_t flt_a = 0, flt_r = 0;
  for (int b = 0; b < 3; ++b) {
    const std::int64_t k = kScale0 ? ratio0(ov[b], tv[b]) : ratio_n(ov[b], tv[b]);
    const T r = restore<T>(k, ov[b], tv[b], angle, a.gain);
    const T add = additive_part<T>(tv[b], r);
    static_cast<T*>(a.restored.b[b])[o] = r;
    flt_a += mask_term<kScale0, MaskTerm::kFilter>(csf_magnitude<kScale0>(a.q[b], b, add));
    if (a.aim) flt_r += mask_term<kScale0, MaskTerm::kFilter>(csf_magnitude<kScale0>(a.q[b], b, r));
  }
  a.flt_a[o] = flt_a;
  if (a.aim) a.flt_r[o] = flt_r;
}

// Scale 0 from picture samples: vertical pass in 32-bit unsigned wrap-around
// arithmetic, centred by the low-pass taps' sum and shifted by bpc to 16
// bits; horizontal pass in int32 with rounding by 2^15.
template <typename Sample, bool Inside>
__device__ inline void dwt0_pixel(const Dwt0Args& a, int i, int j) {
  const Dwt0Bias bias = dwt0_bias(a.bpc);
  std::int32_t band[2][3];
  VQX_UNROLL
  for (int side = 0; side < 2; ++side) {
    std::uint32_t u[4][4];
    load_window<Sample, Inside>(a.src[side], a.pitch[side], a.g.in_w, a.g.in_h, i, j, u);
    std::int32_t lo[4];
    std::int32_t hi[4];
    VQX_UNROLL
    for (int c = 0; c < 4; ++c) {
      std::uint32_t l = bias.lo;
      std::uint32_t h = bias.hi;
      VQX_UNROLL
      for (int k = 0; k < 4; ++k) {
        l += static_cast<std::uint32_t>(db2_lo(k)) * u[k][c];
        h += static_cast<std::uint32_t>(db2_hi(k)) * u[k][c];
      }
      lo[c] = static_cast<std::int16_t>(static_cast<std::int32_t>(l) >> a.bpc);
      hi[c] = static_cast<std::int16_t>(static_cast<std::int32_t>(h) >> a.bpc);
    }
    const Bands4<std::int32_t> s = horizontal_pass<std::int32_t>(lo, hi, kDwt0HorzAdd);
    const std::size_t o = static_cast<std::size_t>(i) * a.g.w + j;
    a.a_out[side][o] = s.a >> kDwt0HorzShift;
    band[side][0] = static_cast<std::int16_t>(s.h >> kDwt0HorzShift);
    band[side][1] = static_cast<std::int16_t>(s.v >> kDwt0HorzShift);
    band[side][2] = static_cast<std::int16_t>(s.d >> kDwt0HorzShift);
    VQX_UNROLL
    for (int b = 0; b < 3; ++b)
      static_cast<std::int16_t*>(a.out[side].b[b])[o] = static_cast<std::int16_t>(band[side][b]);
  }
  if (a.decouple && in_decoupling(a.g, i, j))
    decouple_pixel<std::int16_t>(a.dec, i * a.g.w + j, band[0], band[1]);
}

// Scales 1..3 from the previous approximation, in int64 with arithmetic
// shifts (adm_dwt2_s123_combined).
template <bool Inside>
__device__ inline void dwtn_pixel(const DwtNArgs& a, int i, int j) {
  const std::size_t pitch = static_cast<std::size_t>(a.g.in_w) * sizeof(std::int32_t);
  std::int32_t band[2][3];
  VQX_UNROLL
  for (int side = 0; side < 2; ++side) {
    std::int64_t u[4][4];
    load_window<std::int32_t, Inside>(a.src[side], pitch, a.g.in_w, a.g.in_h, i, j, u);
    std::int64_t lo[4];
    std::int64_t hi[4];
    VQX_UNROLL
    for (int c = 0; c < 4; ++c) {
      std::int64_t l = 0;
      std::int64_t h = 0;
      VQX_UNROLL
      for (int k = 0; k < 4; ++k) {
        l += db2_lo(k) * u[k][c];
        h += db2_hi(k) * u[k][c];
      }
      lo[c] = static_cast<std::int32_t>((l + a.vadd) >> a.vsh);
      hi[c] = static_cast<std::int32_t>((h + a.vadd) >> a.vsh);
    }
    const Bands4<std::int64_t> s = horizontal_pass<std::int64_t>(lo, hi, 0);
    const std::size_t o = static_cast<std::size_t>(i) * a.g.w + j;
    if (a.a_out[side] != nullptr)
      a.a_out[side][o] = static_cast<std::int32_t>((s.a + a.hadd) >> a.hsh);
    band[side][0] = static_cast<std::int32_t>((s.h + a.hadd) >> a.hsh);
    band[side][1] = static_cast<std::int32_t>((s.v + a.hadd) >> a.hsh);
    band[side][2] = static_cast<std::int32_t>((s.d + a.hadd) >> a.hsh);
    VQX_UNROLL
    for (int b = 0; b < 3; ++b) static_cast<std::int32_t*>(a.out[side].b[b])[o] = band[side][b];
  }
  if (a.decouple && in_decoupling(a.g, i, j))
    decouple_pixel<std::int32_t>(a.dec, i * a.g.w + j, band[0], band[1]);
}

}  // namespace kernel_detail

// The transform of scale 0 (dwt0_kernel) and of scales 1 to 3
// (dwtn_kernel), one thread an output. Grid: pixel_grid(w, h); block:
// (kBlockX, kBlockY). The windows inside the input and those at its edges
// are separate code (their loads differ), so that the first are not
// addressed as the second.
template <typename Sample>
static __global__ void __launch_bounds__(kBlockX* kBlockY, 6) dwt0_kernel(Dwt0Args a) {
  const int j = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (j >= a.g.w || i >= a.g.h) return;
  if (kernel_detail::window_inside(a.g.in_w, a.g.in_h, i, j)) {
    kernel_detail::dwt0_pixel<Sample, true>(a, i, j);
  } else {
    kernel_detail::dwt0_pixel<Sample, false>(a, i, j);
  }
}

static __global__ void __launch_bounds__(kBlockX* kBlockY) dwtn_kernel(DwtNArgs a) {
  const int j = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
  const int i = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
  if (j >= a.g.w || i >= a.g.h) return;
  if (kernel_detail::window_inside(a.g.in_w, a.g.in_h, i, j)) {
    kernel_detail::dwtn_pixel<true>(a, i, j);
  } else {
    kernel_detail::dwtn_pixel<false>(a, i, j);
  }
}

using Dwt0Kernel = void (*)(Dwt0Args);
static inline Dwt0Kernel dwt0_kernel_for(unsigned bpc) {
  return bpc == 8 ? &dwt0_kernel<std::uint8_t> : &dwt0_kernel<std::uint16_t>;
}

// One thread a pixel of a w x h area.
inline dim3 pixel_grid(int w, int h) {
  return {static_cast<unsigned>(ceil_div(w, kBlockX)), static_cast<unsigned>(ceil_div(h, kBlockY))};
}

// Grid: (ceil(sum width / kSumSpan), sum height); block: kSumThreads.
// T: int16 bands (scale 0) or int32 (scales 1 to 3). Aim: the additive
// impairment is computed (else its sums stay 0). Sum::add(rows, stride, v)
// adds a thread's kRowSums values to rows[k * stride] (every thread calls
// it).
template <typename T, bool Aim, typename Sum>
static __global__ void __launch_bounds__(kSumThreads, 4) sums_kernel(SumsArgs a, Sum sum) {
  // Column sums of the block's columns and one either side: column
  // first + k - 1 at index k.
  __shared__ std::int32_t col_a[kSumSpan + 2];
  __shared__ std::int32_t col_r[kSumSpan + 2];
  const int tid = static_cast<int>(threadIdx.x);
  const int w = a.g.w;
  const int i = a.g.sum_y0 + static_cast<int>(blockIdx.y);
  const std::size_t row_start[3] = {
      static_cast<std::size_t>(reflect101_repeat_end(i - 1, a.g.h)) * w,
      static_cast<std::size_t>(i) * w,
      static_cast<std::size_t>(reflect101_repeat_end(i + 1, a.g.h)) * w};
  const int first = a.g.sum_x0 + static_cast<int>(blockIdx.x) * kSumSpan;

  // Index k of the column sums: column first + k - 1, mirrored; only those
  // up to sum_x1 (the right neighbour of the last pixel) are needed.
  const auto column_sums = [&](int k) {
    const int x = first + k - 1;
    if (x > a.g.sum_x1) return;
    const int c = reflect101_repeat_end(x, w);
    const auto column = [&](const std::int32_t* flt) {
      return wrap_add(wrap_add(flt[row_start[0] + c], flt[row_start[1] + c]),
                      flt[row_start[2] + c]);
    };
    col_a[k] = column(a.flt_a);
    if constexpr (Aim) col_r[k] = column(a.flt_r);
  };
  VQX_UNROLL
  for (int p = 0; p < kSumPixels; ++p) column_sums(1 + p * kSumThreads + tid);
  if (tid < 2) column_sums(tid == 0 ? 0 : kSumSpan + 1);

  // Each pixel's other loads, issued before the barrier.
  kernel_detail::PixelLoads in[kSumPixels];
  std::int32_t centre_a[kSumPixels];
  std::int32_t centre_r[kSumPixels] = {};
  VQX_UNROLL
  for (int p = 0; p < kSumPixels; ++p) {
    const int j = first + p * kSumThreads + tid;
    const std::size_t o = row_start[1] + static_cast<std::size_t>(j < a.g.sum_x1 ? j : a.g.sum_x0);
    in[p] = kernel_detail::load_pixel<T>(a, o);
    centre_a[p] = a.flt_a[o];
    if constexpr (Aim) centre_r[p] = a.flt_r[o];
  }
  __syncthreads();

  unsigned long long v[kRowSums] = {};
  VQX_UNROLL
  for (int p = 0; p < kSumPixels; ++p) {
    const int k = 1 + p * kSumThreads + tid;
    if (first + k - 1 >= a.g.sum_x1) break;
    // The 3x3 sum with the centre term replaced by the centre tap.
    const auto threshold = [&](const std::int32_t* col, std::int32_t centre, std::int32_t ctr) {
      return wrap_add(wrap_sub(wrap_add(wrap_add(col[k - 1], col[k]), col[k + 1]), centre), ctr);
    };
    constexpr bool kScale0 = sizeof(T) == 2;
    std::int32_t additive[3];
    kernel_detail::additive_of<T>(in[p], additive);
    const std::int32_t thr_a =
        threshold(col_a, centre_a[p], kernel_detail::centre_tap<kScale0>(a.q, additive));
    const std::int32_t thr_r =
        Aim ? threshold(col_r, centre_r[p], kernel_detail::centre_tap<kScale0>(a.q, in[p].restored))
            : 0;
    kernel_detail::add_pixel<T, Aim>(a, in[p], additive, thr_a, thr_r, v);
  }
  sum.add(a.rows + i, static_cast<std::size_t>(a.g.h), v);
}

template <typename Sum>
using SumsKernel = void (*)(SumsArgs, Sum);

// The instantiation a scale runs.
template <typename Sum>
static inline SumsKernel<Sum> sums_kernel_for(int scale, bool aim) {
  if (scale == 0) {
    return aim ? &sums_kernel<std::int16_t, true, Sum> : &sums_kernel<std::int16_t, false, Sum>;
  }
  return aim ? &sums_kernel<std::int32_t, true, Sum> : &sums_kernel<std::int32_t, false, Sum>;
}

inline dim3 sums_grid(const Geometry& g) {
  return {ceil_div(static_cast<unsigned>(g.sum_x1 - g.sum_x0), unsigned{kSumSpan}),
          static_cast<unsigned>(g.sum_y1 - g.sum_y0)};
}

}  // namespace vqx::adm

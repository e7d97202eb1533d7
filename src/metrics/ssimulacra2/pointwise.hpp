// SSIMULACRA2's per-sample arithmetic, written once for both twins: the CPU's
// row loops (colour.cpp, xyb.cpp, downsample.cpp, maps.cpp) and the GPU's
// kernels (gpu_kernels.cuh) call these. Plain constexpr C++, which nvcc and
// hipcc compile for the device as it is (docs/gpu.md, "Every number
// once"). Each function is a fixed sequence of IEEE float and double
// operations, each rounded to nearest; nothing is fused except where
// `fused` says so (cmake/FloatingPoint.cmake, --fmad=false,
// -ffp-contract=off), so the two twins get the same bits from the same
// inputs.
//
// The blur's recursion is in recursion.hpp; the numbers in params.hpp.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "metrics/ssimulacra2/maps.hpp"
#include "metrics/ssimulacra2/params.hpp"

// The CPU calls the templates below with 8-float vectors from functions
// compiled for several targets (kernel_build.hpp's clones): they must be
// inlined there, never called (a call would pass the vectors by the
// baseline target's ABI).
#if defined(__GNUC__) || defined(__clang__)
#define VQX_S2_INLINE [[gnu::always_inline]]
#else
#define VQX_S2_INLINE
#endif

namespace vqx::ssimulacra2 {

// ---------------------------------------------------------------------------
// Float operations

namespace detail {

// a * b + c with one rounding, at compile time: the product of two floats is
// exact in double; the double sum is rounded to odd (its last bit set when
// it is inexact: Boldo and Melquiond's round-to-odd, exact for a final
// rounding to 24 bits from 53), then rounded to float once. Only for
// constant evaluation, where __builtin_fmaf is not allowed.
constexpr float fused_exact(float a, float b, float c) {
  const double p = static_cast<double>(a) * static_cast<double>(b);
  const double cd = static_cast<double>(c);
  const double s = p + cd;
  // TwoSum: s + e == p + c exactly.
  const double bp = s - p;
  const double e = (p - (s - bp)) + (cd - bp);
  auto bits = std::bit_cast<std::uint64_t>(s);
  if (e != 0.0 && (bits & 1U) == 0) {
    // Move s one unit toward the exact sum, landing on an odd last bit.
    const bool away = (e > 0.0) == (s > 0.0);
    bits = away ? bits + 1 : bits - 1;
  }
  return static_cast<float>(std::bit_cast<double>(bits));
}

}  // namespace detail

// a * b + c rounded once (IEEE fusedMultiplyAdd): libjxl fuses these steps
// in its AVX2 build, whose rounding SSIMULACRA2's score follows. x86's FMA
// (or glibc's fmaf, correctly rounded, without one), CUDA's fma.rn.f32 and
// AMD's v_fma_f32 give the same, correctly rounded, result. V is float or a
// vector of floats (the CPU's 8-lane blur), lane by lane.
template <typename V>
VQX_S2_INLINE constexpr V fused(V a, V b, V c) {
  if constexpr (std::is_same_v<V, float>) {
    if (std::is_constant_evaluated()) return detail::fused_exact(a, b, c);
    return __builtin_fmaf(a, b, c);
  } else {
    V r{};
    for (unsigned l = 0; l < sizeof(V) / sizeof(float); ++l) {
      r[l] = __builtin_fmaf(a[l], b[l], c[l]);
    }
    return r;
  }
}

// `v` in every lane of a V (float or a vector of floats).
template <typename V>
VQX_S2_INLINE constexpr V splat(float v) {
  if constexpr (std::is_same_v<V, float>) {
    return v;
  } else {
    V r{};
    for (unsigned l = 0; l < sizeof(V) / sizeof(float); ++l) r[l] = v;
    return r;
  }
}

// The integer part of t >= 0 (t < 2^31), as a float: exact.
constexpr float whole_part(float t) {
  if (std::is_constant_evaluated()) return static_cast<float>(static_cast<int>(t));
  return __builtin_truncf(t);  // what GCC vectorises (colour.cpp)
}

// ---------------------------------------------------------------------------
// Y'CbCr samples to linear RGB (colour.hpp says what each step means)

// How samples become Y', Pb, Pr and then R'G'B' (all in float), from
// colour.cpp's ycbcr_coefficients().
struct YcbcrCoefficients {
  float luma_offset;    // sample value of black
  float luma_scale;     // 1 / (white - black)
  float chroma_offset;  // sample value of zero chroma
  float chroma_scale;   // 1 / chroma excursion
  float cr_to_r;        // R' = Y' + cr_to_r * Pr
  float cb_to_g;        // G' = Y' - cb_to_g * Pb - cr_to_g * Pr
  float cr_to_g;
  float cb_to_b;  // B' = Y' + cb_to_b * Pb
};

// A sample, normalised: (v - offset) * scale.
constexpr float normalised(float sample, float offset, float scale) {
  return (sample - offset) * scale;
}

constexpr float clamp01(float v) {
  v = v < 0.0f ? 0.0f : v;
  return v > 1.0f ? 1.0f : v;
}

struct Rgb {
  float r;
  float g;
  float b;
};

// R'G'B' in [0, 1] from normalised Y', Pb, Pr.
constexpr Rgb rgb_prime(float y, float pb, float pr, const YcbcrCoefficients& c) {
  return {clamp01(y + (c.cr_to_r * pr)), clamp01((y - (c.cb_to_g * pb)) - (c.cr_to_g * pr)),
          clamp01(y + (c.cb_to_b * pb))};
}

// The transfer curve at v in [0, 1]: below `threshold` its linear segment
// v * inv_slope; else the power law read from `table` (kTransferTableIntervals
// + 2 entries, colour.cpp's TransferCurve) by linear interpolation. Both
// are computed, one is selected (as the CPU's vector loop does).
constexpr float curve_value(float v, const float* table, float threshold, float inv_slope) {
  const float t = v * static_cast<float>(kTransferTableIntervals);
  const int i = static_cast<int>(t);
  const float f = t - whole_part(t);
  const float lo = table[i];
  const float power = lo + (f * (table[i + 1] - lo));
  return v < threshold ? v * inv_slope : power;
}

// ---------------------------------------------------------------------------
// Linear RGB to positive XYB (xyb.hpp says what each step means)

// The cube root libjxl's XYB takes of v >= 0, plus `add` (fast_math-inl.h,
// CubeRootAndAdd): a seed for v^(-1/3) from the exponent bits of v
// (params.hpp), three Newton steps r <- 4/3 r - v/3 r^4, a last step r + (r
// - v r^4) / 3, then v r^2 + add; fused where libjxl's AVX2 build fuses. v =
// 0 has seed 0 and gives `add`.
constexpr float cube_root_and_add(float v, float add) {
  const auto bits = std::bit_cast<std::int32_t>(v);
  const std::int32_t seed =
      bits == 0 ? 0 : kCubeRootSeedBias - (bits >> 23) * kCubeRootSeedExponentMul;
  float r = std::bit_cast<float>(seed);
  const float third = 1.0f / 3.0f;
  const float four_thirds = 4.0f / 3.0f;
  const float third_v = third * v;
  for (int i = 0; i < 3; ++i) {
    const float r2 = r * r;
    r = fused(-third_v, r2 * r2, four_thirds * r);
  }
  float r2 = r * r;
  r = fused(third, fused(-v, r2 * r2, r), r);
  r2 = r * r;
  return fused(r2, v, add);
}

// One row of the opsin matrix applied to (r, g, b), plus the bias, fused as
// libjxl: m0 r + (m1 g + (m2 b + bias)); a negative result becomes 0.
constexpr float opsin_mix(float m0, float m1, float m2, float r, float g, float b) {
  const float mixed = fused(m0, r, fused(m1, g, fused(m2, b, kOpsinBias)));
  return mixed > 0.0f ? mixed : 0.0f;
}

struct Xyb {
  float x;
  float y;
  float b;
};

// Linear R, G, B to X', Y', B' (MakePositiveXYB). `neg_cbrt_bias` is
// -cbrt(kOpsinBias), computed once on the host (xyb.cpp: neg_cbrt_bias()).
constexpr Xyb positive_xyb(float r, float g, float b, float neg_cbrt_bias) {
  const float m0 = cube_root_and_add(opsin_mix(kM00, kM01, kM02, r, g, b), neg_cbrt_bias);
  const float m1 = cube_root_and_add(opsin_mix(kM10, kM11, kM12, r, g, b), neg_cbrt_bias);
  const float m2 = cube_root_and_add(opsin_mix(kM20, kM21, kM22, r, g, b), neg_cbrt_bias);
  const float xv = 0.5f * (m0 - m1);
  const float yv = 0.5f * (m0 + m1);
  return {(xv * kPositiveXScale) + kPositiveXOffset, yv + kPositiveYOffset,
          (m2 - yv) + kPositiveBOffset};
}

// ---------------------------------------------------------------------------
// The 2x2 box (downsample.hpp): rows 0 and 1, columns 0 and 1 (an index
// past the picture clamped to the last), in this order, times 0.25.
constexpr float box(float r0c0, float r0c1, float r1c0, float r1c1) {
  return (((r0c0 + r0c1) + r1c0) + r1c1) * 0.25f;
}

// ---------------------------------------------------------------------------
// The error maps at one pixel (maps.hpp): the SSIM' error d and the edge
// difference e, from the pictures a, b, their blurred values mu1, mu2 and
// the blurred squares and product s11, s22, s12. Float, then double, as
// libjxl splits them.
struct PixelErrors {
  double d;  // max(0, 1 - SSIM'), the SSIM map
  double e;  // (1 + |b - mu2|) / (1 + |a - mu1|) - 1: ringing where > 0, blurring where < 0
};

constexpr float magnitude(float v) { return v < 0.0f ? -v : v; }

constexpr PixelErrors pixel_errors(float a, float b, float mu1, float mu2, float s11, float s22,
                                   float s12) {
  const float diff = mu1 - mu2;
  const float num_m = 1.0f - (diff * diff);
  const float num_s = (2.0f * (s12 - (mu1 * mu2))) + kC2;
  const float denom_s = ((s11 - (mu1 * mu1)) + (s22 - (mu2 * mu2))) + kC2;
  double d = 1.0 - static_cast<double>((num_m * num_s) / denom_s);
  d = d > 0.0 ? d : 0.0;
  const auto edge_b = static_cast<double>(magnitude(b - mu2));
  const auto edge_a = static_cast<double>(magnitude(a - mu1));
  return {d, ((1.0 + edge_b) / (1.0 + edge_a)) - 1.0};
}

// x^4 as (x x)(x x), in double.
constexpr double quartic(double x) {
  const double x2 = x * x;
  return x2 * x2;
}

// What one pixel adds to each of a row's kMapSums sums (maps.hpp's MapSum
// order): d, d^4, ringing, ringing^4, blurring, blurring^4.
struct PixelTerms {
  double v[kMapSums];
};

constexpr PixelTerms pixel_terms(const PixelErrors& p) {
  const double ringing = p.e > 0.0 ? p.e : 0.0;
  const double blurring = -p.e > 0.0 ? -p.e : 0.0;
  return {{p.d, quartic(p.d), ringing, quartic(ringing), blurring, quartic(blurring)}};
}

}  // namespace vqx::ssimulacra2

#include "metrics/ssimulacra2/xyb.hpp"

#include <cmath>
#include <cstdint>

#include "metrics/ssimulacra2/params.hpp"

#include "core/kernel_build.hpp"

namespace vqx::ssimulacra2 {

namespace {

// The cube root libjxl's XYB uses (fast_math-inl.h CubeRootAndAdd, which
// quotes Agner Fog's vectorclass): a seed for v^(-1/3) from the exponent
// of v alone, three Newton steps r <- 4/3 r - v/3 r^4, a last step in the
// form r + (r - v r^4) / 3, then v r^2 = v^(1/3) and the addend, each step
// fused as libjxl's AVX2 build fuses it. Its result differs from a
// correctly rounded cbrt by a few units in the last place, and SSIMULACRA2's
// score is sensitive enough to such differences (through the variances) to
// need the same ones. v = 0 has seed 0 and gives the addend. (The seed's
// constants are in params.hpp.)

VQX_FORCE_INLINE float cube_root_and_add(float v, float add) {
  const std::int32_t bits = __builtin_bit_cast(std::int32_t, v);
  const std::int32_t seed =
      bits == 0 ? 0 : kCubeRootSeedBias - (bits >> 23) * kCubeRootSeedExponentMul;
  float r = __builtin_bit_cast(float, seed);
  const float third = 1.0f / 3.0f;
  const float four_thirds = 4.0f / 3.0f;
  const float third_v = third * v;
  for (int i = 0; i < 3; ++i) {
    const float r2 = r * r;
    r = __builtin_fmaf(-third_v, r2 * r2, four_thirds * r);
  }
  float r2 = r * r;
  r = __builtin_fmaf(third, __builtin_fmaf(-v, r2 * r2, r), r);
  r2 = r * r;
  return __builtin_fmaf(r2, v, add);
}

// Row i of the opsin matrix applied to (r, g, b), plus the bias, fused as
// libjxl: m0 r + (m1 g + (m2 b + bias)); negative results become 0.
VQX_FORCE_INLINE float opsin_mix(const std::array<float, 3>& m, float r, float g, float b) {
  const float mixed =
      __builtin_fmaf(m[0], r, __builtin_fmaf(m[1], g, __builtin_fmaf(m[2], b, kOpsinBias)));
  return mixed > 0.0f ? mixed : 0.0f;
}

}  // namespace

float cube_root(float v) { return cube_root_and_add(v, 0.0f); }

VQX_CLONES void linear_to_xyb(const float* __restrict r, const float* __restrict g,
                              const float* __restrict b, unsigned n, float* __restrict x,
                              float* __restrict y, float* __restrict bp) {
  const float neg_cbrt_bias = -std::cbrt(kOpsinBias);
  for (unsigned i = 0; i < n; ++i) {
    const float m0 = cube_root_and_add(opsin_mix(kOpsinMatrix[0], r[i], g[i], b[i]), neg_cbrt_bias);
    const float m1 = cube_root_and_add(opsin_mix(kOpsinMatrix[1], r[i], g[i], b[i]), neg_cbrt_bias);
    const float m2 = cube_root_and_add(opsin_mix(kOpsinMatrix[2], r[i], g[i], b[i]), neg_cbrt_bias);
    const float xv = 0.5f * (m0 - m1);
    const float yv = 0.5f * (m0 + m1);
    x[i] = (xv * kPositiveXScale) + kPositiveXOffset;
    y[i] = yv + kPositiveYOffset;
    bp[i] = (m2 - yv) + kPositiveBOffset;
  }
}

}  // namespace vqx::ssimulacra2

// float VIF's moments filter (float_common::weighted_rows_moments) written
// with GCC vector types inside VQX's own dispatch (VQX_CLONES, as this build
// of the library has it): the same column sums in the same order, but held
// in named 8-float vectors, two per sum, where the library's loop keeps
// arrays the vectoriser leaves in memory. For bench/simd.sh only: it asks
// whether the gap to the Highway version is dispatch or how the loop is
// written.
#include <cstring>

#include "core/kernel_build.hpp"
#include "simd/vector_kernels.hpp"

// The vectors pass between forced-inline helpers only, never across a real
// call, so the note that such a call's ABI differs between AVX and baseline
// builds does not apply (as in ssimulacra2/blur.cpp).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace vqx::bench {

namespace {

using Vec8 = float __attribute__((vector_size(32)));

VQX_FORCE_INLINE Vec8 load8(const float* p) {
  Vec8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

VQX_FORCE_INLINE void store8(float* p, Vec8 v) { std::memcpy(p, &v, sizeof v); }

}  // namespace

VQX_CLONES void vector_moments(const float* taps, std::size_t ntaps, const float* const* a,
                               const float* const* b, std::size_t width, float* const* out) {
  std::size_t j = 0;
  for (; j + 16 <= width; j += 16) {
    Vec8 s0{}, s1{}, s2{}, s3{}, s4{}, t0{}, t1{}, t2{}, t3{}, t4{};
    for (std::size_t k = 0; k < ntaps; ++k) {
      const float f = taps[k];
      const Vec8 x0 = load8(a[k] + j), x1 = load8(a[k] + j + 8);
      const Vec8 y0 = load8(b[k] + j), y1 = load8(b[k] + j + 8);
      s0 += f * x0;
      t0 += f * x1;
      s1 += f * y0;
      t1 += f * y1;
      s2 += f * (x0 * x0);
      t2 += f * (x1 * x1);
      s3 += f * (y0 * y0);
      t3 += f * (y1 * y1);
      s4 += f * (x0 * y0);
      t4 += f * (x1 * y1);
    }
    store8(out[0] + j, s0);
    store8(out[0] + j + 8, t0);
    store8(out[1] + j, s1);
    store8(out[1] + j + 8, t1);
    store8(out[2] + j, s2);
    store8(out[2] + j + 8, t2);
    store8(out[3] + j, s3);
    store8(out[3] + j + 8, t3);
    store8(out[4] + j, s4);
    store8(out[4] + j + 8, t4);
  }
  for (; j < width; ++j) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f, s4 = 0.0f;
    for (std::size_t k = 0; k < ntaps; ++k) {
      const float x = a[k][j];
      const float y = b[k][j];
      s0 += taps[k] * x;
      s1 += taps[k] * y;
      s2 += taps[k] * (x * x);
      s3 += taps[k] * (y * y);
      s4 += taps[k] * (x * y);
    }
    out[0][j] = s0;
    out[1][j] = s1;
    out[2][j] = s2;
    out[3][j] = s3;
    out[4][j] = s4;
  }
}

}  // namespace vqx::bench

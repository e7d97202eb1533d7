// Linear RGB to the positive XYB (pointwise.hpp's positive_xyb per pixel) that SSIMULACRA2 compares
// (libjxl enc_xyb.cc LinearRGBToXYB, then ssimulacra2.cc MakePositiveXYB):
//   m_i = cbrt(max(0, M_i . (R, G, B) + bias)) - cbrt(bias)   (M: opsin matrix)
//   X = 0.5 (m_0 - m_1),  Y = 0.5 (m_0 + m_1),  B = m_2
//   X' = 14 X + 0.42,  Y' = Y + 0.01,  B' = (B - Y) + 0.55
#pragma once

namespace vqx::ssimulacra2 {

// n pixels; the outputs may not alias the inputs.
void linear_to_xyb(const float* r, const float* g, const float* b, unsigned n, float* x, float* y,
                   float* bp);

// Cube root of v >= 0 as libjxl's XYB computes it (a Newton iteration that
// lands within a few units in the last place); exposed for the unit test.
float cube_root(float v);

// -cbrt(kOpsinBias) (glibc's cbrtf), which positive_xyb (pointwise.hpp)
// adds to each cube root: computed here, on the host, for both twins.
float neg_cbrt_bias();

}  // namespace vqx::ssimulacra2

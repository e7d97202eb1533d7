#include "metrics/ssimulacra2/xyb.hpp"

#include <cmath>

#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/pointwise.hpp"

#include "core/kernel_build.hpp"

namespace vqx::ssimulacra2 {

// The cube root (pointwise.hpp's cube_root_and_add) differs from a
// correctly rounded cbrt by a few units in the last place, and SSIMULACRA2's
// score is sensitive enough to such differences (through the variances) to
// need libjxl's.
float cube_root(float v) { return cube_root_and_add(v, 0.0f); }

float neg_cbrt_bias() { return -std::cbrt(kOpsinBias); }

VQX_CLONES void linear_to_xyb(const float* __restrict r, const float* __restrict g,
                              const float* __restrict b, unsigned n, float* __restrict x,
                              float* __restrict y, float* __restrict bp) {
  const float add = neg_cbrt_bias();
  for (unsigned i = 0; i < n; ++i) {
    const Xyb v = positive_xyb(r[i], g[i], b[i], add);
    x[i] = v.x;
    y[i] = v.y;
    bp[i] = v.b;
  }
}

}  // namespace vqx::ssimulacra2

#include "metrics/ssimulacra2/downsample.hpp"

#include "core/kernel_build.hpp"
#include "metrics/ssimulacra2/pointwise.hpp"

namespace vqx::ssimulacra2 {

VQX_CLONES void downsample_row(const float* row0, const float* row1, unsigned in_width,
                               float* out) {
  const unsigned pairs = in_width / 2;
  for (unsigned ox = 0; ox < pairs; ++ox) {
    const unsigned x = 2 * ox;
    out[ox] = box(row0[x], row0[x + 1], row1[x], row1[x + 1]);
  }
  if (in_width % 2 != 0) {
    const unsigned x = in_width - 1;
    out[pairs] = box(row0[x], row0[x], row1[x], row1[x]);
  }
}

}  // namespace vqx::ssimulacra2

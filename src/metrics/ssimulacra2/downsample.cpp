#include "metrics/ssimulacra2/downsample.hpp"

#include "core/kernel_build.hpp"

namespace vqx::ssimulacra2 {

VQX_CLONES void downsample_row(const float* row0, const float* row1, unsigned in_width,
                               float* out) {
  const unsigned pairs = in_width / 2;
  for (unsigned ox = 0; ox < pairs; ++ox) {
    const unsigned x = 2 * ox;
    out[ox] = (((row0[x] + row0[x + 1]) + row1[x]) + row1[x + 1]) * 0.25f;
  }
  if (in_width % 2 != 0) {
    const unsigned x = in_width - 1;
    out[pairs] = (((row0[x] + row0[x]) + row1[x]) + row1[x]) * 0.25f;
  }
}

}  // namespace vqx::ssimulacra2

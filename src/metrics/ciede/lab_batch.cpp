#include "metrics/ciede/lab_batch.hpp"

#include "metrics/ciede/color_steps.hpp"

namespace vqx::ciede {

namespace {

// color_steps.hpp's lab_of() for every key: the GPU twin's function, in a
// loop over the batch that vectorises.
VQX_CLONES void lab_stage(LabBatch& batch, const YuvScale& scale) {
  for (int i = 0; i < batch.count; ++i) {
    const Lab lab = steps::lab_of_key(batch.key[i], scale);
    batch.l[i] = lab.l;
    batch.a[i] = lab.a;
    batch.b[i] = lab.b;
  }
}

}  // namespace

void compute_labs(LabBatch& batch, const YuvScale& scale) { lab_stage(batch, scale); }

}  // namespace vqx::ciede

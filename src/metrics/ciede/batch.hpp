// Colour pairs waiting for their CIEDE2000 difference, stored column-wise so
// that the differences can be computed for many pairs at once.
#pragma once

#include "metrics/ciede/color.hpp"
#include "metrics/ciede/lab_batch.hpp"

namespace vqx::ciede {

struct PairBatch {
  static constexpr int kCapacity = 256;

  // Colours of the reference and distorted pixel.
  alignas(64) float l1[kCapacity]{};
  alignas(64) float a1[kCapacity]{};
  alignas(64) float b1[kCapacity]{};
  alignas(64) float l2[kCapacity]{};
  alignas(64) float a2[kCapacity]{};
  alignas(64) float b2[kCapacity]{};
  // Where a colour still to come from a LabBatch comes from (its index), or -1.
  int source1[kCapacity]{};
  int source2[kCapacity]{};
  // The differences, once computed.
  alignas(64) float difference[kCapacity]{};
  int count = 0;

  // Intermediate values of compute_differences(), per pair.
  struct Work {
    alignas(64) float a1p[kCapacity]{};  // a' of colour 1
    alignas(64) float a2p[kCapacity]{};
    alignas(64) float chroma1[kCapacity]{};  // C (not C') of colour 1
    alignas(64) float chroma2[kCapacity]{};
    alignas(64) double g[kCapacity]{};           // G, a's weight
    alignas(64) float mean_cp[kCapacity]{};      // mean C'
    alignas(64) float delta_cp[kCapacity]{};     // delta C'
    alignas(64) double root_cp[kCapacity]{};     // sqrt(C'1 C'2)
    alignas(64) double root_ratio[kCapacity]{};  // sqrt of libvmaf's float C'^7 / (C'^7 + 25^7)
    alignas(64) float h1[kCapacity]{};           // hue angle h' of colour 1
    alignas(64) float h2[kCapacity]{};
    alignas(64) float mean_h[kCapacity]{};       // mean hue H-bar'
    alignas(64) float delta_big_h[kCapacity]{};  // delta H'
    alignas(64) float t[kCapacity]{};            // the hue weighting T
    alignas(64) float r_t[kCapacity]{};          // the rotation term R_T
  } work{};

  [[nodiscard]] bool full() const { return count == kCapacity; }

  // Copies the colours that came from `labs`.
  void resolve(const LabBatch& labs) {
    for (int i = 0; i < count; ++i) {
      if (source1[i] >= 0) {
        l1[i] = labs.l[source1[i]];
        a1[i] = labs.a[source1[i]];
        b1[i] = labs.b[source1[i]];
      }
      if (source2[i] >= 0) {
        l2[i] = labs.l[source2[i]];
        a2[i] = labs.a[source2[i]];
        b2[i] = labs.b[source2[i]];
      }
    }
  }

  // A pair whose colours are known, or still to come from a LabBatch
  // (source1 / source2 >= 0: the batch index; see resolve()).
  void add(const Lab& c1, int src1, const Lab& c2, int src2) {
    l1[count] = c1.l;
    a1[count] = c1.a;
    b1[count] = c1.b;
    l2[count] = c2.l;
    a2[count] = c2.a;
    b2[count] = c2.b;
    source1[count] = src1;
    source2[count] = src2;
    ++count;
  }
};

// Sets difference[i] = ciede2000(colour 1 of i, colour 2 of i) for every i <
// count, bit for bit as delta_e_steps.hpp's ciede2000() computes it.
void compute_differences(PairBatch& batch);

}  // namespace vqx::ciede

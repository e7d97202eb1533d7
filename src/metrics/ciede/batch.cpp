#include "metrics/ciede/batch.hpp"

#include "metrics/ciede/delta_e_steps.hpp"

// How the batch computes the colour differences: the stages of
// delta_e_steps.hpp (the GPU twin's ciede2000() per pixel, split here so
// that each loop over the batch's pairs vectorises), on column-wise arrays;
// the same functions on the same values give the same bits.

namespace vqx::ciede {

namespace {

// The first stage (steps::chroma_terms()) in two loops.
VQX_CLONES void weight_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    w.chroma1[i] = steps::chroma(p.a1[i], p.b1[i]);
    w.chroma2[i] = steps::chroma(p.a2[i], p.b2[i]);
    w.g[i] = steps::a_weight(w.chroma1[i], w.chroma2[i]);
  }
}

VQX_CLONES void chroma_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    const steps::ChromaTerms c = steps::chroma_terms_with(p.a1[i], p.b1[i], p.a2[i], p.b2[i],
                                                          w.chroma1[i], w.chroma2[i], w.g[i]);
    w.a1p[i] = c.a1p;
    w.a2p[i] = c.a2p;
    w.mean_cp[i] = c.mean_cp;
    w.delta_cp[i] = c.delta_cp;
    w.root_cp[i] = c.root_cp;
  }
}

VQX_CLONES void rotation_ratio_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    w.root_ratio[i] = steps::root_ratio(w.mean_cp[i]);
  }
}

// The third stage (steps::hue_terms()) in four loops.
VQX_CLONES void hue_angle_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    w.h1[i] = steps::hue_angle(p.b1[i], w.a1p[i]);
    w.h2[i] = steps::hue_angle(p.b2[i], w.a2p[i]);
  }
}

VQX_CLONES void delta_hue_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    w.delta_big_h[i] =
        steps::delta_big_hue(w.h1[i], w.h2[i], w.chroma1[i], w.chroma2[i], w.root_cp[i]);
    w.mean_h[i] = steps::mean_hue(w.h1[i], w.h2[i]);
  }
}

VQX_CLONES void rotation_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    w.r_t[i] = steps::rotation_term(w.mean_h[i], w.root_ratio[i]);
  }
}

VQX_CLONES void weighting_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    w.t[i] = static_cast<float>(steps::hue_weighting(w.mean_h[i]));
  }
}

VQX_CLONES void result_stage(PairBatch& p) {
  const PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    p.difference[i] = steps::combine(p.l1[i], p.l2[i], w.mean_cp[i], w.delta_cp[i],
                                     w.delta_big_h[i], w.t[i], w.r_t[i]);
  }
}

}  // namespace

void compute_differences(PairBatch& batch) {
  weight_stage(batch);
  chroma_stage(batch);
  rotation_ratio_stage(batch);
  hue_angle_stage(batch);
  delta_hue_stage(batch);
  rotation_stage(batch);
  weighting_stage(batch);
  result_stage(batch);
}

}  // namespace vqx::ciede

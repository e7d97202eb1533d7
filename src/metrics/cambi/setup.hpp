// What CAMBI settles once per picture format, for both twins: the sizes it
// works at (encoding and source size, as libvmaf's init() settles them),
// the windows, the two geometries, whether to anti-dither, the contrast
// tables, and the refusals of what libvmaf cannot compute, with their
// messages; the options and the outputs. The CPU extractor (family.cpp) and
// the GPU twin (gpu.cu) call these, so they refuse exactly the same
// pictures and write the same values the same way.
#pragma once

#include "core/extractor.hpp"
#include "core/options.hpp"
#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/scorer.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

struct Setup {
  Geometry enc;  // the distorted picture, at the encoding size
  Geometry src;  // the reference (full_ref only), at the source size
  bool anti_dither = false;
  ContrastTables tables;
  // The largest working size and window radius of the two geometries.
  unsigned max_width = 0;
  unsigned max_height = 0;
  unsigned max_radius = 0;
  int max_weight = 0;  // the largest contrast weight used (heatmaps)
};

Expected<Setup> make_setup(const Params& params, const PictureFormat& fmt);

// The parsed options, with libvmaf's precedence rules (family.cpp binds
// them for both twins).
Expected<Params> read_params(const OptionSet& set);

// Writes one frame's outputs from the picture scores (before clipping):
// "cambi" (slot 0) and, with full_ref, "cambi_source" and
// "cambi_full_reference" (slots 1 and 2), each clipped to cambi_max_val.
void write_scores(const Params& params, unsigned index, double dist_score, double src_score,
                  FeatureWriter& out);

}  // namespace vqx::cambi

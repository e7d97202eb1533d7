#include "metrics/float_adm/masking.hpp"

#include <cassert>
#include <cmath>

#include "core/index_math.hpp"
#include "core/kernel_build.hpp"
#include "metrics/float_adm/params.hpp"
#include "metrics/float_adm/pointwise.hpp"
#include "metrics/float_common/float_ops.hpp"

namespace vqx::float_adm {

namespace {

using float_common::abs_of;

// libvmaf's threshold (ADM_CM_THRESH_S_I_J): pointwise.hpp's threshold()
// over the masker's rows at column j.
VQX_FORCE_INLINE float threshold_at(const Masker& m, std::ptrdiff_t j) {
  return threshold([&](int b, int r, int c) VQX_INLINE_LAMBDA { return m.flt[r][b][j - 1 + c]; },
                   [&](int b) VQX_INLINE_LAMBDA { return m.csf[b][j]; });
}

// Terms of columns [begin, end) into terms[b][j - begin]; `Power` maps the
// masked value to its term. Bypass (no masking) is a template parameter so
// that the loop has no branch.
template <bool Bypass, typename Power>
VQX_FORCE_INLINE void masked_terms(const ConstBandRows& target, const Masker& m, unsigned begin,
                                   unsigned end, float* __restrict th, float* __restrict tv,
                                   float* __restrict td, const Power& power) {
  for (unsigned j = begin; j < end; ++j) {
    const float thr = Bypass ? 0.0f : threshold_at(m, j);
    float x[kBands];
    for (int b = 0; b < kBands; ++b) x[b] = masked(target[b][j], thr);
    th[j - begin] = power(x[0]);
    tv[j - begin] = power(x[1]);
    td[j - begin] = power(x[2]);
  }
}

VQX_CLONES
void masked_cubes(const ConstBandRows& target, const Masker& m, unsigned begin, unsigned end,
                  bool bypass, float* th, float* tv, float* td) {
  const auto power = [](float x) VQX_INLINE_LAMBDA { return cube(x); };
  if (bypass) {
    masked_terms<true>(target, m, begin, end, th, tv, td, power);
  } else {
    masked_terms<false>(target, m, begin, end, th, tv, td, power);
  }
}

VQX_CLONES
void reference_cubes(const ConstBandRows& ref, const BandWeights& w, unsigned begin, unsigned end,
                     float* __restrict th, float* __restrict tv, float* __restrict td) {
  for (unsigned j = begin; j < end; ++j) {
    th[j - begin] = cube(abs_of(w.hv * ref[0][j]));
    tv[j - begin] = cube(abs_of(w.hv * ref[1][j]));
    td[j - begin] = cube(abs_of(w.diag * ref[2][j]));
  }
}

// The sums of libvmaf's inner loops: per band, left to right, from 0.
void add_row_sums(const float* th, const float* tv, const float* td, unsigned n, BandSums& sums) {
  float h = 0;
  float v = 0;
  float d = 0;
  for (unsigned k = 0; k < n; ++k) {
    h += th[k];
    v += tv[k];
    d += td[k];
  }
  sums[0] += h;
  sums[1] += v;
  sums[2] += d;
}

}  // namespace

void mirror_columns(float* row, unsigned w) {
  pad_reflect101_repeat_end(row, static_cast<int>(w), 1, 1);
}

void add_masked_row(const ConstBandRows& target, const Masker& masker, unsigned begin, unsigned end,
                    bool bypass, Norm norm, std::span<float> scratch, BandSums& sums) {
  const unsigned n = end - begin;
  assert(scratch.size() >= 3 * std::size_t{n});
  float* th = scratch.data();
  float* tv = th + n;
  float* td = tv + n;
  if (norm.cubes()) {
    masked_cubes(target, masker, begin, end, bypass, th, tv, td);
  } else {
    const auto p = static_cast<float>(norm.p);
    const auto power = [p](float x) { return std::pow(x, p); };
    if (bypass) {
      masked_terms<true>(target, masker, begin, end, th, tv, td, power);
    } else {
      masked_terms<false>(target, masker, begin, end, th, tv, td, power);
    }
  }
  add_row_sums(th, tv, td, n, sums);
}

void add_reference_row(const ConstBandRows& ref, const BandWeights& weights, unsigned begin,
                       unsigned end, Norm norm, std::span<float> scratch, BandSums& sums) {
  const unsigned n = end - begin;
  assert(scratch.size() >= 3 * std::size_t{n});
  float* th = scratch.data();
  float* tv = th + n;
  float* td = tv + n;
  if (norm.cubes()) {
    reference_cubes(ref, weights, begin, end, th, tv, td);
  } else {
    const auto p = static_cast<float>(norm.p);
    const float w[kBands] = {weights.hv, weights.hv, weights.diag};
    float* out[kBands] = {th, tv, td};
    for (int b = 0; b < kBands; ++b) {
      for (unsigned j = begin; j < end; ++j)
        out[b][j - begin] = std::pow(abs_of(w[b] * ref[b][j]), p);
    }
  }
  add_row_sums(th, tv, td, n, sums);
}

}  // namespace vqx::float_adm

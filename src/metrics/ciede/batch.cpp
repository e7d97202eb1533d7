#include "metrics/ciede/batch.hpp"

#include <cmath>
#include <cstdint>

#include "metrics/ciede/approx_math.hpp"
#include "metrics/ciede/approximate_path.hpp"
#include "metrics/ciede/blend.hpp"
#include "metrics/ciede/delta_e.hpp"
#include "metrics/ciede/delta_e_steps.hpp"
#include "metrics/ciede/float_check.hpp"
#include "metrics/ciede/params.hpp"

// How the batch computes libvmaf's CIEDE2000 (delta_e.cpp, the reference
// transcription) bit for bit, faster:
//  * pow(C, 7) is a product of powers of C, and sin, cos, atan2 and exp come
//    from approx_math.hpp, vectorised, instead of libm calls. These differ
//    from libm by a few units in the last place of a double.
//  * Every such value feeds a float that libvmaf rounds right after (a', h',
//    delta H', T, the 60deg exp() angle, R_T). Each is checked: if the float
//    would be the same for any double within a safe bound of ours (far more
//    than our error plus libm's), both give that float; from there on the
//    arithmetic is the same IEEE arithmetic as libvmaf's.
//  * A pair that fails a check (a few in 10^5) is recomputed with libm by
//    delta_e.cpp.
// Loops with sqrt() vectorise only where it need not set errno
// (-fno-math-errno, which changes no value); else they run scalar.

namespace vqx::ciede {

namespace {

using steps::kPi;
using steps::kTwoPi;

// Chromas, a' and C' of each pair. Square roots only: vectorised where
// sqrt() need not set errno (-fno-math-errno), else scalar.
VQX_CLONES void chroma_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  constexpr double kPivot7 = 6103515625.0;  // 25^7, exact
  for (int i = 0; i < p.count; ++i) {
    const float c1 = steps::chroma(p.a1[i], p.b1[i]);
    const float c2 = steps::chroma(p.a2[i], p.b2[i]);
    const float mean_c = (c1 + c2) / 2.0f;
    // pow(mean_c, 7) as (x^2 x^2)(x^2 x): x^2 is exact, so at most three
    // roundings, against libm's correctly rounded or nearly so result.
    const double x = mean_c;
    const double x2 = x * x;
    const double c7 = (x2 * x2) * (x2 * x);
    const double g = 1.0 - std::sqrt(c7 / (c7 + kPivot7));
    const double a1p = steps::a_prime(p.a1[i], g);
    const double a2p = steps::a_prime(p.a2[i], g);
    const float a1pf = static_cast<float>(a1p);
    const float a2pf = static_cast<float>(a2p);
    const float c1p = steps::chroma(a1pf, p.b1[i]);
    const float c2p = steps::chroma(a2pf, p.b2[i]);
    w.a1p[i] = a1pf;
    w.a2p[i] = a2pf;
    w.chroma1[i] = c1;
    w.chroma2[i] = c2;
    w.mean_cp[i] = (c1p + c2p) / 2.0f;
    w.delta_cp[i] = c2p - c1p;
    w.root_cp[i] = std::sqrt(static_cast<double>(c1p * c2p));
    w.exact[i] = safe(a1p) & safe(a2p) ? 0 : 1;
  }
}

// The C'^7 ratio of R_T, which libvmaf takes in float with powf(): libm's
// powf is not correctly rounded, so it is called here (scalar).
void rotation_ratio_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  const float pivot7f = std::pow(static_cast<float>(kChromaPivot), 7.0f);
  for (int i = 0; i < p.count; ++i) {
    const float c7f = std::pow(w.mean_cp[i], 7.0f);
    w.root_ratio[i] = std::sqrt(static_cast<double>(c7f / (c7f + pivot7f)));
  }
}

// h' from atan2(b, a'), checked, then moved into [0, 2 pi) as libvmaf does.
VQX_FORCE_INLINE float hue_angle(float b, float ap, bool& ok) {
  const double v = approx::atan2(b, ap);
  ok = ok & safe(v);
  const float h = static_cast<float>(v);
  const float wrapped = static_cast<float>(static_cast<double>(h) + kTwoPi);
  const bool achromatic = (b == 0.0f) & (ap == 0.0f);
  return pick(achromatic, 0.0f, pick(h < 0.0f, wrapped, h));
}

// Hue angles, delta H', T and R_T of each pair: no libm calls, vectorised.
VQX_CLONES void hue_stage(PairBatch& p) {
  PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    bool ok = w.exact[i] == 0;
    const float h1 = hue_angle(p.b1[i], w.a1p[i], ok);
    const float h2 = hue_angle(p.b2[i], w.a2p[i], ok);

    // delta h' (libvmaf tests C1, C2, not C'1, C'2, for zero).
    const float d = h2 - h1;
    const float d_plus = static_cast<float>(static_cast<double>(d) + kTwoPi);
    const float d_minus = static_cast<float>(static_cast<double>(d) - kTwoPi);
    const float folded =
        pick(static_cast<double>(std::fabs(d)) <= kPi, d, pick(h2 <= h1, d_plus, d_minus));
    const float dh = pick((w.chroma1[i] == 0.0f) | (w.chroma2[i] == 0.0f), 0.0f, folded);

    const double big_dh = (2.0 * w.root_cp[i]) * approx::sin(static_cast<double>(dh) / 2.0);
    ok = ok & safe(big_dh);

    // Mean hue H-bar' (no reduction by 2 pi, as in libvmaf).
    const float hsum = h1 + h2;
    const float far = static_cast<float>((static_cast<double>(hsum) + kTwoPi) / 2.0);
    const float near = static_cast<float>(static_cast<double>(hsum) / 2.0);
    const float mean_h = pick(std::fabs(static_cast<double>(h1 - h2)) > kPi, far, near);

    // T: an absolute bound, as T lies between 0.3 and 1.7.
    const double t =
        steps::hue_weighting(mean_h, [](double x) VQX_INLINE_LAMBDA { return approx::cos(x); });
    ok = ok & same_float(t, kRelativeBound * 4.0);

    const double exponent = steps::rotation_exponent(mean_h);
    const double angle_deg = kRtMaxDeg * approx::exp(exponent);
    ok = ok & (exponent > -700.0) & safe(angle_deg);
    const float angle = steps::rotation_angle(static_cast<float>(angle_deg));
    const double r_t = (-2.0 * w.root_ratio[i]) * approx::sin(static_cast<double>(angle));
    ok = ok & safe(r_t);

    w.delta_big_h[i] = static_cast<float>(big_dh);
    w.t[i] = static_cast<float>(t);
    w.r_t[i] = static_cast<float>(r_t);
    w.exact[i] = ok ? 0 : 1;
  }
}

// The weighted differences and the result, for every pair (vectorised as
// chroma_stage is); then the pairs that failed a check again, with libm.
VQX_CLONES void result_stage(PairBatch& p) {
  const PairBatch::Work& w = p.work;
  for (int i = 0; i < p.count; ++i) {
    p.difference[i] = steps::combine(p.l1[i], p.l2[i], w.mean_cp[i], w.delta_cp[i],
                                     w.delta_big_h[i], w.t[i], w.r_t[i]);
  }
}

void exact_stage(PairBatch& p, bool all) {
  for (int i = 0; i < p.count; ++i) {
    if (all || p.work.exact[i] != 0) {
      p.difference[i] = ciede2000({p.l1[i], p.a1[i], p.b1[i]}, {p.l2[i], p.a2[i], p.b2[i]});
    }
  }
}

}  // namespace

void compute_differences(PairBatch& batch) {
  if (!approximate_path_pays()) {
    exact_stage(batch, true);
    return;
  }
  chroma_stage(batch);
  rotation_ratio_stage(batch);
  hue_stage(batch);
  result_stage(batch);
  exact_stage(batch, false);
}

}  // namespace vqx::ciede

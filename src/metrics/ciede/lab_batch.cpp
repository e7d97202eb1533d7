#include "metrics/ciede/lab_batch.hpp"

#include <cmath>

#include "metrics/ciede/approx_math.hpp"
#include "metrics/ciede/approximate_path.hpp"
#include "metrics/ciede/blend.hpp"
#include "metrics/ciede/color_steps.hpp"
#include "metrics/ciede/float_check.hpp"
#include "metrics/ciede/params.hpp"

// How the batch gives color.cpp's Lab colours bit for bit, faster: the six
// pow() calls of a colour come from approx_math.hpp, vectorised. The linear
// RGB values they give differ from libm's by a few units in the last place;
// that error is carried through the XYZ sums to the three f values, which
// libvmaf rounds to float. When every value within the carried bound rounds
// to the same float (and no XYZ value is close enough to epsilon for the
// bound to straddle it), libm's does too, and the rest is the same IEEE
// arithmetic. Otherwise (a few colours in 10^5) libm does the colour again.

namespace vqx::ciede {

namespace {

// Relative error allowed for approx::pow (see float_check.hpp), and for what
// the rounding of the XYZ sums can add on top.
constexpr double kPowBound = 0x1p-46;
constexpr double kSumBound = 0x1p-45;

// One linearised component: the approximate power on the gamma segment.
VQX_FORCE_INLINE double linearise(double c) {
  const double curve = approx::pow(steps::gamma_base(c), kGamma);
  return pick(steps::on_gamma_segment(c), curve, steps::linear_segment(c));
}

// f(t) of one XYZ value whose error is at most t_bound; clears `ok` when
// libm's f could round to another float or lie on the other segment.
VQX_FORCE_INLINE float lab_f(double t, double t_bound, bool& ok) {
  const bool cube = steps::on_cube_root_segment(t);
  const double root = approx::pow(t, kLabCubeRootExponent);
  const double line = steps::lab_f_linear(t);
  const double f = pick(cube, root, line);
  // d(t^(1/3)) = t^(1/3) dt / (3t); the line's slope is kappa / 116 < 7.8.
  const double root_bound = root * (t_bound / (3.0 * t) * 1.01 + kSumBound);
  const double line_bound = 7.8 * t_bound + std::fabs(line) * kSumBound;
  const double bound = pick(cube, root_bound, line_bound) + kAbsoluteFloor;
  const double gap = std::fabs(t - kLabEpsilon);
  ok = ok & (gap > t_bound) & same_float(f, bound);
  return static_cast<float>(f);
}

VQX_CLONES void approximate_stage(LabBatch& batch, const YuvScale& scale) {
  for (int i = 0; i < batch.count; ++i) {
    const std::uint64_t key = batch.key[i];
    const steps::Rgb p =
        steps::rgb_prime(static_cast<double>(static_cast<std::int32_t>(key >> 32)),
                         static_cast<double>(static_cast<std::int32_t>((key >> 16) & 0xFFFF)),
                         static_cast<double>(static_cast<std::int32_t>(key & 0xFFFF)), scale);
    const double r = linearise(p.r);
    const double g = linearise(p.g);
    const double b = linearise(p.b);
    const double ar = std::fabs(r);
    const double ag = std::fabs(g);
    const double ab = std::fabs(b);
    bool ok = true;
    // Each XYZ value's error: the powers' relative error times the sizes of
    // the terms, plus the sums' own rounding.
    const double x = steps::x_over_white(steps::xyz_row(0, r, g, b));
    const double x_bound =
        steps::x_over_white(steps::xyz_row(0, ar, ag, ab)) * (kPowBound + kSumBound) * 1.01;
    const double y = steps::xyz_row(1, r, g, b);
    const double y_bound = steps::xyz_row(1, ar, ag, ab) * (kPowBound + kSumBound) * 1.01;
    const double z = steps::z_over_white(steps::xyz_row(2, r, g, b));
    const double z_bound =
        steps::z_over_white(steps::xyz_row(2, ar, ag, ab)) * (kPowBound + kSumBound) * 1.01;
    const float fx = lab_f(x, x_bound, ok);
    const float fy = lab_f(y, y_bound, ok);
    const float fz = lab_f(z, z_bound, ok);
    const Lab lab = steps::lab_from_f(fx, fy, fz);
    batch.l[i] = lab.l;
    batch.a[i] = lab.a;
    batch.b[i] = lab.b;
    batch.exact[i] = ok ? 0 : 1;
  }
}

}  // namespace

void compute_labs(LabBatch& batch, const YuvScale& scale) {
  const bool approximate = approximate_path_pays();
  if (approximate) {
    approximate_stage(batch, scale);
  }
  for (int i = 0; i < batch.count; ++i) {
    if (approximate && batch.exact[i] == 0) {
      continue;
    }
    const std::uint64_t key = batch.key[i];
    const Lab lab =
        yuv_to_lab(static_cast<double>(key >> 32), static_cast<double>((key >> 16) & 0xFFFF),
                   static_cast<double>(key & 0xFFFF), scale);
    batch.l[i] = lab.l;
    batch.a[i] = lab.a;
    batch.b[i] = lab.b;
  }
}

}  // namespace vqx::ciede

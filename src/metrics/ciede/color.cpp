#include "metrics/ciede/color.hpp"

#include <cmath>

#include "metrics/ciede/color_steps.hpp"
#include "metrics/ciede/params.hpp"

namespace vqx::ciede {

namespace {

double linearise(double c) {
  return steps::on_gamma_segment(c) ? std::pow(steps::gamma_base(c), kGamma)
                                    : steps::linear_segment(c);
}

// f(t), rounded to float as libvmaf's xyz_to_lab_map returns it.
float lab_f(double t) {
  return static_cast<float>(steps::on_cube_root_segment(t) ? std::pow(t, kLabCubeRootExponent)
                                                           : steps::lab_f_linear(t));
}

}  // namespace

YuvScale yuv_scale(unsigned bpc) {
  const double scale = static_cast<double>(1U << (bpc - 8));
  return {kLumaOffset * scale, kChromaOffset * scale, 1.0 / (kLumaRange * scale),
          1.0 / (kChromaRange * scale)};
}

Lab yuv_to_lab(double y, double u, double v, const YuvScale& s) {
  const steps::Rgb p = steps::rgb_prime(y, u, v, s);
  const double r = linearise(p.r);
  const double g = linearise(p.g);
  const double b = linearise(p.b);
  return steps::lab_from_f(lab_f(steps::x_over_white(steps::xyz_row(0, r, g, b))),
                           lab_f(steps::xyz_row(1, r, g, b)),
                           lab_f(steps::z_over_white(steps::xyz_row(2, r, g, b))));
}

}  // namespace vqx::ciede

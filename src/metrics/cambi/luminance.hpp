// Luminance of 10-bit limited-range luma levels and the two thresholds CAMBI
// derives from it once per configuration: the highest level at which a step
// of d levels is still visible, and the lowest level that is bright enough
// to show banding at all. libvmaf: src/feature/luminance_tools.c and
// cambi.c (tvi_condition, get_tvi_for_diff, get_vlt_luma).
#pragma once

#include "metrics/cambi/params.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

// Display luminance (cd/m^2) of a 10-bit luma level; levels outside the
// limited range are clipped to it first.
double luminance(int level, Eotf eotf);

// The level at which a step of `diff` levels stops being visible: a step is
// visible when the luminance rises by more than tvi_threshold times the
// luminance of the lower level. Found by the same bisection as libvmaf
// (so that the same levels are probed), with its special answers: 0 when
// the step is invisible already at black, 1023 when it is still visible at
// the top of the searched range.
Expected<int> visibility_threshold(int diff, double tvi_threshold, Eotf eotf);

// The lowest level whose luminance reaches `threshold`, or 0 when black
// already does. An error when no level does (libvmaf loops forever there).
Expected<int> visible_luma_floor(double threshold, Eotf eotf);

}  // namespace vqx::cambi

// ANSNR ("float_ansnr", libvmaf feature/float_ansnr.c, ansnr.c,
// ansnr_tools.c): the numbers, written once.
//
// The measure: both lumas in 8-bit float units, offset by -128, are
// low-passed, the reference with a 3x3 filter and the distorted with a 5x5
// one (borders mirrored). Then signal = sum of ref_f^2 and
// noise = sum of (ref_f - dis_f)^2, both in float, row by row;
// float_ansnr = 10 log10(signal / noise) (the cap when noise is 0) and
// float_anpsnr = min(10 log10(peak^2 w h / max(noise, 1e-10)), cap), with
// float_psnr's peak and cap (float_psnr/params.hpp).
#pragma once

#include <array>

namespace vqx::ansnr {

// The offset added to every sample in 8-bit units (float_ansnr.c, extract():
// picture_copy(..., -128, ...)).
inline constexpr float kOffset = -128.0F;

// The reference's filter, 3x3 (ansnr_tools.c, ansnr_filter2d_ref_s).
inline constexpr int kRefRadius = 1;
inline constexpr std::array<std::array<float, 3>, 3> kRefFilter = {{
    {1.0F / 16.0F, 2.0F / 16.0F, 1.0F / 16.0F},
    {2.0F / 16.0F, 4.0F / 16.0F, 2.0F / 16.0F},
    {1.0F / 16.0F, 2.0F / 16.0F, 1.0F / 16.0F},
}};

// The distorted picture's filter, 5x5 (ansnr_tools.c, ansnr_filter2d_dis_s):
// k / 571 computed in double, then rounded to float.
inline constexpr int kDisRadius = 2;
constexpr float dis_tap(int k) { return static_cast<float>(k / 571.0); }
inline constexpr std::array<std::array<float, 5>, 5> kDisFilter = {{
    {dis_tap(2), dis_tap(7), dis_tap(12), dis_tap(7), dis_tap(2)},
    {dis_tap(7), dis_tap(31), dis_tap(52), dis_tap(31), dis_tap(7)},
    {dis_tap(12), dis_tap(52), dis_tap(127), dis_tap(52), dis_tap(12)},
    {dis_tap(7), dis_tap(31), dis_tap(52), dis_tap(31), dis_tap(7)},
    {dis_tap(2), dis_tap(7), dis_tap(12), dis_tap(7), dis_tap(2)},
}};

// The mirrored border (ansnr_filter2d_s without ANSNR_OPT_BORDER_REPLICATE):
// index -i reads i, index n - 1 + i reads n - i, i.e. the first sample is
// not repeated and the last one is. The 5x5 filter reaches 2 samples past an
// edge, which stays inside the picture only from 3 samples on: libvmaf reads
// outside the picture below that, so VQX refuses such pictures instead.
inline constexpr unsigned kMinDimension = 3;

}  // namespace vqx::ansnr

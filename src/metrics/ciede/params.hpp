// CIEDE2000 ("ciede" in libvmaf, output "ciede2000"): the numbers, written once.
//
// The measure: every pixel of both pictures is taken from limited-range
// BT.709 Y'CbCr to R'G'B', linearised with the sRGB transfer curve, taken to
// CIE XYZ (D65) and to CIELAB; the CIEDE2000 colour difference of the two
// Lab colours is summed over the frame (in double, raster order) and the
// frame score is 45 - 20 * log10(mean difference).
//
// Source of every number below: libvmaf libvmaf/src/feature/ciede.c
// (get_lab_color, rgb_to_xyz_map, xyz_to_lab_map, ciede2000 and its helpers,
// extract), itself a port of rust-av/av-metrics' ciede module.
#pragma once

#include <numbers>

namespace vqx::ciede {

// --- Y'CbCr (limited range, scaled by 2^(bpc - 8)) to R'G'B' ---------------
inline constexpr double kLumaOffset = 16.0;     // black level at 8 bits
inline constexpr double kLumaRange = 219.0;     // white - black at 8 bits
inline constexpr double kChromaOffset = 128.0;  // zero chroma at 8 bits
inline constexpr double kChromaRange = 224.0;   // chroma excursion at 8 bits
// BT.709 inverse matrix, as libvmaf rounds it.
inline constexpr double kCrToR = 1.28033;
inline constexpr double kCbToG = 0.21482;
inline constexpr double kCrToG = 0.38059;
inline constexpr double kCbToB = 2.12798;

// --- R'G'B' to linear RGB: the sRGB curve (threshold as libvmaf has it) ----
inline constexpr double kLinearThreshold = 10.0 / 255.0;
inline constexpr double kLinearSlope = 12.92;
inline constexpr double kGammaOffset = 0.055;
inline constexpr double kGammaScale = 1.055;
inline constexpr double kGamma = 2.4;

// --- linear RGB to XYZ (sRGB primaries, D65), rows X, Y, Z ------------------
inline constexpr double kRgbToXyz[3][3] = {
    {0.4124564390896921, 0.357576077643909, 0.18043748326639894},
    {0.21267285140562248, 0.715152155287818, 0.07217499330655958},
    {0.019333895582329317, 0.119192025881303, 0.9503040785363677},
};
// D65 white point: X and Z are divided by these (Y's is 1).
inline constexpr double kWhiteX = 0.95047;
inline constexpr double kWhiteZ = 1.08883;

// --- XYZ to CIELAB ----------------------------------------------------------
inline constexpr double kLabKappa = 24389.0 / 27.0;
inline constexpr double kLabEpsilon = 216.0 / 24389.0;
inline constexpr double kLabCubeRootExponent = 1.0 / 3.0;  // libvmaf uses pow(c, 1/3)
inline constexpr double kLabLinearOffset = 16.0;
inline constexpr double kLabLinearDivisor = 116.0;
inline constexpr double kLabL = 116.0;
inline constexpr double kLabA = 500.0;
inline constexpr double kLabB = 200.0;

// --- CIEDE2000 --------------------------------------------------------------
// Weights k_L, k_C, k_H (libvmaf's default_ksub; k_L = 0.65, not the usual 1).
inline constexpr float kWeightL = 0.65f;
inline constexpr float kWeightC = 1.0f;
inline constexpr float kWeightH = 4.0f;
inline constexpr double kChromaPivot = 25.0;  // the 25 in C^7 / (C^7 + 25^7)
inline constexpr double kLightnessMid = 50.0;
inline constexpr double kSlWeight = 0.015;
inline constexpr double kSlOffset = 20.0;
inline constexpr double kScWeight = 0.045;
inline constexpr double kShWeight = 0.015;
// T = 1 - 0.17 cos(H - 30deg) + 0.24 cos(2H) + 0.32 cos(3H + 6deg)
//       - 0.20 cos(4H - 63deg)
inline constexpr double kT1 = 0.17;
inline constexpr double kT2 = 0.24;
inline constexpr double kT3 = 0.32;
inline constexpr double kT4 = 0.20;
// Their phases in radians, 30, 6 and 63 degrees, as ciede.c writes them
// (M_PI / 6.0, M_PI / 30.0, 7.0 * M_PI / 20.0).
inline constexpr double kT1Phase = std::numbers::pi / 6.0;
inline constexpr double kT3Phase = std::numbers::pi / 30.0;
inline constexpr double kT4Phase = 7.0 * std::numbers::pi / 20.0;
// R_T = -2 sqrt(C^7 / (C^7 + 25^7)) sin(60deg exp(-((H - 275deg) / 25deg)^2))
inline constexpr double kRtHueCentreDeg = 275.0;
inline constexpr double kRtHueWidthDeg = 25.0;
inline constexpr double kRtMaxDeg = 60.0;

// --- pooling ----------------------------------------------------------------
// score = kScoreOffset - kScoreScale * log10(sum / pixels)
inline constexpr double kScoreOffset = 45.0;
inline constexpr double kScoreScale = 20.0;

// libvmaf upsamples 4:2:2 chroma through a 4:4:4 copy whose source rows it
// addresses with the row stride of its own picture buffers: the chroma
// width rounded up to a multiple of this many samples (DATA_ALIGN in
// libvmaf/src/picture.c), the padding being zeros. See cpu.cpp.
inline constexpr unsigned kLibvmafRowAlign = 32;

}  // namespace vqx::ciede

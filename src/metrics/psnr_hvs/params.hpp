// PSNR-HVS ("psnr_hvs" in libvmaf; Xiph/Daala's PSNR-HVS-M): the numbers,
// written once.
//
// The measure, per plane: 8x8 blocks are taken every 7 samples in both
// directions (blocks overlap by one row and one column; a block must fit
// entirely inside the plane). Each block of both pictures goes through
// Daala's 8x8 integer DCT. The reference and distorted blocks each get a
// contrast-masking level: the mask-weighted energy of their AC
// coefficients, scaled by how much of the block's variance lies within its
// four 4x4 quadrants; the larger of the two is used. Every coefficient's
// absolute difference is reduced by that level divided by the coefficient's
// mask weight (to no less than 0; not for DC), weighted by the contrast
// sensitivity (CSF) and squared. The mean over every coefficient of every
// block, divided by the squared peak sample value, is the plane's error;
// psnr_hvs_{y,cb,cr} = -10 log10(error), psnr_hvs = -10 log10(0.8 error_y +
// 0.1 (error_cb + error_cr)).
//
// Source of every number below: libvmaf
// libvmaf/src/feature/third_party/xiph/psnr_hvs.c (csf_y, csf_cb420,
// csf_cr420, calc_psnrhvs, od_bin_fdct8, extract, init).
#pragma once

#include <array>
#include <cstdint>

namespace vqx::psnr_hvs {

inline constexpr int kBlock = 8;  // DCT size
inline constexpr int kBlockArea = kBlock * kBlock;
inline constexpr int kStep = 7;          // distance between block origins
inline constexpr unsigned kMaxBpc = 12;  // libvmaf refuses deeper samples (init)

using Table = std::array<std::array<float, kBlock>,
                         kBlock>;  // [row][column] = [vertical][horizontal] frequency

// Contrast sensitivity: "normalized inverse quantization matrix for 8x8 DCT
// at the point of transparency" (psnr_hvs.c, csf_y). The 4:2:0 chroma tables
// are used for chroma of every subsampling, as libvmaf does.
inline constexpr Table kCsfY = {{
    {1.6193873005f, 2.2901594831f, 2.08509755623f, 1.48366094411f, 1.00227514334f, 0.678296995242f,
     0.466224900598f, 0.3265091542f},
    {2.2901594831f, 1.94321815382f, 2.04793073064f, 1.68731108984f, 1.2305666963f, 0.868920337363f,
     0.61280991668f, 0.436405793551f},
    {2.08509755623f, 2.04793073064f, 1.34329019223f, 1.09205635862f, 0.875748795257f,
     0.670882927016f, 0.501731932449f, 0.372504254596f},
    {1.48366094411f, 1.68731108984f, 1.09205635862f, 0.772819797575f, 0.605636379554f,
     0.48309405692f, 0.380429446972f, 0.295774038565f},
    {1.00227514334f, 1.2305666963f, 0.875748795257f, 0.605636379554f, 0.448996256676f,
     0.352889268808f, 0.283006984131f, 0.226951348204f},
    {0.678296995242f, 0.868920337363f, 0.670882927016f, 0.48309405692f, 0.352889268808f,
     0.27032073436f, 0.215017739696f, 0.17408067321f},
    {0.466224900598f, 0.61280991668f, 0.501731932449f, 0.380429446972f, 0.283006984131f,
     0.215017739696f, 0.168869545842f, 0.136153931001f},
    {0.3265091542f, 0.436405793551f, 0.372504254596f, 0.295774038565f, 0.226951348204f,
     0.17408067321f, 0.136153931001f, 0.109083846276f},
}};

// psnr_hvs.c, csf_cb420.
inline constexpr Table kCsfCb = {{
    {1.91113096927f, 2.46074210438f, 1.18284184739f, 1.14982565193f, 1.05017074788f,
     0.898018824055f, 0.74725392039f, 0.615105596242f},
    {2.46074210438f, 1.58529308355f, 1.21363250036f, 1.38190029285f, 1.33100189972f, 1.17428548929f,
     0.996404342439f, 0.830890433625f},
    {1.18284184739f, 1.21363250036f, 0.978712413627f, 1.02624506078f, 1.03145147362f,
     0.960060382087f, 0.849823426169f, 0.731221236837f},
    {1.14982565193f, 1.38190029285f, 1.02624506078f, 0.861317501629f, 0.801821139099f,
     0.751437590932f, 0.685398513368f, 0.608694761374f},
    {1.05017074788f, 1.33100189972f, 1.03145147362f, 0.801821139099f, 0.676555426187f,
     0.605503172737f, 0.55002013668f, 0.495804539034f},
    {0.898018824055f, 1.17428548929f, 0.960060382087f, 0.751437590932f, 0.605503172737f,
     0.514674450957f, 0.454353482512f, 0.407050308965f},
    {0.74725392039f, 0.996404342439f, 0.849823426169f, 0.685398513368f, 0.55002013668f,
     0.454353482512f, 0.389234902883f, 0.342353999733f},
    {0.615105596242f, 0.830890433625f, 0.731221236837f, 0.608694761374f, 0.495804539034f,
     0.407050308965f, 0.342353999733f, 0.295530605237f},
}};

// psnr_hvs.c, csf_cr420.
inline constexpr Table kCsfCr = {{
    {2.03871978502f, 2.62502345193f, 1.26180942886f, 1.11019789803f, 1.01397751469f,
     0.867069376285f, 0.721500455585f, 0.593906509971f},
    {2.62502345193f, 1.69112867013f, 1.17180569821f, 1.3342742857f, 1.28513006198f, 1.13381474809f,
     0.962064122248f, 0.802254508198f},
    {1.26180942886f, 1.17180569821f, 0.944981930573f, 0.990876405848f, 0.995903384143f,
     0.926972725286f, 0.820534991409f, 0.706020324706f},
    {1.11019789803f, 1.3342742857f, 0.990876405848f, 0.831632933426f, 0.77418706195f,
     0.725539939514f, 0.661776842059f, 0.587716619023f},
    {1.01397751469f, 1.28513006198f, 0.995903384143f, 0.77418706195f, 0.653238524286f,
     0.584635025748f, 0.531064164893f, 0.478717061273f},
    {0.867069376285f, 1.13381474809f, 0.926972725286f, 0.725539939514f, 0.584635025748f,
     0.496936637883f, 0.438694579826f, 0.393021669543f},
    {0.721500455585f, 0.962064122248f, 0.820534991409f, 0.661776842059f, 0.531064164893f,
     0.438694579826f, 0.375820256136f, 0.330555063063f},
    {0.593906509971f, 0.802254508198f, 0.706020324706f, 0.587716619023f, 0.478717061273f,
     0.393021669543f, 0.330555063063f, 0.285345396658f},
}};

// Masking weights: mask = (csf * kMaskScale)^2, evaluated in double and
// stored as float ("if I multiply their CSF by 0.38857 and square the
// result I get their masking table", psnr_hvs.c).
inline constexpr double kMaskScale = 0.3885746225901003;

// Unbiased variance factors, as float: var *= (1 / 63.f) * 64 for the
// block, (1 / 15.f) * 16 for each 4x4 quadrant.
inline constexpr float kBlockVarianceScale = 1.0f / 63.0f * 64.0f;
inline constexpr float kQuadrantVarianceScale = 1.0f / 15.0f * 16.0f;
// The masking level is sqrt(energy * variance ratio) / 32.
inline constexpr float kMaskDivisor = 32.0f;

// psnr_hvs = -10 log10(kWeightY e_y + kWeightC (e_cb + e_cr)).
inline constexpr double kWeightY = 0.8;
inline constexpr double kWeightC = 0.1;

// Daala's 8-point integer DCT (od_bin_fdct8) is a chain of lifting steps
// t += (u * mult + 2^(shift - 1)) >> shift. Their multipliers and shifts,
// named after the step they implement (the comments in psnr_hvs.c give
// each as a trigonometric ratio):
struct Lift {
  std::int32_t mult;
  int shift;
};
inline constexpr Lift kTanPi8 = {13573, 15};         // tan(pi/8) = sqrt(2) - 1
inline constexpr Lift kSqrtHalf = {11585, 14};       // sqrt(1/2)
inline constexpr Lift kTan3Pi16 = {21895, 15};       // tan(3pi/16) = (1 - cos(3pi/8)) / sin(3pi/8)
inline constexpr Lift kSin3Pi8 = {15137, 14};        // sin(3pi/8)
inline constexpr Lift kTwoMinusSqrt2 = {19195, 15};  // 2 - sqrt(2)
inline constexpr Lift kSqrt2MinusHalf = {7489, 13};  // sqrt(2) - 1/2
inline constexpr Lift kTanPi32 = {3227, 15};         // tan(pi/32) = (1 - cos(pi/16)) / sin(pi/16)
inline constexpr Lift kSinPi16 = {6393, 15};         // sin(pi/16)
inline constexpr Lift kTan3Pi32 = {2485, 13};   // tan(3pi/32) = (1 - cos(3pi/16)) / sin(3pi/16)
inline constexpr Lift kSin3Pi16 = {18205, 15};  // sin(3pi/16)

}  // namespace vqx::psnr_hvs

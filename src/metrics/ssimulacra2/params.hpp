// SSIMULACRA 2.1 ("ssimulacra2"): the numbers and options, written once.
//
// The measure (libjxl tools/ssimulacra2.cc, version 2.1 of April 2023): both
// pictures are taken to linear RGB (colour.hpp says how Y'CbCr gets there),
// then for each of up to six scales (1:1 to 1:32, each halving the linear RGB
// of the previous one with a 2x2 box) to XYB, shifted into a positive range.
// Each XYB channel is blurred with a recursive Gaussian (sigma 1.5, zero
// outside the picture) to local means, variances and covariance; three error
// maps follow (1 - SSIM without the luminance denominator, "ringing" and
// "blurring" edge differences), and each map's 1-norm and 4-norm are taken:
// 6 scales x 3 channels x 3 maps x 2 norms = 108 numbers, whose weighted sum
// goes through a cubic and a power law to the score (100 = identical).
//
// Sources of the numbers (libjxl, https://github.com/libjxl/libjxl at commit
// aea3a06e, unchanged since the 2.1 update 0d8651b0):
//   tools/ssimulacra2.cc   kC2, kNumScales, MakePositiveXYB, Msssim::Score
//   tools/gauss_blur.cc    CreateRecursiveGaussian (the blur's equations)
//   lib/jxl/cms/opsin_params.h  kOpsinAbsorbanceMatrix, kOpsinAbsorbanceBias
//   lib/jxl/enc_xyb.cc     LinearRGBToXYB (how the XYB numbers are combined)
//   lib/jxl/base/fast_math-inl.h  CubeRootAndAdd (the cube root's seed)
//   lib/jxl/cms/transfer_functions-inl.h  TF_709 (BT.709 curve constants)
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "core/options.hpp"

namespace vqx::ssimulacra2 {

// --- scales and blur ----------------------------------------------------------
inline constexpr int kNumScales = 6;
// A scale is computed only while the previous one (the picture itself for the
// first) is at least this wide and high; libjxl's tool refuses pictures
// smaller than 8x8, and so does VQX.
inline constexpr unsigned kMinDimension = 8;
inline constexpr double kBlurSigma = 1.5;
// Radius of the recursive Gaussian, round(3.2795 * sigma + 0.2546) (eq. 57 of
// Charalampidis 2016, as gauss_blur.cc computes it); 5 for sigma 1.5.
inline constexpr double kBlurRadiusSlope = 3.2795;
inline constexpr double kBlurRadiusOffset = 0.2546;
inline constexpr int kBlurRadius = 5;

// --- linear RGB to XYB (lib/jxl/cms/opsin_params.h) ---------------------------
// Rows mix R, G, B into the three cone-like responses; computed in float as
// libjxl writes them.
inline constexpr float kM02 = 0.078f;
inline constexpr float kM00 = 0.30f;
inline constexpr float kM01 = 1.0f - kM02 - kM00;
inline constexpr float kM12 = 0.078f;
inline constexpr float kM10 = 0.23f;
inline constexpr float kM11 = 1.0f - kM12 - kM10;
inline constexpr float kM20 = 0.24342268924547819f;
inline constexpr float kM21 = 0.20476744424496821f;
inline constexpr float kM22 = 1.0f - kM20 - kM21;
inline constexpr std::array<std::array<float, 3>, 3> kOpsinMatrix = {{
    {kM00, kM01, kM02},
    {kM10, kM11, kM12},
    {kM20, kM21, kM22},
}};
// Added to each mix before the cube root; its cube root is subtracted after.
inline constexpr float kOpsinBias = 0.0037930732552754493f;
// The cube root's seed for v^(-1/3) from the bits of v: bias - exponent *
// mul (lib/jxl/base/fast_math-inl.h, CubeRootAndAdd: kExpBias, kExpMul).
inline constexpr std::int32_t kCubeRootSeedBias = 0x54800000;
inline constexpr std::int32_t kCubeRootSeedExponentMul = 0x002AAAAA;

// --- XYB made positive (ssimulacra2.cc, MakePositiveXYB) ----------------------
// B' = (B - Y) + 0.55, X' = X * 14 + 0.42, Y' = Y + 0.01.
inline constexpr float kPositiveBOffset = 0.55f;
inline constexpr float kPositiveXScale = 14.0f;
inline constexpr float kPositiveXOffset = 0.42f;
inline constexpr float kPositiveYOffset = 0.01f;

// --- error maps (ssimulacra2.cc, SSIMMap) --------------------------------------
inline constexpr float kC2 = 0.0009f;
// The order of a channel's sums of the error maps (VQX's, for both twins;
// libjxl adds in raster order): each column adds its pixels in order of
// rows from 0.0; the channel's sum adds the columns in order, x = 0, 1, ...,
// from 0.0. Column by column because the GPU twin walks a column per thread
// through the vertical blur and adds its pixels' terms as it goes (docs/gpu.md).

// --- the final score (ssimulacra2.cc, Msssim::Score) ---------------------------
// Index = ((channel * 6 + scale) * 2 + norm) * 3 + map, with channel X, Y, B,
// norm 1 then 4, map SSIM, ringing, blurring. With fewer than six scales
// libjxl keeps counting from where the previous channel stopped (so channel Y
// takes weights meant for channel X's missing scales); score.cpp does too.
inline constexpr std::array<double, 108> kWeights = {
    0.0,
    0.0007376606707406586,
    0.0,
    0.0,
    0.0007793481682867309,
    0.0,
    0.0,
    0.0004371155730107379,
    0.0,
    1.1041726426657346,
    0.00066284834129271,
    0.00015231632783718752,
    0.0,
    0.0016406437456599754,
    0.0,
    1.8422455520539298,
    11.441172603757666,
    0.0,
    0.0007989109436015163,
    0.000176816438078653,
    0.0,
    1.8787594979546387,
    10.94906990605142,
    0.0,
    0.0007289346991508072,
    0.9677937080626833,
    0.0,
    0.00014003424285435884,
    0.9981766977854967,
    0.00031949755934435053,
    0.0004550992113792063,
    0.0,
    0.0,
    0.0013648766163243398,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    7.466890328078848,
    0.0,
    17.445833984131262,
    0.0006235601634041466,
    0.0,
    0.0,
    6.683678146179332,
    0.00037724407979611296,
    1.027889937768264,
    225.20515300849274,
    0.0,
    0.0,
    19.213238186143016,
    0.0011401524586618361,
    0.001237755635509985,
    176.39317598450694,
    0.0,
    0.0,
    24.43300999870476,
    0.28520802612117757,
    0.0004485436923833408,
    0.0,
    0.0,
    0.0,
    34.77906344483772,
    44.835625328877896,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0008680556573291698,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0005313191874358747,
    0.0,
    0.00016533814161379112,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0004179171803251336,
    0.0017290828234722833,
    0.0,
    0.0020827005846636437,
    0.0,
    0.0,
    8.826982764996862,
    23.19243343998926,
    0.0,
    95.1080498811086,
    0.9863978034400682,
    0.9834382792465353,
    0.0012286405048278493,
    171.2667255897307,
    0.9807858872435379,
    0.0,
    0.0,
    0.0,
    0.0005130064588990679,
    0.0,
    0.00010854057858411537,
};
// s = weighted sum * kScoreScale; s = a*s + b*s^2 + c*s^3; the score is
// 100 - 10 * s^kScorePower for s > 0, else 100.
inline constexpr double kScoreScale = 0.9562382616834844;
inline constexpr double kScoreCubicA = 2.326765642916932;
inline constexpr double kScoreCubicB = -0.020884521182843837;
inline constexpr double kScoreCubicC = 6.248496625763138e-05;
inline constexpr double kScorePower = 0.6276336467831387;
inline constexpr double kPerfectScore = 100.0;
inline constexpr double kScoreStep = 10.0;

// --- Y'CbCr to R'G'B' (ITU-T H.273 / ITU-R BT.601, BT.709, BT.2020) ------------
// Luma weights Kr, Kb of each matrix (Kg = 1 - Kr - Kb).
struct LumaWeights {
  double kr;
  double kb;
};
inline constexpr LumaWeights kWeightsBt709 = {0.2126, 0.0722};
inline constexpr LumaWeights kWeightsBt601 = {0.299, 0.114};
inline constexpr LumaWeights kWeightsBt2020 = {0.2627, 0.0593};  // non-constant luminance
// Limited range at 8 bits (scaled by 2^(bpc - 8)): black, white - black,
// zero chroma, chroma excursion. Full range: Y' = Y / (2^bpc - 1), chroma
// zero at 2^(bpc - 1), same divisor.
inline constexpr double kLimitedLumaOffset = 16.0;
inline constexpr double kLimitedLumaRange = 219.0;
inline constexpr double kLimitedChromaOffset = 128.0;
inline constexpr double kLimitedChromaRange = 224.0;

// --- R'G'B' to linear (the transfer option) ------------------------------------
// sRGB (IEC 61966-2-1): v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055)^2.4.
inline constexpr double kSrgbThreshold = 0.04045;
inline constexpr double kSrgbSlope = 12.92;
inline constexpr double kSrgbOffset = 0.055;
inline constexpr double kSrgbScale = 1.055;
inline constexpr double kSrgbGamma = 2.4;
// BT.709 (inverse of its OETF, constants as libjxl's TF_709):
// v < 0.081 ? v / 4.5 : ((v + 0.099) / 1.099)^(1 / 0.45).
inline constexpr double kBt709Threshold = 0.081;
inline constexpr double kBt709Slope = 4.5;
inline constexpr double kBt709Offset = 0.099;
inline constexpr double kBt709Scale = 1.099;
inline constexpr double kBt709Gamma = 1.0 / 0.45;
// BT.1886 with a zero black level: v^2.4.
inline constexpr double kBt1886Gamma = 2.4;
// The curves are tabulated at this many intervals over [0, 1] and read by
// linear interpolation: the error, at most max|f''| / 8 / N^2 (< 6e-9 for
// these curves), is below float's resolution near 1.
inline constexpr int kTransferTableIntervals = 8192;

// --- options -------------------------------------------------------------------
enum class Matrix { kBt709, kBt601, kBt2020 };
enum class Range { kLimited, kFull };
enum class Transfer { kSrgb, kBt709, kBt1886, kLinear };

inline constexpr const char* kDefaultMatrix = "bt709";
inline constexpr const char* kDefaultRange = "limited";
inline constexpr const char* kDefaultTransfer = "srgb";

// Not libvmaf options (libvmaf has no SSIMULACRA2): VQX's own. Each is a
// feature parameter, so a non-default value names the output, e.g.
// "ssimulacra2_matrix_bt601". Defined in params.cpp: the strings' static
// initialisation crashes nvcc's constant evaluator (CUDA 13) in a header
// that GPU sources include.
std::span<const OptionDef> option_defs();

struct Params {
  Matrix matrix = Matrix::kBt709;
  Range range = Range::kLimited;
  Transfer transfer = Transfer::kSrgb;
};

}  // namespace vqx::ssimulacra2

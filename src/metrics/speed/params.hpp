// SpEED (spatial efficient entropic differencing): the numbers and options
// shared by the "speed_chroma" and "speed_temporal" families, written once.
//
// The measure (libvmaf src/feature/speed.c): a picture (a chroma plane, or
// the difference of two consecutive luma planes) is optionally rescaled, low-
// pass filtered and decimated by 16 in each direction, and the decimated
// picture minus its own blur is cut into 5x5 blocks. A Gaussian scale mixture
// fitted to the blocks gives, per block, a variance estimate and an entropy;
// the score is the mean absolute difference of the variance-weighted
// entropies of the reference and the distorted pictures.
//
// Every number here is a fact of libvmaf's speed.c, vif_tools.c/.h and
// picture_copy.c (the sources are named beside each one) and must stay as it
// is for the results to match.
#pragma once

#include <array>
#include <cmath>
#include <numbers>
#include <span>
#include <string>

#include "core/options.hpp"

namespace vqx::speed {

// speed.c: NUM_SCALES (the picture is decimated by 2^4 = 16) and
// DEFAULT_BLOCK_SIZE (the Gaussian scale mixture works on 5x5 blocks).
inline constexpr unsigned kScales = 4;
inline constexpr unsigned kDecimation = 1U << kScales;
inline constexpr unsigned kBlock = 5;
inline constexpr unsigned kBlockElems = kBlock * kBlock;

// speed.c: EIGENVALUE_EPS (the tolerance of the eigenvalue iteration, the
// smallest eigenvalue of a regular covariance matrix and the smallest pivot
// of the triangular solve) and EIGENVALUE_MAX_ITERS.
inline constexpr double kEigenEps = 1e-6;
inline constexpr int kEigenMaxIters = 500;

// speed.c, ALMOST_EQUAL(speed_prescale, 1.0): prescale factors closer to 1
// than this leave the picture as it is.
inline constexpr double kPrescaleIdentityTolerance = 1.0e-3;

// speed.c, update_entropy() and get_speed_score(): log2(2 * M_PI * M_E),
// the entropy term of a unit-variance Gaussian, in double.
inline const double kLog2TwoPiE = std::log2(2.0 * std::numbers::pi * std::numbers::e);

// picture_copy.c: samples become floats centred on 0: v / 2^(bpc - 8) - 128.
inline constexpr int kSampleOffset = -128;

// vif_tools.h, valid_kernelscales[] (float), and vif_tools.c,
// vif_validate_kernelscale(): a kernel scale must be within 1e-3 of one.
inline constexpr std::array<float, 21> kValidKernelScales = {
    1.0F,           1.0F / 2.0F,  3.0F / 2.0F, 2.0F,         2.0F / 3.0F,  24.0F / 10.0F,
    360.0F / 97.0F, 4.0F / 3.0F,  3.5F / 3.0F, 3.75F / 3.0F, 4.25F / 3.0F, 5.0F / 3.0F,
    3.0F,           1.0F / 2.25F, 1.4746F,     1.54F,        1.6F,         1.06667F,
    0.711111F,      0.740740F,    1.111111F,
};
inline constexpr double kKernelScaleTolerance = 1e-3;

// Options (speed.c, options_chroma[] and options[]): names, aliases,
// defaults, bounds; every one is a feature parameter.
inline constexpr double kDefaultSigmaNn = 0.29;     // DEFAULT_SPEED_SIGMA_NN
inline constexpr double kDefaultMaxVal = 1000.0;    // DEFAULT_SPEED_MAX_VAL
inline constexpr double kDefaultNnFloor = 0.0;      // DEFAULT_SPEED_NN_FLOOR
inline constexpr double kDefaultKernelScale = 1.0;  // DEFAULT_SPEED_KERNELSCALE
inline constexpr double kDefaultPrescale = 1.0;     // DEFAULT_SPEED_PRESCALE
inline constexpr const char* kDefaultPrescaleMethod = "nearest";
inline constexpr int kMaxWeightVarMode = 6;

// speed_chroma: the common options, then speed_weight_var_mode.
std::span<const OptionDef> chroma_option_defs();
// speed_temporal: the common options, then speed_use_ref_diff.
std::span<const OptionDef> temporal_option_defs();

// vif_tools.h, enum vif_scaling_method (the names vif_get_scaling_method()
// accepts).
enum class ScaleMethod { kNearest, kBilinear, kBicubic, kLanczos4 };

// The options of one configuration, as the computation uses them.
struct Params {
  double kernel_scale = kDefaultKernelScale;
  double prescale = kDefaultPrescale;
  ScaleMethod prescale_method = ScaleMethod::kNearest;
  double sigma_nn = kDefaultSigmaNn;
  double nn_floor = kDefaultNnFloor;
  double max_val = kDefaultMaxVal;
  int weight_var_mode = 0;    // speed_chroma only (speed_temporal always uses 0)
  bool use_ref_diff = false;  // speed_temporal only

  // Whether the prescale step runs at all (speed.c, filter_and_downscale()).
  [[nodiscard]] bool rescales() const;
};

// Reads the options shared by both families from a parsed set, checking the
// kernel scale and the scaling method as libvmaf's speed_init() does.
// `family` names the extractor in error messages.
Expected<Params> read_common(const OptionSet& set, const std::string& family);

}  // namespace vqx::speed

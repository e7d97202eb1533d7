// The option tables of speed_chroma and speed_temporal, and their checks.
#include "metrics/speed/params.hpp"

#include <cmath>
#include <utility>

namespace vqx::speed {

namespace {

// speed.c, options_chroma[] / options[]: the six options both families have,
// in the reference's order, then the family's own one.
std::array<OptionDef, 7> with_common_options(OptionDef own) {
  return {{
      {"speed_kernelscale", "ks", OptionValue{kDefaultKernelScale}, 0.1, 4.0, true},
      {"speed_prescale", "ps", OptionValue{kDefaultPrescale}, 0.1, 4.0, true},
      {"speed_prescale_method", "psm", OptionValue{std::string(kDefaultPrescaleMethod)}, 0, 0,
       true},
      {"speed_sigma_nn", "snn", OptionValue{kDefaultSigmaNn}, 0.1, 2.0, true},
      {"speed_nn_floor", "nnf", OptionValue{kDefaultNnFloor}, 0.0, 1.0, true},
      {"speed_max_val", "mxv", OptionValue{kDefaultMaxVal}, 0.0, 1000.0, true},
      std::move(own),
  }};
}

}  // namespace

std::span<const OptionDef> chroma_option_defs() {
  static const std::array<OptionDef, 7> kDefs = with_common_options(
      {"speed_weight_var_mode", "wvm", OptionValue{0}, 0, kMaxWeightVarMode, true});
  return kDefs;
}

std::span<const OptionDef> temporal_option_defs() {
  static const std::array<OptionDef, 7> kDefs =
      with_common_options({"speed_use_ref_diff", "urd", OptionValue{false}, 0, 0, true});
  return kDefs;
}

bool Params::rescales() const { return !(std::fabs(prescale - 1.0) < kPrescaleIdentityTolerance); }

Expected<Params> read_common(const OptionSet& set, const std::string& family) {
  Params p;
  p.kernel_scale = set.get_double("speed_kernelscale");
  p.prescale = set.get_double("speed_prescale");
  p.sigma_nn = set.get_double("speed_sigma_nn");
  p.nn_floor = set.get_double("speed_nn_floor");
  p.max_val = set.get_double("speed_max_val");

  // vif_validate_kernelscale() compares in float.
  const auto ks = static_cast<float>(p.kernel_scale);
  bool valid = false;
  for (const float v : kValidKernelScales) {
    valid = valid || std::fabs(ks - v) < kKernelScaleTolerance;
  }
  if (!valid) {
    return Error(Errc::kInvalidArgument,
                 family + ": option speed_kernelscale=" + format_g(p.kernel_scale) +
                     ": not one of the supported kernel scales (1, 0.5, 1.5, 2, 2/3, 2.4, "
                     "360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, 1/2.25, 1.4746, 1.54, 1.6, "
                     "1.06667, 0.711111, 0.74074, 1.111111)");
  }

  const std::string& method = set.get_string("speed_prescale_method");
  if (method == "nearest") {
    p.prescale_method = ScaleMethod::kNearest;
  } else if (method == "bilinear") {
    p.prescale_method = ScaleMethod::kBilinear;
  } else if (method == "bicubic") {
    p.prescale_method = ScaleMethod::kBicubic;
  } else if (method == "lanczos4") {
    p.prescale_method = ScaleMethod::kLanczos4;
  } else {
    return Error(Errc::kInvalidArgument, family + ": option speed_prescale_method=" + method +
                                             ": expected nearest, bilinear, bicubic or lanczos4");
  }
  return p;
}

}  // namespace vqx::speed

// What this build of the library can compute: every feature extractor the
// registry knows, its options with their defaults and bounds, its outputs,
// and the backends that compute it (what `vqx --list-features` prints).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace vqx {

struct FeatureOptionInfo {
  std::string name;           // as --feature takes it, e.g. "vif_enhn_gain_limit"
  std::string alias;          // in output name suffixes, e.g. "egl"; empty if none
  std::string type;           // "bool", "int", "double" or "string"
  std::string default_value;  // as a user writes it ("100", "false", "")
  // The values accepted, for int and double options.
  std::optional<double> min;
  std::optional<double> max;
  // A value other than the default appends "_<alias>_<value>" to the
  // output names (libvmaf's rule).
  bool renames_outputs = false;
};

struct FeatureOutputInfo {
  std::string name;  // without any option suffix, e.g. "integer_vif_scale0"
  // Bool options that must all be true for the output to be written.
  std::vector<std::string> when;
  bool whole_video = false;  // one value per video (e.g. apsnr_y), not per frame
};

struct FeatureInfo {
  std::string name;  // as --feature takes it, e.g. "vif"
  std::vector<FeatureOptionInfo> options;
  std::vector<FeatureOutputInfo> outputs;
  // "cpu", then "cuda" or "hip" where this build has that GPU backend and
  // the feature a GPU twin there (a device is not needed).
  std::vector<std::string> backends;
  // Whether it sees every frame, in order: "never", "always", or "when
  // <option>" (a bool option that is true, or a string one that is set).
  std::string temporal = "never";
  bool from_libvmaf = true;  // libvmaf has it (ssimulacra2 is VQX's own)
};

// Every feature, in the registry's order.
std::vector<FeatureInfo> list_features();

}  // namespace vqx

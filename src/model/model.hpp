// VMAF models: loading libvmaf's JSON model files (single nu-SVR models and
// bootstrap collections), the --model option syntax, and per-frame
// prediction. Scores reproduce libvmaf's arithmetic step for step:
// normalise features -> (chroma correction) -> nu-SVR/RBF -> denormalise ->
// transform -> clip.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/options.hpp"
#include "model/svm.hpp"
#include "vqx/status.hpp"

namespace vqx {

struct ExtractorFamily;

// One "family.option=value" item of a --model value: sets `option` on every
// feature of the model that the extractor `family` computes (in every model
// of a bootstrap collection). Loading fails if no feature comes from
// `family`; libvmaf silently ignores such an overload.
struct FeatureOverload {
  std::string family;  // libvmaf extractor name, e.g. "vif", "adm", "float_vif"
  std::string option;  // e.g. "vif_enhn_gain_limit"
  std::string value;   // already normalised (see normalize_option_value)
};

// How to load a model (libvmaf's VmafModelConfig plus the CLI's overloads).
struct ModelConfig {
  std::string name = "vmaf";      // output name of the score (libvmaf's default)
  bool disable_clip = false;      // ignore the model's score_clip
  bool enable_transform = false;  // apply a score_transform even if it says "enabled": false
  std::vector<FeatureOverload> overloads;
};

// A parsed --model value: exactly one of version (built-in) and path is set.
struct ModelSpec {
  std::string version;
  std::string path;
  ModelConfig config;

  // Parses a --model value, libvmaf syntax: ':'-separated items, each
  // `version=V`, `path=P`, `name=N`, `disable_clip[=true|false]`,
  // `enable_transform[=true|false]`, or `extractor.option=value`.
  // Stricter than libvmaf (which silently ignores some of these): an item
  // given twice, an empty value, a bool other than true/false, a bare word
  // or `a.b.c`, and version together with path are errors. A value is
  // everything after the first '=' (libvmaf cuts at a second '=').
  static Expected<ModelSpec> parse(std::string_view spec);
};

// libvmaf's normalisation of an option value (dictionary flag
// NORMALIZE_NUMERICAL_VALUES): text that is a number is rounded to float and
// rewritten with "%g" ("1.0" -> "1", "0.0600" -> "0.06"); other text is kept.
std::string normalize_option_value(std::string_view value);

// A feature a model reads, and how libvmaf names it.
struct ModelFeature {
  std::string model_name;  // as in the JSON, e.g. "VMAF_integer_feature_adm2_score"
  std::string extractor;   // libvmaf's extractor for it (= VQX family name), e.g. "adm"
  // The family whose definition provides `model_name` (metrics/registry).
  const ExtractorFamily* family = nullptr;
  std::string base;   // output base name, e.g. "integer_adm2"
  OptionMap options;  // feature_opts_dicts entry merged with the overloads
};

namespace detail {

// The most features one model may read (libvmaf's MAX_FEATURE_COUNT).
inline constexpr std::size_t kMaxFeatures = 64;

struct ScoreTransform {
  bool enabled = false;
  bool has_p0 = false, has_p1 = false, has_p2 = false;
  double p0 = 0, p1 = 0, p2 = 0;
  std::vector<std::pair<double, double>> knots;  // empty: no piecewise-linear step
  bool out_lte_in = false, out_gte_in = false;
};

enum class ModelType { kSvmNuSvr, kBootstrapSvmNuSvr, kResidueBootstrapSvmNuSvr };

// One nu-SVR model (a whole model file, or one member of a collection).
struct SvmModel {
  std::string name;
  ModelType type = ModelType::kSvmNuSvr;
  bool linear_rescale = false;  // norm_type: linear_rescale (true) or none
  double slope = 1, intercept = 0;
  std::vector<double> feature_slope, feature_intercept;
  std::vector<ModelFeature> features;  // this model's own list, JSON order
  std::vector<std::size_t> input;      // features[i] is Model::features()[input[i]]
  bool clip = false;
  double clip_min = 0, clip_max = 0;
  ScoreTransform transform;
  bool chroma_correction = false;
  double chroma_parameter = 0;
  std::size_t chroma_guiding = 0, chroma_guided = 0;  // the "adm3" and "speed_chroma" features
  SvmRegressor svm;

  // The denormalised SVM output, before transform and clip.
  [[nodiscard]] double raw_score(std::span<const double> inputs) const;
  // transform, then clip (each only if enabled).
  [[nodiscard]] double finish(double raw) const;
};

}  // namespace detail

class Model {
 public:
  // Parses a model JSON. `origin` names the source in error messages.
  static Expected<Model> from_json(std::string_view text, std::string_view origin,
                                   const ModelConfig& config = {});
  static Expected<Model> from_file(const std::string& path, const ModelConfig& config = {});
  // A model built into the library, by version ("vmaf_v0.6.1", ...).
  static Expected<Model> builtin(std::string_view version, const ModelConfig& config = {});
  static std::vector<std::string> builtin_versions();  // sorted
  static Expected<Model> load(const ModelSpec& spec);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& origin() const { return origin_; }
  [[nodiscard]] bool is_bootstrap() const { return members_.size() > 1; }

  // The features predict() reads, in this order. For a bootstrap collection
  // it is the union over its models (equal name and options counted once).
  [[nodiscard]] std::span<const ModelFeature> features() const { return features_; }

  // The names predict() writes, in this order: the model name; for a
  // bootstrap collection then <name>_0001.. (one per bootstrap model),
  // <name>_bagging, <name>_stddev, <name>_ci_p95_lo, <name>_ci_p95_hi.
  [[nodiscard]] std::span<const std::string> output_names() const { return output_names_; }

  // Computes one frame: `features` parallel to features(), `out` parallel to
  // output_names(). Only a size mismatch is an error; NaN in gives NaN out.
  Status predict(std::span<const double> features, std::span<double> out) const;

 private:
  std::string name_;
  std::string origin_;
  std::vector<ModelFeature> features_;
  std::vector<std::string> output_names_;
  // members_[0] is the model (or the collection's model "0"); members_[1..]
  // are the bootstrap models "1".."N".
  std::vector<detail::SvmModel> members_;
};

// ModelSpec::parse, then Model::load: a --model value to a loaded model.
Expected<Model> parse_model_spec(std::string_view spec);

}  // namespace vqx

// What a context computes: its extractors (each once, however many features
// and models ask for it) and its models, with the collector metrics their
// values go to. Registration ends when the first frame arrives.
//
// Every output name (per-frame metric, whole-video aggregate, model score)
// has one producer. A registration that would write a name another
// producer writes, with values that may differ, is refused, naming both
// (docs/reliability.md): a model named after a feature or after another
// model's bootstrap outputs would otherwise overwrite them. Two requests of
// one family that differ only in options that select outputs (debug=true)
// share their common names: both are computed, the first registered writes
// those names and the later one's values for them are dropped.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/extractor.hpp"
#include "engine/feature_collector.hpp"
#include "engine/slot_writer.hpp"
#include "model/model.hpp"
#include "vqx/status.hpp"

namespace vqx {

struct RegisteredExtractor {
  ExtractorSpec spec;
  // slot -> collector metric; kNoMetric where an earlier registration of
  // the family writes the name (the values are equal, see the top).
  std::vector<std::size_t> metric_ids;
  std::vector<std::string> aggregate_names;  // aggregate slot -> name; empty: the same
  // Plain extractors: idle instances, at most one per worker (the
  // scheduler's, under its lock once frames run).
  std::vector<std::unique_ptr<Extractor>> idle;
  // Temporal extractors: the single instance.
  std::unique_ptr<Extractor> temporal;
  // Computed by a GPU twin (the pipeline owns it) instead of the instances.
  bool on_gpu = false;
  std::unique_ptr<SlotWriter> gpu_writer;
};

struct RegisteredModel {
  Model model;
  std::vector<std::size_t> feature_ids;  // in model.features() order
  std::vector<std::size_t> output_ids;   // in model.output_names() order (set at prediction)
};

class Registrations {
 public:
  explicit Registrations(FeatureCollector& collector) : collector_(collector) {}

  // A feature by its --feature name ("adm") and options.
  Status add_feature(std::string_view name, const std::map<std::string, std::string>& options);
  // A model by its --model value, with the features it reads. On an error
  // nothing of the model is registered.
  Status add_model(std::string_view model_spec);
  // A name whose values the caller imports (Context::import_feature_score):
  // refused when a registered feature or model writes it, and registered
  // features and models may not write it afterwards. Allowed at any time.
  Status add_import(const std::string& name);
  // The first frame has been set up: later registrations are errors.
  void close() { closed_ = true; }

  // A deque: the scheduler and the GPU pipeline keep pointers into it.
  std::deque<RegisteredExtractor>& extractors() { return extractors_; }
  [[nodiscard]] const std::deque<RegisteredExtractor>& extractors() const { return extractors_; }
  std::vector<RegisteredModel>& models() { return models_; }
  [[nodiscard]] const std::vector<RegisteredModel>& models() const { return models_; }

 private:
  // Who writes an output name.
  struct Producer {
    std::string what;    // "feature psnr=enable_mse=true", "model 'vmaf'"
    std::string key;     // the extractor's key; empty for a model
    std::string family;  // the extractor's family; empty for a model
    OptionSet options;   // the extractor's options
  };
  using Producers = std::map<std::string, Producer, std::less<>>;  // output name -> producer

  // Records `spec`'s outputs and aggregates in `producers`, or returns the
  // error naming the producer one of them already has.
  static Status claim_outputs(Producers& producers, const ExtractorSpec& spec,
                              const std::string& what);
  // The same for a model's outputs.
  static Status claim_outputs(Producers& producers, const Model& model);
  // Adds the extractor unless one with the same key is registered already.
  // Its outputs must have been claimed.
  void add_spec(ExtractorSpec spec);
  Status check_open(const std::string& what) const;

  FeatureCollector& collector_;
  std::deque<RegisteredExtractor> extractors_;
  std::vector<RegisteredModel> models_;
  Producers producers_;
  bool closed_ = false;
};

}  // namespace vqx

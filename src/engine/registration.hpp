// What a context computes: its extractors (each once, however many features
// and models ask for it) and its models, with the collector metrics their
// values go to. Registration ends when the first frame arrives.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
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
  std::vector<std::size_t> metric_ids;       // slot -> collector metric
  std::vector<std::string> aggregate_names;  // aggregate slot -> name
  // Plain extractors: idle instances, one per thread that has needed one.
  std::mutex idle_mutex;
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
  // A model by its --model value, with the features it reads.
  Status add_model(std::string_view model_spec);
  // The first frame has been set up: later registrations are errors.
  void close() { closed_ = true; }

  // A deque: the scheduler and the GPU pipeline keep pointers into it.
  std::deque<RegisteredExtractor>& extractors() { return extractors_; }
  [[nodiscard]] const std::deque<RegisteredExtractor>& extractors() const { return extractors_; }
  std::vector<RegisteredModel>& models() { return models_; }
  [[nodiscard]] const std::vector<RegisteredModel>& models() const { return models_; }

 private:
  // Adds the extractor unless one with the same key is registered already.
  Status add_spec(ExtractorSpec spec);

  FeatureCollector& collector_;
  std::deque<RegisteredExtractor> extractors_;
  std::vector<RegisteredModel> models_;
  bool closed_ = false;
};

}  // namespace vqx

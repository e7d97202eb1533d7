// Where an extractor's or twin's values go: its output slots, routed to the
// collector's metrics, and its whole-video values to the context's list.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/extractor.hpp"
#include "engine/feature_collector.hpp"

namespace vqx {

// Whole-video values (apsnr_y, ...), in the order they were first written.
using Aggregates = std::vector<std::pair<std::string, double>>;

// A slot whose values another registration writes (engine/registration.hpp).
inline constexpr std::size_t kNoMetric = static_cast<std::size_t>(-1);

// Routes an extractor's slots to collector metrics, dropping the slots
// routed to kNoMetric (and aggregate slots without a name). Without an
// aggregate list it drops whole-video values (the per-frame calls write none).
class SlotWriter final : public FeatureWriter {
 public:
  SlotWriter(FeatureCollector& c, const std::vector<std::size_t>& ids,
             const std::vector<std::string>* aggregate_names = nullptr,
             Aggregates* aggregates = nullptr)
      : c_(c), ids_(ids), aggregate_names_(aggregate_names), aggregates_(aggregates) {}
  void write(std::size_t slot, unsigned frame, double value) override {
    if (ids_[slot] != kNoMetric) c_.write(ids_[slot], frame, value);
  }
  void write_aggregate(std::size_t slot, double value) override {
    if (aggregates_ == nullptr) return;
    const std::string& name = (*aggregate_names_)[slot];
    if (name.empty()) return;
    for (auto& [n, v] : *aggregates_) {
      if (n == name) {
        v = value;
        return;
      }
    }
    aggregates_->emplace_back(name, value);
  }

 private:
  FeatureCollector& c_;
  const std::vector<std::size_t>& ids_;
  const std::vector<std::string>* aggregate_names_;
  Aggregates* aggregates_;
};

}  // namespace vqx

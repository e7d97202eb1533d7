// Per-frame feature values by name. Writers on several threads at once.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vqx {

class FeatureCollector {
 public:
  // Adds a metric (or finds it) and returns its id. Not for the hot path.
  std::size_t add_metric(const std::string& name);
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;

  void write(std::size_t metric, unsigned frame, double value);
  // NaN when the frame has no value.
  [[nodiscard]] double get(std::size_t metric, unsigned frame) const;

  [[nodiscard]] std::size_t metric_count() const;
  [[nodiscard]] std::string name(std::size_t metric) const;

 private:
  // Values are kept in blocks of kBlock frames, allocated as frames arrive
  // and never moved: memory grows by exactly 8 bytes per metric and frame,
  // without a growing vector's spare capacity and reallocation copies (a
  // long run stays flat apart from its results; docs/reliability.md).
  static constexpr std::size_t kBlock = 4096;
  using Block = std::unique_ptr<double[]>;

  mutable std::mutex mutex_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::vector<Block>> values_;  // [metric][frame / kBlock][frame % kBlock]
};

}  // namespace vqx

#include "engine/feature_collector.hpp"

#include <algorithm>

namespace vqx {

namespace {
constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();
}

std::size_t FeatureCollector::add_metric(const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = index_.find(name);
  if (it != index_.end()) return it->second;
  names_.push_back(name);
  values_.emplace_back();
  index_.emplace(name, names_.size() - 1);
  return names_.size() - 1;
}

std::optional<std::size_t> FeatureCollector::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  auto it = index_.find(std::string(name));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void FeatureCollector::write(std::size_t metric, unsigned frame, double value) {
  std::lock_guard lock(mutex_);
  auto& blocks = values_[metric];
  const std::size_t b = frame / kBlock;
  if (blocks.size() <= b) blocks.resize(b + 1);
  if (!blocks[b]) {
    blocks[b] = std::make_unique_for_overwrite<double[]>(kBlock);
    std::fill_n(blocks[b].get(), kBlock, kAbsent);
  }
  blocks[b][frame % kBlock] = value;
}

double FeatureCollector::get(std::size_t metric, unsigned frame) const {
  std::lock_guard lock(mutex_);
  const auto& blocks = values_[metric];
  const std::size_t b = frame / kBlock;
  return b < blocks.size() && blocks[b] ? blocks[b][frame % kBlock] : kAbsent;
}

std::size_t FeatureCollector::metric_count() const {
  std::lock_guard lock(mutex_);
  return names_.size();
}

std::string FeatureCollector::name(std::size_t metric) const {
  std::lock_guard lock(mutex_);
  return names_[metric];
}

}  // namespace vqx

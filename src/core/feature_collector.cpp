#include "core/feature_collector.hpp"

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
  auto& v = values_[metric];
  if (v.size() <= frame) v.resize(std::size_t{frame} + 1, kAbsent);
  v[frame] = value;
}

double FeatureCollector::get(std::size_t metric, unsigned frame) const {
  std::lock_guard lock(mutex_);
  const auto& v = values_[metric];
  return frame < v.size() ? v[frame] : kAbsent;
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

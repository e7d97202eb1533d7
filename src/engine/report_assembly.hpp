// Report assembly: what Context::write_output hands the writers. Which
// frames and metrics are listed, their pooled values, the aggregates and,
// with a GPU, what computed each metric.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/feature_collector.hpp"
#include "engine/slot_writer.hpp"
#include "output/report.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

struct ReportSource {
  const FeatureCollector& collector;
  std::vector<unsigned> frames;  // the reported (sampled) frames, ascending
  const Aggregates& aggregates;
  std::optional<PictureFormat> format;  // unset when no frame was set up
  // Empty: no GPU in use (and no backends are listed). Else the device's
  // description, and where each metric was computed.
  std::string device;
  std::function<Expected<std::string>(std::string_view)> backend_of;
};

// Fills `report` (a fresh one). Its metrics read their values from the
// collector through report.frame_numbers, so `report` must stay where it is
// while it is written, and the collector must outlive it.
void assemble_report(const ReportSource& source, int precision, double fps, Report& report);

}  // namespace vqx

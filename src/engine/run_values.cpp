// write_run_values(): a Report built from copied values, as
// assemble_report() builds one from a context (engine/report_assembly.cpp),
// so that both write the same bytes; the Python tests hold them to it.
#include "vqx/run_values.hpp"

#include <cmath>

#include "engine/pooling.hpp"
#include "output/atomic_file.hpp"
#include "output/report.hpp"
#include "output/writers.hpp"

namespace vqx {

namespace {

std::vector<double> present(const std::vector<double>& values) {
  std::vector<double> out;
  for (double v : values) {
    if (!std::isnan(v)) out.push_back(v);
  }
  return out;
}

Expected<Report> report_of(const RunValues& v, int precision, double fps) {
  Report report;
  report.version = v.version;
  report.width = v.width;
  report.height = v.height;
  report.fps = fps;
  report.precision = precision;
  report.frame_numbers = v.frames;
  for (const RunMetric& m : v.metrics) {
    if (m.values.size() != v.frames.size()) {
      return Error(Errc::kInvalidArgument, "metric \"" + m.name + "\" has " +
                                               std::to_string(m.values.size()) + " values for " +
                                               std::to_string(v.frames.size()) + " frames");
    }
    const std::vector<double> kept = present(m.values);
    if (kept.empty()) continue;  // as assemble_report: never valued, not listed
    const PooledStats p = pool(kept);
    report.pooled.push_back({m.name, ReportPooled{p.min, p.max, p.mean, p.harmonic_mean}});
    report.metrics.push_back({m.name, m.values});
  }
  report.aggregate = v.aggregates;
  if (!v.gpu_device.empty()) {
    report.device = v.gpu_device;
    for (const RunMetric& m : v.metrics) {
      if (!present(m.values).empty()) report.backends.emplace_back(m.name, m.backend);
    }
  }
  ReportSettings settings;
  settings.version = v.version;
  settings.backend = v.settings_backend;
  settings.device = v.settings_device;
  settings.subsample = v.subsample;
  settings.models = v.models;
  settings.features = v.features;
  report.settings = std::move(settings);
  return report;
}

}  // namespace

PooledValues pool_values(std::span<const double> values) {
  std::vector<double> kept;
  for (double v : values) {
    if (!std::isnan(v)) kept.push_back(v);
  }
  const PooledStats p = pool(kept);
  return {p.min, p.max, p.mean, p.harmonic_mean};
}

Status write_run_values(const RunValues& values, const std::string& path, OutputFormat format,
                        int precision, double fps, const std::shared_ptr<OutputFiles>& files) {
  VQX_ASSIGN_OR_RETURN(const Report report, report_of(values, precision, fps));
  VQX_RETURN_IF_ERROR(validate_report(report));
  const std::shared_ptr<OutputFiles> set = files ? files : std::make_shared<OutputFiles>();
  return write_file_atomically(
      *set, path, [&](std::ostream& out) { return write_report(report, format, out); });
}

}  // namespace vqx

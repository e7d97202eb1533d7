#include "output/html/run_set.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace vqx::html {

namespace {

bool has_metric(const RunFile& r, const std::string& name) {
  return std::any_of(r.report.metrics.begin(), r.report.metrics.end(),
                     [&](const ReportMetric& m) { return m.name == name; });
}

std::set<std::string> metric_set(const RunFile& r) {
  std::set<std::string> names;
  for (const ReportMetric& m : r.report.metrics) names.insert(m.name);
  return names;
}

// Every run has the first run's metrics and no other.
Status check_same_metrics(const std::vector<RunFile>& runs) {
  const std::set<std::string> first = metric_set(runs.front());
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const std::set<std::string> these = metric_set(runs[i]);
    if (these == first) continue;
    const std::string& path = runs[i].path;
    const std::string& first_path = runs.front().path;
    // The first name missing, in the file's order.
    for (const ReportMetric& m : runs.front().report.metrics) {
      const std::string& name = m.name;
      if (these.count(name) == 0) {
        return Error(Errc::kMismatch, path + ": has no metric \"" + name + "\", which " +
                                          first_path +
                                          " has (the runs must have the same metrics, or "
                                          "choose metrics that every run has)");
      }
    }
    for (const ReportMetric& m : runs[i].report.metrics) {
      const std::string& name = m.name;
      if (first.count(name) == 0) {
        return Error(Errc::kMismatch, path + ": has a metric \"" + name + "\", which " +
                                          first_path +
                                          " has not (the runs must have the same metrics, or "
                                          "choose metrics that every run has)");
      }
    }
  }
  return Status::Ok();
}

// The first model score (the settings name the models), else the first
// metric named like one of libvmaf's models, else the first metric.
std::string default_main_metric(const RunFile& first, const std::vector<std::string>& metrics) {
  if (first.report.settings) {
    for (const auto& [name, origin] : first.report.settings->models) {
      if (std::find(metrics.begin(), metrics.end(), name) != metrics.end()) return name;
    }
  }
  for (const std::string& m : metrics) {
    if (m.rfind("vmaf", 0) == 0) return m;
  }
  return metrics.front();
}

}  // namespace

const std::vector<double>& values_of(const RunFile& r, const std::string& metric) {
  static const std::vector<double> kNone;
  for (const ReportMetric& m : r.report.metrics) {
    if (m.name == metric) return m.values;
  }
  return kNone;
}

Expected<RunSet> read_run_set(const std::vector<std::string>& paths,
                              const HtmlReportOptions& options) {
  if (paths.empty()) return Error(Errc::kInvalidArgument, "no JSON files to report on");
  RunSet set;
  for (const std::string& path : paths) {
    VQX_ASSIGN_OR_RETURN(RunFile run, read_run_file(path));
    set.runs.push_back(std::move(run));
  }
  if (options.metrics.empty()) {
    VQX_RETURN_IF_ERROR(check_same_metrics(set.runs));
    for (const ReportMetric& m : set.runs.front().report.metrics) set.metrics.push_back(m.name);
    if (set.metrics.empty()) {
      return Error(Errc::kParse, set.runs.front().path + ": its frames hold no metrics");
    }
    set.main_metric = default_main_metric(set.runs.front(), set.metrics);
  } else {
    for (const std::string& name : options.metrics) {
      if (std::find(set.metrics.begin(), set.metrics.end(), name) != set.metrics.end()) continue;
      for (const RunFile& r : set.runs) {
        if (!has_metric(r, name)) {
          return Error(Errc::kInvalidArgument, r.path + ": has no metric \"" + name + "\"");
        }
      }
      set.metrics.push_back(name);
    }
    set.main_metric = set.metrics.front();
  }
  // Legends name each run by its file name, unless two share one.
  std::set<std::string> names;
  bool repeated = false;
  for (const RunFile& r : set.runs) {
    repeated |= !names.insert(std::filesystem::path(r.path).filename().string()).second;
  }
  for (const RunFile& r : set.runs) {
    set.labels.push_back(repeated ? r.path : std::filesystem::path(r.path).filename().string());
  }
  return set;
}

}  // namespace vqx::html

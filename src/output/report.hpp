// Report: everything VQX's output writers (XML, JSON, CSV, SUB) print about a
// run. The writers only format what they are given; choosing which frames and
// metrics to report, naming them and pooling them happens before.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vqx/vqx.hpp"  // OutputFormat, kPrecisionDefault, kPrecisionMax

namespace vqx {

// Report::precision values besides 0..16 decimals: kPrecisionMax ("%.17g",
// round-trips a double) and this, libvmaf's own rule (number_format.hpp).
inline constexpr int kPrecisionReference = kPrecisionDefault;

// A metric pooled over the reported frames.
// (Same fields as vqx::PooledStats in src/engine/pooling.hpp, which output
// does not include: the engine sits above it and fills this in.)
struct ReportPooled {
  double min = 0;
  double max = 0;
  double mean = 0;
  double harmonic_mean = 0;
};

struct ReportPooledMetric {
  std::string name;
  // nullopt: the metric could not be pooled (libvmaf fails to pool a metric
  // that is missing on some frame); written as an empty element / object.
  std::optional<ReportPooled> stats;
};

struct ReportMetric {
  std::string name;  // as printed (already aliased, with any option suffix)
  // One value per entry of Report::frame_numbers. NaN means the metric has no
  // value for that frame, and the writers leave it out. (So a metric cannot
  // report a NaN value; libvmaf would print one as "nan" or JSON null.)
  std::vector<double> values;
  // Instead of `values`, when set: the value on reported frame i, read from
  // storage that outlives the report (the context's results), so that
  // writing the output of a long run does not copy every value.
  std::function<double(std::size_t)> value_at = {};

  // What writers read: value_at(i) when set, else values[i].
  [[nodiscard]] double value(std::size_t i) const { return value_at ? value_at(i) : values[i]; }
};

// How the run was made, as VQX's JSON records it under "settings" (the
// reference writes no such key; `vqx report` shows it). Not written when
// unset, so a Report rebuilt from the reference's JSON writes its bytes.
struct ReportSettings {
  std::string program = "vqx";
  std::string version;  // VQX's version
  std::string backend;  // "cpu", "cuda" or "hip": where the GPU twins ran
  std::string device;   // e.g. "cpu", "cuda:0 NVIDIA H200, ..."
  // (No thread count: the outputs do not depend on it, and a run's output
  // stays the same bytes whatever --threads was.)
  unsigned subsample = 1;
  // Each model's name (its score's) and where it came from ("built-in
  // model vmaf_v0.6.1", a file's path).
  std::vector<std::pair<std::string, std::string>> models;
  // Each extractor computed, as --feature takes it: the family and the
  // options that differ from the defaults ("adm=debug=true").
  std::vector<std::string> features;
};

struct Report {
  std::string version;  // printed as the VMAF version
  unsigned width = 0;   // XML <params qualityWidth=...>
  unsigned height = 0;  // XML <params qualityHeight=...>
  double fps = 0;       // XML <fyi fps=...>, JSON "fps"; always "%.2f"
  // frameNum of each reported frame, ascending (subsampling leaves gaps). A
  // frame on which every metric is absent is not written (as in libvmaf).
  std::vector<unsigned> frame_numbers;
  std::vector<ReportMetric> metrics;                      // per-frame metrics, in output order
  std::vector<ReportPooledMetric> pooled;                 // in output order (XML, JSON only)
  std::vector<std::pair<std::string, double>> aggregate;  // e.g. apsnr_y (XML, JSON only)
  // kPrecisionReference, 0..16 decimals ("%.Nf"), or kPrecisionMax ("%.17g").
  // Applies to metric, pooled and aggregate values; never to fps.
  int precision = kPrecisionReference;
  // What computed each metric ("cpu", "cuda", "hip") and the device, when a
  // GPU backend was in use (XML <backend>, JSON "backend"; docs/gpu.md).
  // Empty: everything ran on the CPU, and nothing is written.
  std::string device;
  std::vector<std::pair<std::string, std::string>> backends;
  std::optional<ReportSettings> settings;  // JSON "settings"; unset: not written
};

}  // namespace vqx

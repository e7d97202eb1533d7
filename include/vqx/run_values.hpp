// A scored run's values apart from its context: everything
// Context::write_output() writes (per-frame values, aggregates, the device,
// the "settings"), copied out once, so that the run can travel (a Python
// result pickled to another process, segments of one video scored apart and
// merged) and still be written with the same bytes as write_output().
//
//   vqx::RunValues v = ctx->run_values().value();   // after flush()
//   vqx::write_run_values(v, "out.xml", vqx::OutputFormat::kXml);
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vqx/output_files.hpp"
#include "vqx/status.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

struct RunMetric {
  std::string name;
  // One per entry of RunValues::frames; NaN where the metric has no value.
  std::vector<double> values;
  std::string backend;  // "cpu", "cuda", "hip" or "imported"
};

struct RunValues {
  std::string version;  // VQX's, as the reports print it
  unsigned width = 0;   // the pictures' size (0 when no frame was read)
  unsigned height = 0;
  std::vector<unsigned> frames;  // the reported frame numbers, ascending
  // Those with a value on some reported frame, in output order.
  std::vector<RunMetric> metrics;
  std::vector<std::pair<std::string, double>> aggregates;
  // The GPU in use; empty when everything ran on the CPU (the reports then
  // list no backends).
  std::string gpu_device;
  // The JSON's "settings" (docs/report.md): where the GPU twins ran
  // ("cpu" without a GPU), the device ("cpu" or the GPU's description), the
  // subsampling, each model's name and origin, each extractor's request.
  std::string settings_backend;
  std::string settings_device;
  unsigned subsample = 1;
  std::vector<std::pair<std::string, std::string>> models;
  std::vector<std::string> features;
};

// A metric pooled as the reports pool it (libvmaf's
// vmaf_feature_score_pooled): over the values that are not NaN, in order.
struct PooledValues {
  double min = 0;
  double max = 0;
  double mean = 0;
  double harmonic_mean = 0;
};
// NaN in every field when no value is present.
PooledValues pool_values(std::span<const double> values);

// Writes `values` as Context::write_output() writes its run (the same
// bytes for the same values, precision and fps), the file appearing only
// when complete. `files`: the set the file belongs to (null: its own).
Status write_run_values(const RunValues& values, const std::string& path, OutputFormat format,
                        int precision = kPrecisionDefault, double fps = 0,
                        const std::shared_ptr<OutputFiles>& files = nullptr);

}  // namespace vqx

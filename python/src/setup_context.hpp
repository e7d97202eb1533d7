// What both ways of scoring share: a context with the caller's models and
// features registered, and the per-frame and pooled values read back from
// a flushed context.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vqx/vqx.hpp"

namespace vqx::python {

// Models as the CLI's --model takes them, features as its --feature; a
// failure names the model or feature ("model version=x: ...").
std::unique_ptr<Context> make_context(const ContextSettings& settings,
                                      const std::vector<std::string>& models,
                                      const std::vector<std::string>& features);

struct MetricSeries {
  std::string name;
  std::vector<double> values;  // one per reported frame; NaN where it has none
  double min = 0, max = 0, mean = 0, harmonic_mean = 0;
  std::string backend;  // "cpu", "cuda" or "hip"
};

// Everything a scored run has to tell, copied out of the context once.
struct RunResults {
  std::vector<unsigned> frames;       // the reported frame numbers (every subsample-th)
  std::vector<MetricSeries> metrics;  // those with a value on some frame, in output order
  std::vector<std::pair<std::string, double>> aggregates;
  std::vector<std::string> models;
  std::string device;
  double fps = 0;  // frames scored per second of the run (the reports' fps)
};

// From a context whose flush() succeeded; `subsample` as it was created with.
RunResults collect_results(const Context& ctx, unsigned subsample, double fps);

}  // namespace vqx::python

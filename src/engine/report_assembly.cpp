#include "engine/report_assembly.hpp"

#include <cmath>
#include <utility>

#include "engine/pooling.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

void assemble_report(const ReportSource& source, int precision, double fps, Report& report) {
  const FeatureCollector& collector = source.collector;
  report.version = version();
  report.fps = fps;
  report.precision = precision;
  if (source.format) {
    report.width = source.format->width;
    report.height = source.format->height;
  }
  report.frame_numbers = source.frames;
  for (std::size_t m = 0; m < collector.metric_count(); ++m) {
    // The writers read the values from the collector: no copy of every value
    // of a long run (docs/reliability.md, the soak test).
    ReportMetric metric{
        collector.name(m), {}, [&collector, m, &frames = report.frame_numbers](std::size_t i) {
          return collector.get(m, frames[i]);
        }};
    std::vector<double> present;
    for (unsigned i : report.frame_numbers) {
      const double v = collector.get(m, i);
      if (!std::isnan(v)) present.push_back(v);
    }
    // A declared output that never got a value is not listed at all, as the
    // reference does not list it.
    if (present.empty()) continue;
    const PooledStats p = pool(present);
    report.pooled.push_back({metric.name, ReportPooled{p.min, p.max, p.mean, p.harmonic_mean}});
    report.metrics.push_back(std::move(metric));
  }
  report.aggregate = source.aggregates;
  if (!source.device.empty()) {
    report.device = source.device;
    for (const auto& m : report.metrics) {
      auto b = source.backend_of(m.name);
      report.backends.emplace_back(m.name, b.ok() ? *b : std::string("cpu"));
    }
  }
}

}  // namespace vqx

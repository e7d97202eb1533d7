#include "setup_context.hpp"

#include <cmath>
#include <limits>

#include "errors.hpp"
#include "vqx/run_checks.hpp"

namespace vqx::python {

std::unique_ptr<Context> make_context(const ContextSettings& settings,
                                      const std::vector<std::string>& models,
                                      const std::vector<std::string>& features) {
  if (models.empty() && features.empty()) {
    throw Failure(Error(Errc::kInvalidArgument, "nothing to compute: give a model or a feature"));
  }
  // The library's, as the CLI's: the messages say "model X: ...".
  return take(create_context(settings, models, features, RunCheckNames{}));
}

RunResults collect_results(const Context& ctx, unsigned subsample, double fps) {
  RunResults r;
  r.fps = fps;
  // The frames the reports list: every subsample-th (ContextSettings).
  for (unsigned i = 0; i < ctx.frame_count(); ++i) {
    if (subsample <= 1 || i % subsample == 0) r.frames.push_back(i);
  }
  for (const auto& name : ctx.metric_names()) {
    MetricSeries m;
    m.name = name;
    bool any = false;
    for (unsigned i : r.frames) {
      // score_at_index() fails where the metric has no value on the frame.
      auto v = ctx.score_at_index(name, i);
      m.values.push_back(v.ok() ? *v : std::numeric_limits<double>::quiet_NaN());
      any = any || v.ok();
    }
    // As in the reports: an output that never got a value is not listed.
    if (!any) continue;
    m.min = take(ctx.pooled_score(name, PoolMethod::kMin));
    m.max = take(ctx.pooled_score(name, PoolMethod::kMax));
    m.mean = take(ctx.pooled_score(name, PoolMethod::kMean));
    m.harmonic_mean = take(ctx.pooled_score(name, PoolMethod::kHarmonicMean));
    m.backend = take(ctx.metric_backend(name));
    r.metrics.push_back(std::move(m));
  }
  for (const auto& name : ctx.aggregate_names()) {
    r.aggregates.emplace_back(name, take(ctx.aggregate_score(name)));
  }
  r.models = ctx.model_names();
  r.device = ctx.device_description();
  return r;
}

}  // namespace vqx::python

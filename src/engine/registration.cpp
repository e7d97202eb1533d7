#include "engine/registration.hpp"

#include <utility>

#include "metrics/registry.hpp"

namespace vqx {

Status Registrations::add_spec(ExtractorSpec spec) {
  if (closed_) {
    return Error(Errc::kInvalidArgument,
                 "features must be registered before the first frame (" + spec.family + ")");
  }
  for (const auto& r : extractors_) {
    if (r.spec.key == spec.key) return Status::Ok();
  }
  RegisteredExtractor& r = extractors_.emplace_back();
  for (const auto& out : spec.outputs) r.metric_ids.push_back(collector_.add_metric(out.name));
  for (const auto& agg : spec.aggregates) r.aggregate_names.push_back(agg.name);
  r.spec = std::move(spec);
  return Status::Ok();
}

Status Registrations::add_feature(std::string_view name,
                                  const std::map<std::string, std::string>& options) {
  const ExtractorFamily* family = find_family(name);
  if (family == nullptr) {
    return Error(Errc::kInvalidArgument, "unknown feature '" + std::string(name) + "'");
  }
  VQX_ASSIGN_OR_RETURN(ExtractorSpec spec, family->make_spec(options));
  return add_spec(std::move(spec));
}

Status Registrations::add_model(std::string_view model_spec) {
  VQX_ASSIGN_OR_RETURN(Model model, parse_model_spec(model_spec));
  for (const auto& m : models_) {
    if (m.model.name() == model.name()) {
      return Error(Errc::kInvalidArgument,
                   "two models are named '" + model.name() + "'; set name=... to tell them apart");
    }
  }
  RegisteredModel entry{std::move(model), {}, {}};
  for (const ModelFeature& f : entry.model.features()) {
    VQX_ASSIGN_OR_RETURN(ExtractorSpec spec, f.family->make_spec(f.options));
    std::string metric;
    for (const auto& out : spec.outputs) {
      if (out.base == f.base) metric = out.name;
    }
    if (metric.empty()) {  // a debug output, and the model does not set debug=true
      return Error(Errc::kUnsupported, "model '" + entry.model.name() + "' needs feature '" +
                                           f.model_name + "', which " + spec.family +
                                           " does not write with the options the model gives it");
    }
    VQX_RETURN_IF_ERROR(add_spec(std::move(spec)));
    entry.feature_ids.push_back(collector_.add_metric(metric));
  }
  models_.push_back(std::move(entry));
  return Status::Ok();
}

}  // namespace vqx

#include "engine/registration.hpp"

#include <utility>

#include "metrics/registry.hpp"

namespace vqx {

namespace {

// The advice that ends a clash message: what the user can change.
std::string clash_advice(const std::string& a, const std::string& b) {
  const bool model = a.rfind("model ", 0) == 0 || b.rfind("model ", 0) == 0;
  return model ? "give the model another name (name=...)"
               : "ask for one of them, or for options that give distinct names";
}

Status clash(const std::string& name, const std::string& first, const std::string& second,
             const std::string& why = "") {
  return Error(Errc::kInvalidArgument,
               second + " would write '" + name + "', which " + first + " writes" + why +
                   ": each output name has one producer; " + clash_advice(first, second));
}

// Why two requests of one family cannot share a name: the options they
// differ in that may change values ("" when there are none).
std::string value_differences(const OptionSet& a, const OptionSet& b) {
  std::string names;
  for (const OptionDef* d : a.differences(b)) {
    if (d->selects_outputs) continue;
    names += (names.empty() ? "" : ", ") + std::string(d->name);
  }
  return names;
}

}  // namespace

Status Registrations::check_open(const std::string& what) const {
  if (!closed_) return Status::Ok();
  return Error(Errc::kInvalidArgument,
               "features must be registered before the first frame (" + what + ")");
}

Status Registrations::claim_outputs(Producers& producers, const ExtractorSpec& spec,
                                    const std::string& what) {
  auto claim = [&](const std::string& name) -> Status {
    auto [it, added] =
        producers.try_emplace(name, Producer{what, spec.key, spec.family, spec.options});
    const Producer& owner = it->second;
    if (added || owner.key == spec.key) return Status::Ok();  // new, or this very extractor
    if (owner.family != spec.family)
      return clash(name, owner.what, what);  // a model's, or another family's
    const std::string differ = value_differences(spec.options, owner.options);
    if (differ.empty()) return Status::Ok();  // equal values: the owner writes them
    return clash(name, owner.what, what, " with other values (they differ in " + differ + ")");
  };
  for (const auto& out : spec.outputs) VQX_RETURN_IF_ERROR(claim(out.name));
  for (const auto& agg : spec.aggregates) VQX_RETURN_IF_ERROR(claim(agg.name));
  return Status::Ok();
}

Status Registrations::claim_outputs(Producers& producers, const Model& model) {
  const std::string what = "model '" + model.name() + "'";
  for (const std::string& name : model.output_names()) {
    auto [it, added] = producers.try_emplace(name, Producer{what, "", "", OptionSet()});
    if (!added) return clash(name, it->second.what, what);
  }
  return Status::Ok();
}

void Registrations::add_spec(ExtractorSpec spec) {
  for (const auto& r : extractors_) {
    if (r.spec.key == spec.key) return;
  }
  // The names an earlier registration of the family writes stay its own.
  auto owned = [&](const std::string& name) { return producers_.at(name).key == spec.key; };
  RegisteredExtractor& r = extractors_.emplace_back();
  for (const auto& out : spec.outputs) {
    r.metric_ids.push_back(owned(out.name) ? collector_.add_metric(out.name) : kNoMetric);
  }
  for (const auto& agg : spec.aggregates) {
    r.aggregate_names.push_back(owned(agg.name) ? agg.name : std::string());
  }
  r.spec = std::move(spec);
}

Status Registrations::add_feature(std::string_view name,
                                  const std::map<std::string, std::string>& options) {
  const ExtractorFamily* family = find_family(name);
  if (family == nullptr) {
    return Error(Errc::kInvalidArgument, "unknown feature '" + std::string(name) + "'");
  }
  VQX_ASSIGN_OR_RETURN(ExtractorSpec spec, family->make_spec(options));
  const std::string what = "feature " + spec.request;
  VQX_RETURN_IF_ERROR(check_open(spec.family));
  Producers claimed = producers_;
  VQX_RETURN_IF_ERROR(claim_outputs(claimed, spec, what));
  producers_ = std::move(claimed);
  add_spec(std::move(spec));
  return Status::Ok();
}

Status Registrations::add_import(const std::string& name) {
  static const std::string kImported = "imported scores";
  auto [it, added] = producers_.try_emplace(name, Producer{kImported, kImported, "", OptionSet()});
  if (added || it->second.key == kImported) return Status::Ok();
  return Error(Errc::kInvalidArgument, "cannot import scores of '" + name + "': " +
                                           it->second.what + " of this context writes it");
}

Status Registrations::add_model(std::string_view model_spec) {
  VQX_ASSIGN_OR_RETURN(Model model, parse_model_spec(model_spec));
  for (const auto& m : models_) {
    if (m.model.name() == model.name()) {
      return Error(Errc::kInvalidArgument,
                   "two models are named '" + model.name() + "'; set name=... to tell them apart");
    }
  }
  // Everything is checked before anything is registered.
  const std::string of_model = " (model '" + model.name() + "')";
  std::vector<ExtractorSpec> specs;
  std::vector<std::string> metrics;  // in model.features() order
  Producers claimed = producers_;
  for (const ModelFeature& f : model.features()) {
    VQX_ASSIGN_OR_RETURN(ExtractorSpec spec, f.family->make_spec(f.options));
    std::string metric;
    for (const auto& out : spec.outputs) {
      if (out.base == f.base) metric = out.name;
    }
    if (metric.empty()) {  // a debug output, and the model does not set debug=true
      return Error(Errc::kUnsupported, "model '" + model.name() + "' needs feature '" +
                                           f.model_name + "', which " + spec.family +
                                           " does not write with the options the model gives it");
    }
    VQX_RETURN_IF_ERROR(check_open(spec.family));
    const std::string what = "feature " + spec.request + of_model;
    VQX_RETURN_IF_ERROR(claim_outputs(claimed, spec, what));
    metrics.push_back(std::move(metric));
    specs.push_back(std::move(spec));
  }
  VQX_RETURN_IF_ERROR(claim_outputs(claimed, model));

  producers_ = std::move(claimed);
  for (auto& spec : specs) add_spec(std::move(spec));
  RegisteredModel entry{std::move(model), {}, {}};
  for (const std::string& metric : metrics) {
    entry.feature_ids.push_back(collector_.add_metric(metric));
  }
  models_.push_back(std::move(entry));
  return Status::Ok();
}

}  // namespace vqx

#include "engine/prediction.hpp"

#include <cmath>
#include <string>

namespace vqx {

Status predict_models(std::vector<RegisteredModel>& models, FeatureCollector& collector,
                      const std::vector<unsigned>& frames) {
  for (auto& m : models) {
    for (const auto& name : m.model.output_names()) {
      m.output_ids.push_back(collector.add_metric(name));
    }
    std::vector<double> in(m.feature_ids.size());
    std::vector<double> out(m.output_ids.size());
    for (unsigned i : frames) {
      for (std::size_t k = 0; k < in.size(); ++k) {
        in[k] = collector.get(m.feature_ids[k], i);
        if (std::isnan(in[k])) {
          return Error(Errc::kInternal, "model '" + m.model.name() + "': feature " +
                                            collector.name(m.feature_ids[k]) +
                                            " is missing at frame " + std::to_string(i));
        }
      }
      VQX_RETURN_IF_ERROR(m.model.predict(in, out));
      for (std::size_t k = 0; k < out.size(); ++k) collector.write(m.output_ids[k], i, out[k]);
    }
  }
  return Status::Ok();
}

}  // namespace vqx

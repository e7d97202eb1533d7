// Model prediction: at flush, every model's scores for every reported frame,
// from the feature values in the collector, written back to it.
#pragma once

#include <vector>

#include "engine/feature_collector.hpp"
#include "engine/registration.hpp"
#include "vqx/status.hpp"

namespace vqx {

// Adds each model's outputs as metrics and computes them on `frames` (in
// that order). A feature missing on one of them is an error naming the
// model, the feature and the frame.
Status predict_models(std::vector<RegisteredModel>& models, FeatureCollector& collector,
                      const std::vector<unsigned>& frames);

}  // namespace vqx

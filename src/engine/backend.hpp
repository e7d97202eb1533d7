// Backend choice: which device computes what. The context opens the GPU
// pipeline its settings ask for (or none), and at the first frame each
// registered extractor goes to its GPU twin, when there is a pipeline and
// the family has a twin, or to a CPU instance.
#pragma once

#include <deque>
#include <memory>

#include "engine/feature_collector.hpp"
#include "engine/registration.hpp"
#include "engine/slot_writer.hpp"
#include "gpu/pipeline.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

// The GPU pipeline the settings ask for, or null for the CPU. A named
// backend that this build lacks, or whose device is missing, is an error.
Expected<std::unique_ptr<gpu::Pipeline>> open_backend(const ContextSettings& settings);

// Sets every registered extractor up for pictures of `fmt`: its twin is
// added to `gpu` (when not null) if it has one, else a CPU instance is made
// in `env` (the context's) and initialised. The twins' values go to
// `collector` and `aggregates`.
Status init_extractors(std::deque<RegisteredExtractor>& extractors, gpu::Pipeline* gpu,
                       const ExtractorEnv& env, FeatureCollector& collector, Aggregates& aggregates,
                       const PictureFormat& fmt);

}  // namespace vqx

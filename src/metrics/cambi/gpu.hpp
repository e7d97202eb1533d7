// CAMBI's GPU twin (gpu.cu; built with a GPU backend only). It writes the
// heatmaps, when asked, from the device's contrast values, into the
// context's set of output files (env.output_files), as the CPU twin does.
#pragma once

#include <memory>

#include "core/extractor.hpp"
#include "gpu/twin.hpp"
#include "metrics/cambi/params.hpp"

namespace vqx::cambi {

std::unique_ptr<gpu::Twin> make_twin(const Params& params, const ExtractorEnv& env);

}  // namespace vqx::cambi

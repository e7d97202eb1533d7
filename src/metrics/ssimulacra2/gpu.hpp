// ssimulacra2's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/ssimulacra2/params.hpp"

namespace vqx::ssimulacra2 {

std::unique_ptr<gpu::Twin> make_twin(const Params& params);

}  // namespace vqx::ssimulacra2

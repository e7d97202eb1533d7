// Integer VIF's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/vif/cpu.hpp"

namespace vqx::vif {

std::unique_ptr<gpu::Twin> make_twin(const Config& config);

}  // namespace vqx::vif

// Integer VIF's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <functional>
#include <memory>

#include "gpu/twin.hpp"
#include "metrics/vif/cpu.hpp"

namespace vqx::vif {

std::function<std::unique_ptr<gpu::Twin>()> twin_factory(const KernelParams& params, bool debug);

}  // namespace vqx::vif

// float_vif's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/float_vif/geometry.hpp"

namespace vqx::float_vif {

std::unique_ptr<gpu::Twin> make_twin(const Config& config);

}  // namespace vqx::float_vif

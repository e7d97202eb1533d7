// Integer motion's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/motion/params.hpp"

namespace vqx::motion {

std::unique_ptr<gpu::Twin> make_twin(const Params& params);

}  // namespace vqx::motion

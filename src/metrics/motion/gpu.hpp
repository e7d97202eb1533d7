// Integer motion's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <functional>
#include <memory>

#include "gpu/twin.hpp"
#include "metrics/motion/params.hpp"

namespace vqx::motion {

std::function<std::unique_ptr<gpu::Twin>()> twin_factory(const Params& params);

}  // namespace vqx::motion

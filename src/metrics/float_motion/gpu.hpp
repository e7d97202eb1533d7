// float_motion's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/float_motion/params.hpp"

namespace vqx::float_motion {

std::unique_ptr<gpu::Twin> make_twin(const Params& params);

}  // namespace vqx::float_motion

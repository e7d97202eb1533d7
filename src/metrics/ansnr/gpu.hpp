// float_ansnr's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"

namespace vqx::ansnr {

std::unique_ptr<gpu::Twin> make_twin();

}  // namespace vqx::ansnr

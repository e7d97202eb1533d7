// Integer SSIM's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"

namespace vqx::integer_ssim {

std::unique_ptr<gpu::Twin> make_twin();

}  // namespace vqx::integer_ssim

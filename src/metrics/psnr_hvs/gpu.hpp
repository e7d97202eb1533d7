// psnr_hvs's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"

namespace vqx::psnr_hvs {

std::unique_ptr<gpu::Twin> make_twin();

}  // namespace vqx::psnr_hvs

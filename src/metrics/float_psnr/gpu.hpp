// float_psnr's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <functional>
#include <memory>

#include "gpu/twin.hpp"

namespace vqx::float_psnr {

std::function<std::unique_ptr<gpu::Twin>()> twin_factory();

}  // namespace vqx::float_psnr

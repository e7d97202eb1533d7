// Integer PSNR's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <functional>
#include <memory>

#include "gpu/twin.hpp"
#include "metrics/psnr/params.hpp"

namespace vqx::psnr {

std::function<std::unique_ptr<gpu::Twin>()> twin_factory(const Params& params);

}  // namespace vqx::psnr

// Integer PSNR's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/psnr/params.hpp"

namespace vqx::psnr {

std::unique_ptr<gpu::Twin> make_twin(const Params& params);

}  // namespace vqx::psnr

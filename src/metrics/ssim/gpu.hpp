// float_ssim's and float_ms_ssim's GPU twins (ssim_gpu.cu, ms_ssim_gpu.cu;
// built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/ssim/config.hpp"

namespace vqx::ssim {

std::unique_ptr<gpu::Twin> make_ssim_twin(const SsimConfig& config);
std::unique_ptr<gpu::Twin> make_ms_ssim_twin(const MsSsimConfig& config);

}  // namespace vqx::ssim

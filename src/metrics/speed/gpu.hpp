// speed_chroma's and speed_temporal's GPU twins (chroma_gpu.cu,
// temporal_gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/speed/params.hpp"

namespace vqx::speed {

std::unique_ptr<gpu::Twin> make_chroma_twin(const Params& params);
std::unique_ptr<gpu::Twin> make_temporal_twin(const Params& params);

}  // namespace vqx::speed

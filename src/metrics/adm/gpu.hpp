// Integer ADM's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <memory>

#include "gpu/twin.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

std::unique_ptr<gpu::Twin> make_twin(const AdmParams& params);

}  // namespace vqx::adm

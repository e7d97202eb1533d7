// Integer ADM's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <functional>
#include <memory>

#include "gpu/twin.hpp"
#include "metrics/adm/params.hpp"

namespace vqx::adm {

std::function<std::unique_ptr<gpu::Twin>()> twin_factory(const AdmParams& params);

}  // namespace vqx::adm

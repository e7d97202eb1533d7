// float_moment's GPU twin (gpu.cu; built with a GPU backend only).
#pragma once

#include <functional>
#include <memory>

#include "gpu/twin.hpp"

namespace vqx::moment {

std::function<std::unique_ptr<gpu::Twin>()> twin_factory();

}  // namespace vqx::moment

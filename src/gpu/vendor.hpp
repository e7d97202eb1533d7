// Chooses the vendor runtime in one place: VQX_GPU_HIP builds for AMD
// through HIP, anything else for NVIDIA through CUDA.
#pragma once

#if defined(VQX_GPU_HIP)
#include "gpu/vendor/hip.hpp"
#else
#include "gpu/vendor/cuda.hpp"
#endif

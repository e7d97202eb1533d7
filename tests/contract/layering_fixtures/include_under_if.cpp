// expect: layering
// as: src/core/kernel_build.hpp
// Planted violation: an include under a condition counts like any other.
#pragma once
#if defined(VQX_WITH_LIBAV)
#include "io/libav_log.hpp"
#endif

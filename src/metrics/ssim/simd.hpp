// How the SSIM kernels are compiled: no fused multiply-add, and the shared
// kernel build settings (core/kernel_build.hpp).
//
// Include this only from .cpp files, after the other headers: it switches
// off floating-point contraction for the rest of the file.
#pragma once

// Bit-exactness: libvmaf rounds every float product and every double sum on
// its own, so no multiply-add may be fused (GCC fuses across statements in
// C++ whenever the target has FMA, as the x86-64-v3/v4 clones do).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "core/kernel_build.hpp"

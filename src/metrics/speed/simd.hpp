// Compilation settings of SpEED's hot loops: no fused multiply-add, and the
// shared kernel build settings (core/kernel_build.hpp).
//
// Include this only from .cpp files, after the other headers: it switches
// off floating-point contraction for the rest of the file.
#pragma once

// libvmaf rounds every float and double product and sum of SpEED on its own,
// so no multiply-add may be fused, which the x86-64-v3/v4 clones could do.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// The loops only vectorise across independent sums (lanes never change an
// order of summation), so every clone gives the same bits.
#include "core/kernel_build.hpp"

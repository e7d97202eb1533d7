// Compilation settings of SpEED's hot loops: run-time dispatch to AVX2 and
// AVX-512 builds, and no fused multiply-add.
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

// Where the toolchain can dispatch at run time (GCC, x86-64, ELF ifuncs),
// the marked functions are also compiled for x86-64-v3 (AVX2) and x86-64-v4
// (AVX-512) and the loader picks the best the CPU has. The loops only
// vectorise across independent sums (lanes never change an order of
// summation), so every path gives the same bits. Define VQX_SPEED_NO_CLONES
// to build the baseline path only.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(VQX_SPEED_NO_CLONES)
#define VQX_SPEED_CLONES \
  __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define VQX_SPEED_CLONES
#endif

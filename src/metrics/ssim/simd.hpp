// How the SSIM kernels are compiled: run-time dispatch to AVX2/AVX-512
// builds of the hot loops, forced inlining of their helpers, and no fused
// multiply-add.
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

// Where the toolchain can dispatch at run time (GCC, x86-64, ELF ifuncs), the
// kernels are also compiled for x86-64-v3 (AVX2) and x86-64-v4 (AVX-512);
// the loader picks the best the CPU has. IEEE float and double arithmetic
// (+, -, *, /, sqrt, conversions) give the same bits on every path. Define
// VQX_SSIM_NO_CLONES to build the baseline path only.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(VQX_SSIM_NO_CLONES)
#define VQX_SSIM_CLONES \
  __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define VQX_SSIM_CLONES
#endif

// Helpers are forced inline so that each clone compiles its own copy.
#if defined(__GNUC__)
#define VQX_SSIM_INLINE [[gnu::always_inline]] inline
#else
#define VQX_SSIM_INLINE inline
#endif

// Declares a column loop free of dependencies between iterations, sparing
// the vectoriser run-time alias checks.
#if defined(__clang__)
#define VQX_SSIM_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define VQX_SSIM_IVDEP _Pragma("GCC ivdep")
#else
#define VQX_SSIM_IVDEP
#endif

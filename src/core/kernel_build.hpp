// How the CPU kernels of every metric family are compiled: run-time
// dispatch to AVX2 and AVX-512 builds of the hot loops, forced inlining, and
// loops declared free of dependencies. The floating-point rules (no fused
// multiply-add) are the whole library's: cmake/FloatingPoint.cmake.
#pragma once

// Where the toolchain can dispatch at run time (GCC, x86-64, ELF ifuncs), a
// function marked VQX_CLONES is also compiled for x86-64-v3 (AVX2) and
// x86-64-v4 (AVX-512), and the loader picks the best the CPU has. Each
// family's arithmetic (integer, or IEEE with no fused operation) gives the
// same bits on every path. Define VQX_NO_CLONES to build the baseline path
// only (full stacks in TSan reports: docs/reliability.md).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(VQX_NO_CLONES)
#define VQX_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#define VQX_HAS_CLONES 1
#else
#define VQX_CLONES
#define VQX_HAS_CLONES 0
#endif

// Helpers are forced inline so that each clone compiles its own copy; so
// are loop bodies given as lambdas (VQX_INLINE_LAMBDA after the parameter
// list), which the vectoriser must see whole.
#if defined(__GNUC__)
#define VQX_FORCE_INLINE [[gnu::always_inline]] inline
#define VQX_INLINE_LAMBDA __attribute__((always_inline))
#else
#define VQX_FORCE_INLINE inline
#define VQX_INLINE_LAMBDA
#endif

// Before a loop: its iterations are free of dependencies (what one writes,
// no other reads), which spares the vectoriser run-time alias checks.
#if defined(__clang__)
#define VQX_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define VQX_IVDEP _Pragma("GCC ivdep")
#else
#define VQX_IVDEP
#endif

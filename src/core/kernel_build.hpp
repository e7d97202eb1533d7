// How the CPU kernels of every metric family are compiled: the targets each
// hot loop is built for and how one is chosen at run time, forced inlining,
// and loops declared free of dependencies. The floating-point rules (no
// fused multiply-add) are the whole library's: cmake/FloatingPoint.cmake.
#pragma once

// A function marked VQX_CLONES is compiled once for each target VQX ships
// (cmake/CpuTargets.cmake: the x86-64 baseline, x86-64-v3 with AVX2 and FMA,
// x86-64-v4 with AVX-512) where the toolchain can dispatch at run time (GCC,
// x86-64, ELF ifuncs), and the loader picks the best the CPU has. Each
// family's arithmetic (integer, or IEEE with no fused operation) gives the
// same bits on every target; scripts/simd_targets.sh tests each one.
//
// A per-target build (cmake -DVQX_CPU_TARGET=...) compiles each such
// function for one target only, with the attribute its clone gets:
// VQX_KERNEL_TARGET, or none for the baseline (VQX_NO_CLONES, which also
// gives TSan reports full stacks: docs/reliability.md). CMake writes these
// and VQX_KERNEL_CLONES, the clone list, into vqx_kernel_targets.h for the
// library's sources (vqx_cpu_target_definitions); elsewhere (tests, tools)
// VQX_CLONES is empty, as before.
#if defined(VQX_LIBRARY_SOURCE)
#include <vqx_kernel_targets.h>  // generated in the build folder
#endif
#if defined(VQX_KERNEL_TARGET)
#define VQX_CLONES __attribute__((target(VQX_KERNEL_TARGET)))
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    defined(VQX_KERNEL_CLONES) && !defined(VQX_NO_CLONES)
#define VQX_CLONES __attribute__((target_clones(VQX_KERNEL_CLONES)))
#else
#define VQX_CLONES
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

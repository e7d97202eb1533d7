// Compilation setup of the ssimulacra2 kernels. Include only from .cpp files,
// after the other headers: it switches off floating-point contraction for the
// rest of the file.
#pragma once

// No multiply-add is fused, so that every clone below (and every machine)
// rounds the same way and a picture always gets the same score. (libjxl
// itself fuses where the CPU can, so its scores differ from machine to machine
// in the last bits; the test vectors allow for that.)
//
// Floating-point exceptions are not observed (VQX never enables traps), so
// the compiler may compute both sides of a selection and drop one: without
// that, loops with selections (clamps, max(0, x)) do not vectorise. No value
// changes.
#if defined(__clang__)
#pragma clang fp contract(off)
#pragma clang fp exceptions(ignore)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-trapping-math")
#endif

// Where the toolchain can dispatch at run time (GCC, x86-64, ELF ifuncs) the
// kernels are also compiled for x86-64-v3 (AVX2) and x86-64-v4 (AVX-512); the
// loader picks the best the CPU has. Define VQX_SSIMULACRA2_NO_CLONES for the
// baseline path only.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__ELF__) && \
    !defined(VQX_SSIMULACRA2_NO_CLONES)
#define VQX_S2_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define VQX_S2_CLONES
#endif

// Helpers are forced inline so that each clone compiles its own copy.
#if defined(__GNUC__)
#define VQX_S2_INLINE [[gnu::always_inline]] inline
#else
#define VQX_S2_INLINE inline
#endif

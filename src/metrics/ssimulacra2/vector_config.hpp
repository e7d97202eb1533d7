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

#include "core/kernel_build.hpp"

// VQX_TWIN(&family::make_twin): a family's GPU twin factory, as its
// definition names it in bind_family (core/family.hpp), in a build with a
// GPU backend; nullptr (no twin) in a build without one.
//
// Whether the build has a GPU backend comes from a header CMake generates
// (cmake/Gpu.cmake), not from a definition on every source's command line:
// only the sources that include this header differ between a CPU build and
// a GPU build, so a compiler cache gives the GPU builds every other object
// of the CPU build (scripts/test.sh).
#pragma once

#include <vqx_gpu_backend.h>  // generated in the build folder

#if !defined(VQX_HAVE_GPU)
#error "vqx_gpu_backend.h defines VQX_HAVE_GPU (cmake/Gpu.cmake)"
#endif

#if VQX_HAVE_GPU
#define VQX_TWIN(make_twin) make_twin
#else
#define VQX_TWIN(make_twin) nullptr
#endif

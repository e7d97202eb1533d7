// VQX_UNROLL before a loop in a GPU kernel: unrolled by nvcc and hipcc (the
// trip count becomes constants: taps, array indices that keep arrays in
// registers). The host compilers of the device-free kernel tests take the
// loop as it is (GCC would warn of an unknown pragma).
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define VQX_UNROLL _Pragma("unroll")
#else
#define VQX_UNROLL
#endif

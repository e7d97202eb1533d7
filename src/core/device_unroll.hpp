// VQX_UNROLL before a loop in a GPU kernel: unrolled by nvcc and hipcc (the
// trip count becomes constants: taps, array indices that keep arrays in
// registers). The host compilers of the device-free kernel tests take the
// loop as it is (GCC would warn of an unknown pragma). VQX_NO_UNROLL: kept
// a loop, where unrolling would cost registers or code for no saving.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__)
#define VQX_UNROLL _Pragma("unroll")
#define VQX_NO_UNROLL _Pragma("unroll 1")
#else
#define VQX_UNROLL
#define VQX_NO_UNROLL
#endif

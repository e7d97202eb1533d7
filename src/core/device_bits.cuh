// Bit counts in GPU kernels: the device's instructions under nvcc and hipcc,
// the standard library's where a device-free kernel test compiles the
// kernels as host code.
#pragma once

#include <bit>
#include <cstdint>

namespace vqx {

#if defined(__CUDACC__) || defined(__HIPCC__)
__device__ inline int leading_zeros(std::uint32_t v) { return __clz(static_cast<int>(v)); }
__device__ inline int leading_zeros(std::uint64_t v) { return __clzll(static_cast<long long>(v)); }
#else
inline int leading_zeros(std::uint32_t v) { return std::countl_zero(v); }
inline int leading_zeros(std::uint64_t v) { return std::countl_zero(v); }
#endif

}  // namespace vqx

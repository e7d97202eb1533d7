// VQX_DEVICE_CONSTANT(name): a named constexpr constant (a double, or an
// array of them), read on a CUDA device from a __constant__ copy of it.
//
// Why: for sm_90, ptxas materialises a double literal whose low 32 bits are
// not all zero (nearly every coefficient) with two UMOV instructions before
// each use, where a __constant__ variable costs one ULDC.64 (docs/gpu.md,
// "Instructions a frame, second round"). The shared arithmetic of a twin
// (ciede's series and constants) names its constants through this macro;
// the values, and so every result, are the same on the host, in constant
// evaluation and on the device. Host compilers, constant evaluation and HIP
// see `name` itself.
//
// The copy is not const: a const __constant__ variable with a known
// initialiser is folded back into literals. `name` must have linkage (a
// namespace-scope constexpr variable): it is a template argument.
#pragma once

#include <type_traits>

namespace vqx {

#if defined(__CUDACC__) && !defined(__HIP__)
template <const auto& Value>
__constant__ std::remove_cvref_t<decltype(Value)> device_copy_of = Value;
#endif

}  // namespace vqx

#if defined(__CUDA_ARCH__)
#define VQX_DEVICE_CONSTANT(name) \
  (std::is_constant_evaluated() ? (name) : ::vqx::device_copy_of<(name)>)
#else
#define VQX_DEVICE_CONSTANT(name) (name)
#endif

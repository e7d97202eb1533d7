// Four floats moved with one 16-byte access in GPU kernels (the address a
// multiple of 16 bytes); element by element where a device-free kernel test
// compiles the kernels as host code, and under HIP.
#pragma once

namespace vqx {

inline constexpr int kQuadFloats = 4;

// v[0 .. 3] from p (shared or global memory): one LDS.128 or LDG.128.
__device__ inline void load_quad(const float* p, float (&v)[kQuadFloats]) {
#if defined(__CUDA_ARCH__)
  const float4 q = *reinterpret_cast<const float4*>(p);
  v[0] = q.x;
  v[1] = q.y;
  v[2] = q.z;
  v[3] = q.w;
#else
  for (int i = 0; i < kQuadFloats; ++i) v[i] = p[i];
#endif
}

// v[0 .. 3] to p (global memory): one STG.128, written out, since NVVM
// split a plain float4 store of ssimulacra2's horizontal pass into four
// (nvcc 13); __stwb kept it whole but as a strong store.
__device__ inline void store_quad(float* p, const float* v) {
#if defined(__CUDA_ARCH__)
  asm("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v[0]), "f"(v[1]), "f"(v[2]),
      "f"(v[3])
      : "memory");
#else
  for (int i = 0; i < kQuadFloats; ++i) p[i] = v[i];
#endif
}

}  // namespace vqx

// Sums over a pair of planes (ref a, dist b) that several twins need:
//  * integer_sums_kernel: sum (a - b)^2, sum a, sum a^2, sum b, sum b^2 as
//    64-bit integers, exact (one integer atomic per block);
//  * float_square_sums_kernel: per sample the float values v / scale and
//    their float squares and the float square of the difference (the
//    reference's per-sample arithmetic), summed in double per thread, then
//    per block by block_sum's fixed tree into `partials` (3 per block), for
//    the host to add in block order: the same bits on every run.
#pragma once

#include <cstdint>

#include "gpu/reduce.cuh"
#include "gpu/twin.hpp"

namespace vqx::gpu {

inline constexpr unsigned kSumsThreads = 256;   // columns per block
inline constexpr unsigned kSumsRowsPerBlock = 16;
enum IntegerSum { kSse, kSumA, kSquaresA, kSumB, kSquaresB, kIntegerSums };
enum FloatSum { kFloatDiffSquares, kFloatSquaresA, kFloatSquaresB, kFloatSums };

inline dim3 sums_grid(unsigned w, unsigned h) {
  return {(w + kSumsThreads - 1) / kSumsThreads, (h + kSumsRowsPerBlock - 1) / kSumsRowsPerBlock};
}

template <typename Sample>
__device__ inline const Sample* plane_row(const DevicePlane& p, unsigned y) {
  return reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(p.data) + p.pitch * y);
}

template <typename Sample>
__global__ void __launch_bounds__(kSumsThreads) integer_sums_kernel(DevicePlane a, DevicePlane b,
                                                                    unsigned long long* sums) {
  const unsigned x = blockIdx.x * kSumsThreads + threadIdx.x;
  unsigned long long v[kIntegerSums] = {};
  for (unsigned r = 0; r < kSumsRowsPerBlock; ++r) {
    const unsigned y = blockIdx.y * kSumsRowsPerBlock + r;
    if (y >= a.height || x >= a.width) continue;
    const unsigned long long p = plane_row<Sample>(a, y)[x];
    const unsigned long long q = plane_row<Sample>(b, y)[x];
    const long long d = static_cast<long long>(p) - static_cast<long long>(q);
    v[kSse] += static_cast<unsigned long long>(d * d);
    v[kSumA] += p;
    v[kSquaresA] += p * p;
    v[kSumB] += q;
    v[kSquaresB] += q * q;
  }
  for (int k = 0; k < kIntegerSums; ++k) add_exact_block(sums + k, v[k]);
}

template <typename Sample>
__global__ void __launch_bounds__(kSumsThreads) float_square_sums_kernel(DevicePlane a,
                                                                         DevicePlane b,
                                                                         float inv_scale,
                                                                         double* partials) {
  __shared__ double scratch[kSumsThreads];
  const unsigned x = blockIdx.x * kSumsThreads + threadIdx.x;
  double v[kFloatSums] = {};
  for (unsigned r = 0; r < kSumsRowsPerBlock; ++r) {
    const unsigned y = blockIdx.y * kSumsRowsPerBlock + r;
    if (y >= a.height || x >= a.width) continue;
    const float p = static_cast<float>(plane_row<Sample>(a, y)[x]) * inv_scale;
    const float q = static_cast<float>(plane_row<Sample>(b, y)[x]) * inv_scale;
    const float d = p - q;
    v[kFloatDiffSquares] += static_cast<double>(d * d);
    v[kFloatSquaresA] += static_cast<double>(p * p);
    v[kFloatSquaresB] += static_cast<double>(q * q);
  }
  const unsigned block = blockIdx.x + blockIdx.y * gridDim.x;
  for (int k = 0; k < kFloatSums; ++k) {
    const double s = block_sum<kSumsThreads>(v[k], scratch);
    if (threadIdx.x == 0) partials[block * kFloatSums + k] = s;
    __syncthreads();  // scratch is reused by the next sum
  }
}

}  // namespace vqx::gpu

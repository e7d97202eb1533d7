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
#include <string>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "gpu/twin.hpp"

namespace vqx::gpu {

inline constexpr unsigned kSumsThreads = 256;  // columns per block
inline constexpr unsigned kSumsRowsPerBlock = 16;
enum IntegerSum { kSse, kSumA, kSquaresA, kSumB, kSquaresB, kIntegerSums };
enum FloatSum { kFloatDiffSquares, kFloatSquaresA, kFloatSquaresB, kFloatSums };

inline dim3 sums_grid(unsigned w, unsigned h) {
  return {ceil_div(w, kSumsThreads), ceil_div(h, kSumsRowsPerBlock)};
}

template <typename Sample>
__device__ inline const Sample* plane_row(const DevicePlane& p, unsigned y) {
  return reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(p.data) + p.pitch * y);
}

template <typename Sample>
__global__ void __launch_bounds__(kSumsThreads)
    integer_sums_kernel(DevicePlane a, DevicePlane b, unsigned long long* sums) {
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
  add_exact_block(sums, 1, v);
}

template <typename Sample>
__global__ void __launch_bounds__(kSumsThreads)
    float_square_sums_kernel(DevicePlane a, DevicePlane b, float inv_scale, double* partials) {
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

// The device side of a twin built on these sums (float_psnr, float_moment):
// the buffers, the per-frame clear and the launches. The twin copies back
// what it needs from integer_sums() and float_partials().
class PlaneSums {
 public:
  // (Not named init: the contract check matches calls by name, and the
  // pipeline's init uploads.) Which sums each frame gets: the integer sums, the per-block float
  // squares (depths above the exact limit), or both. `family` names the
  // launches in errors.
  Status allocate(const PictureFormat& fmt, bool integer_sums, bool float_squares,
                  const std::string& family) {
    fmt_ = fmt;
    integers_ = integer_sums;
    floats_ = float_squares;
    const dim3 g = sums_grid(fmt.width, fmt.height);
    blocks_ = g.x * g.y;
    integer_name_ = family + " integer_sums_kernel";
    float_name_ = family + " float_square_sums_kernel";
    VQX_ASSIGN_OR_RETURN(sums_, DeviceBuffer<unsigned long long>::allocate(kIntegerSums));
    if (floats_) {
      VQX_ASSIGN_OR_RETURN(partials_, DeviceBuffer<double>::allocate(blocks_ * kFloatSums));
    }
    return Status::Ok();
  }

  // The integer sums accumulate: cleared every frame (Twin::clear).
  Status clear(const Stream& s) const { return clear_async(sums_, s); }

  // Queues the kernels on the frame's luma; `inv_scale` (1 / 2^(bpc - 8))
  // for the float squares.
  Status launch(const DeviceFrame& f, float inv_scale, const Stream& s) const {
    const dim3 grid = sums_grid(fmt_.width, fmt_.height);
    if (integers_) {
      if (fmt_.bpc == 8) {
        integer_sums_kernel<std::uint8_t>
            <<<grid, kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], sums_.get());
      } else {
        integer_sums_kernel<std::uint16_t>
            <<<grid, kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], sums_.get());
      }
      VQX_RETURN_IF_ERROR(check_launch(integer_name_.c_str()));
    }
    if (!floats_) return Status::Ok();
    float_square_sums_kernel<std::uint16_t>
        <<<grid, kSumsThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], inv_scale, partials_.get());
    return check_launch(float_name_.c_str());
  }

  [[nodiscard]] const DeviceBuffer<unsigned long long>& integer_sums() const { return sums_; }
  [[nodiscard]] const DeviceBuffer<double>& float_partials() const { return partials_; }
  [[nodiscard]] unsigned blocks() const { return blocks_; }

 private:
  PictureFormat fmt_;
  bool integers_ = true;
  bool floats_ = false;
  unsigned blocks_ = 0;
  std::string integer_name_;
  std::string float_name_;
  DeviceBuffer<unsigned long long> sums_;
  DeviceBuffer<double> partials_;
};

}  // namespace vqx::gpu

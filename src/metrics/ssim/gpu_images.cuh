// The pictures of the SSIM twins on the device: views of the uploaded luma,
// owned float images for the subsampled scales, and the count of differing
// luma samples (equal pictures score exactly 1, as on the CPU: image.hpp's
// same_luma).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/index_math.hpp"
#include "gpu/reduce.cuh"
#include "gpu/runtime.hpp"
#include "gpu/twin.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/gpu_kernels.cuh"
#include "metrics/ssim/params.hpp"

namespace vqx::ssim {

// The uploaded plane as the kernels read it.
template <typename Sample>
LumaView<Sample> luma_view(const gpu::DevicePlane& p, unsigned bpc) {
  return {static_cast<const std::uint8_t*>(p.data), p.pitch, sample_unit(bpc)};
}

// An owned float image: rows of `size.width` floats, `pitch` apart (a
// multiple of 64 floats, so that every row starts on a 256-byte boundary).
// Written in full by the kernel that makes it before any kernel reads it.
class DeviceImage {
 public:
  static constexpr std::size_t kPitchFloats = 64;

  Status allocate(Size size) {
    size_ = size;
    pitch_ = round_up(static_cast<std::size_t>(size.width), kPitchFloats);
    VQX_ASSIGN_OR_RETURN(
        buf_, gpu::DeviceBuffer<float>::allocate(pitch_ * static_cast<std::size_t>(size.height)));
    return Status::Ok();
  }
  [[nodiscard]] FloatView view() const { return {buf_.get(), pitch_}; }
  [[nodiscard]] float* data() const { return buf_.get(); }
  [[nodiscard]] std::size_t pitch() const { return pitch_; }
  [[nodiscard]] Size size() const { return size_; }

 private:
  Size size_;
  std::size_t pitch_ = 0;
  gpu::DeviceBuffer<float> buf_;
};

inline constexpr unsigned kCompareThreads = 256;  // columns per block
inline constexpr unsigned kCompareRows = 16;      // rows per block

// Adds to *count the number of luma samples where a and b differ (integer
// atomics, exact in any order: gpu/reduce.cuh).
template <typename Sample>
__global__ void __launch_bounds__(kCompareThreads)
    count_differences_kernel(gpu::DevicePlane a, gpu::DevicePlane b, unsigned long long* count) {
  const unsigned x = blockIdx.x * kCompareThreads + threadIdx.x;
  unsigned long long differ = 0;
  for (unsigned r = 0; r < kCompareRows; ++r) {
    const unsigned y = blockIdx.y * kCompareRows + r;
    if (y >= a.height || x >= a.width) continue;
    const auto* ra =
        reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(a.data) + a.pitch * y);
    const auto* rb =
        reinterpret_cast<const Sample*>(static_cast<const std::uint8_t*>(b.data) + b.pitch * y);
    differ += ra[x] != rb[x] ? 1U : 0U;
  }
  gpu::add_exact_block(count, differ);
}

// The count of differing luma samples of a frame: a counter that the twin
// clears every frame (Twin::clear) and that the launch adds to.
class LumaComparison {
 public:
  Status allocate(const std::string& family) {
    name_ = family + " count_differences_kernel";
    VQX_ASSIGN_OR_RETURN(count_, gpu::DeviceBuffer<unsigned long long>::allocate(1));
    return Status::Ok();
  }
  [[nodiscard]] Status clear(const gpu::Stream& s) const { return gpu::clear_async(count_, s); }
  [[nodiscard]] Status launch(const gpu::DeviceFrame& f, unsigned bpc, const gpu::Stream& s) const {
    const dim3 grid(ceil_div(f.ref[0].width, kCompareThreads),
                    ceil_div(f.ref[0].height, kCompareRows));
    if (bpc == 8) {
      count_differences_kernel<std::uint8_t>
          <<<grid, kCompareThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], count_.get());
    } else {
      count_differences_kernel<std::uint16_t>
          <<<grid, kCompareThreads, 0, s.handle()>>>(f.ref[0], f.dist[0], count_.get());
    }
    return gpu::check_launch(name_.c_str());
  }
  [[nodiscard]] const gpu::DeviceBuffer<unsigned long long>& count() const { return count_; }

 private:
  std::string name_;
  gpu::DeviceBuffer<unsigned long long> count_;
};

}  // namespace vqx::ssim

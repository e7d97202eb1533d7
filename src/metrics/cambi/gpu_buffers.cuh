// The CAMBI twin's device memory, allocated once for the largest working
// size of its passes (the distorted picture at the encoding size and, with
// full_ref, the reference at the source size; the passes run one after the
// other on the twin's stream and share everything but their sums):
//  * written in full by a kernel before any kernel reads them, every
//    frame: the 10-bit picture, the derivative flags, the mask, the scales'
//    pictures and masks, the codes, the values, the row maxima (and their
//    lanes');
//  * written once, by the first frame's launch, before any kernel reads
//    them: the sample positions (a context's sizes never change);
//  * accumulated, so cleared every frame (Twin::clear): each pass's and
//    scale's sums (ScaleSums), bucket histogram and low-bits histogram.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "gpu/runtime.hpp"
#include "metrics/cambi/gpu_kernels.cuh"
#include "metrics/cambi/params.hpp"
#include "metrics/cambi/setup.hpp"

namespace vqx::cambi {

// The distorted picture's pass and the reference's (full_ref).
inline constexpr unsigned kPasses = 2;

struct DeviceBuffers {
  std::array<gpu::DeviceBuffer<unsigned>, kPasses> xs, ys;        // when resampling
  gpu::DeviceBuffer<std::uint32_t> row_lanes;                     // input rows x 32
  gpu::DeviceBuffer<std::uint32_t> row_max;                       // kPasses x input rows
  gpu::DeviceBuffer<std::uint16_t> full;                          // the 10-bit picture (speed-up)
  gpu::DeviceBuffer<std::uint8_t> full_mask;                      // its mask (speed-up)
  gpu::DeviceBuffer<std::uint8_t> flags;                          // zero derivatives
  std::array<gpu::DeviceBuffer<std::uint16_t>, kScaleCount> img;  // each scale's picture
  std::array<gpu::DeviceBuffer<std::uint8_t>, kScaleCount> mask;
  gpu::DeviceBuffer<std::uint16_t> codes;  // the current scale's
  gpu::DeviceBuffer<float> values;         // the current scale's
  gpu::DeviceBuffer<ScaleSums> sums;       // kPasses x kScaleCount
  gpu::DeviceBuffer<unsigned> buckets;     // kPasses x kScaleCount x kBucketCount
  gpu::DeviceBuffer<unsigned> low;         // kPasses x kScaleCount x kLowCounts

  [[nodiscard]] ScaleSums* sums_of(unsigned pass, unsigned scale) const {
    return sums.get() + pass * kScaleCount + scale;
  }
  [[nodiscard]] unsigned* buckets_of(unsigned pass, unsigned scale) const {
    return buckets.get() + std::size_t{pass * kScaleCount + scale} * kBucketCount;
  }
  [[nodiscard]] unsigned* low_of(unsigned pass, unsigned scale) const {
    return low.get() + std::size_t{pass * kScaleCount + scale} * kLowCounts;
  }

  // For the geometries of `setup` (src only with full_ref) and input rows
  // of in_height.
  Status allocate(const Setup& setup, bool full_ref, unsigned in_height) {
    std::array<const Geometry*, kPasses> passes = {&setup.enc, full_ref ? &setup.src : nullptr};
    std::size_t full_pixels = 0;
    std::size_t first_scale = 0;
    std::array<std::size_t, kScaleCount> scale_pixels{};
    for (unsigned p = 0; p < kPasses; ++p) {
      const Geometry* g = passes[p];
      if (g == nullptr) continue;
      if (!g->xs.empty()) {
        VQX_ASSIGN_OR_RETURN(xs[p], gpu::DeviceBuffer<unsigned>::allocate(g->width));
        VQX_ASSIGN_OR_RETURN(ys[p], gpu::DeviceBuffer<unsigned>::allocate(g->height));
      }
      if (g->half_first) full_pixels = max_of(full_pixels, std::size_t{g->width} * g->height);
      for (unsigned s = 0; s < kScaleCount; ++s) {
        scale_pixels[s] =
            max_of(scale_pixels[s], std::size_t{g->scale_width[s]} * g->scale_height[s]);
      }
      first_scale = max_of(first_scale, std::size_t{g->width} * g->height);
    }
    VQX_ASSIGN_OR_RETURN(row_lanes, gpu::DeviceBuffer<std::uint32_t>::allocate(
                                        std::size_t{in_height} * kPixelThreadsX));
    VQX_ASSIGN_OR_RETURN(
        row_max, gpu::DeviceBuffer<std::uint32_t>::allocate(std::size_t{kPasses} * in_height));
    if (full_pixels != 0) {
      VQX_ASSIGN_OR_RETURN(full, gpu::DeviceBuffer<std::uint16_t>::allocate(full_pixels));
      VQX_ASSIGN_OR_RETURN(full_mask, gpu::DeviceBuffer<std::uint8_t>::allocate(full_pixels));
    }
    VQX_ASSIGN_OR_RETURN(flags, gpu::DeviceBuffer<std::uint8_t>::allocate(first_scale));
    for (unsigned s = 0; s < kScaleCount; ++s) {
      VQX_ASSIGN_OR_RETURN(img[s], gpu::DeviceBuffer<std::uint16_t>::allocate(scale_pixels[s]));
      VQX_ASSIGN_OR_RETURN(mask[s], gpu::DeviceBuffer<std::uint8_t>::allocate(scale_pixels[s]));
    }
    VQX_ASSIGN_OR_RETURN(codes, gpu::DeviceBuffer<std::uint16_t>::allocate(scale_pixels[0]));
    VQX_ASSIGN_OR_RETURN(values, gpu::DeviceBuffer<float>::allocate(scale_pixels[0]));
    VQX_ASSIGN_OR_RETURN(sums, gpu::DeviceBuffer<ScaleSums>::allocate(kPasses * kScaleCount));
    VQX_ASSIGN_OR_RETURN(buckets, gpu::DeviceBuffer<unsigned>::allocate(
                                      std::size_t{kPasses} * kScaleCount * kBucketCount));
    VQX_ASSIGN_OR_RETURN(low, gpu::DeviceBuffer<unsigned>::allocate(std::size_t{kPasses} *
                                                                    kScaleCount * kLowCounts));
    return Status::Ok();
  }

  // The per-frame clears of the accumulators.
  [[nodiscard]] Status clear(const gpu::Stream& s) const {
    VQX_RETURN_IF_ERROR(gpu::clear_async(sums, s));
    VQX_RETURN_IF_ERROR(gpu::clear_async(buckets, s));
    return gpu::clear_async(low, s);
  }

 private:
  static std::size_t max_of(std::size_t a, std::size_t b) { return a > b ? a : b; }
};

}  // namespace vqx::cambi

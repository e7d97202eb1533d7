// Filtering and subsampling on the device: decimate.hpp's rule, one thread
// per output sample of both pictures. Output (x, y) is the n x n filter
// centred on input (x f, y f), the border mirrored with the edge repeated
// (reflect_repeat, as decimate.cpp); each product tap * sample is rounded
// to float (pointwise.hpp: tap_term) and added in double, filter row by
// filter row and tap by tap from 0.0, as the CPU's row loops add them for
// each output sample; the sum is rounded to float. So each output sample is
// the CPU's, bit for bit.
#pragma once

#include <string>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/ssim/gpu_images.cuh"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/pointwise.hpp"

namespace vqx::ssim {

// The taps of a square filter, row by row, passed to the kernel by value
// (kernel parameters: no device table to upload). Large enough for
// MS-SSIM's 9x9 low-pass and float_ssim's largest box.
struct SquareTaps {
  static constexpr int kMaxTaps = kLpfTaps > kMaxScale* kMaxScale ? kLpfTaps : kMaxScale* kMaxScale;
  float tap[kMaxTaps];
  int size;    // taps per side
  int factor;  // subsampling factor
};

// MS-SSIM's low-pass filter, subsampling by 2.
inline SquareTaps low_pass_taps() {
  SquareTaps t{};
  for (int i = 0; i < kLpfTaps; ++i) t.tap[i] = kLowPass[static_cast<std::size_t>(i)];
  t.size = kLpfSize;
  t.factor = 2;
  return t;
}

// float_ssim's box filter for `factor` (every tap box_tap(factor)).
inline SquareTaps box_taps(int factor) {
  SquareTaps t{};
  for (int i = 0; i < factor * factor; ++i) t.tap[i] = box_tap(factor);
  t.size = factor;
  t.factor = factor;
  return t;
}

inline constexpr unsigned kDecimateX = 32;
inline constexpr unsigned kDecimateY = 8;

template <typename Source>
__global__ void __launch_bounds__(kDecimateX* kDecimateY)
    decimate_kernel(Source ref, Source cmp, Size in, SquareTaps taps, float* ref_out,
                    float* cmp_out, std::size_t out_pitch, Size out) {
  const int x = static_cast<int>(blockIdx.x * kDecimateX + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * kDecimateY + threadIdx.y);
  if (x >= out.width || y >= out.height) return;
  const int half = taps.size / 2;
  double r = 0.0;
  double c = 0.0;
  for (int v = 0; v < taps.size; ++v) {
    const int yy = reflect_repeat(y * taps.factor + v - half, in.height);
    for (int u = 0; u < taps.size; ++u) {
      const int xx = reflect_repeat(x * taps.factor + u - half, in.width);
      const float t = taps.tap[v * taps.size + u];
      r += tap_term(ref.at(xx, yy), t);
      c += tap_term(cmp.at(xx, yy), t);
    }
  }
  const std::size_t o = out_pitch * static_cast<std::size_t>(y) + static_cast<std::size_t>(x);
  ref_out[o] = static_cast<float>(r);
  cmp_out[o] = static_cast<float>(c);
}

// Queues the filter of `ref` and `cmp` (in.width x in.height) into the two
// images (their sizes decimated_size(in, taps.factor)). `name` names the
// launch in errors.
template <typename Source>
Status decimate(const Source& ref, const Source& cmp, Size in, const SquareTaps& taps,
                const DeviceImage& ref_out, const DeviceImage& cmp_out, const std::string& name,
                const gpu::Stream& s) {
  const Size out = ref_out.size();
  const dim3 grid(ceil_div(static_cast<unsigned>(out.width), kDecimateX),
                  ceil_div(static_cast<unsigned>(out.height), kDecimateY));
  const dim3 block(kDecimateX, kDecimateY);
  decimate_kernel<Source><<<grid, block, 0, s.handle()>>>(ref, cmp, in, taps, ref_out.data(),
                                                          cmp_out.data(), ref_out.pitch(), out);
  return gpu::check_launch(name.c_str());
}

}  // namespace vqx::ssim

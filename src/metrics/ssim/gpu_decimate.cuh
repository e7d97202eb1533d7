// The launches of the SSIM twins' subsampling (gpu_kernels.cuh:
// decimate_kernel, low_pass_kernel): both pictures into two device images.
#pragma once

#include <string>

#include "core/index_math.hpp"
#include "gpu/runtime.hpp"
#include "metrics/ssim/gpu_images.cuh"
#include "metrics/ssim/gpu_kernels.cuh"

namespace vqx::ssim {

// Queues `kernel` (decimate_kernel or low_pass_kernel, whose arguments
// are the same) over the output images, a thread per output sample.
template <typename Source, typename Kernel>
Status subsample(Kernel kernel, const Source& ref, const Source& cmp, Size in,
                 const SquareTaps& taps, const DeviceImage& ref_out, const DeviceImage& cmp_out,
                 const std::string& name, const gpu::Stream& s) {
  const Size out = ref_out.size();
  const dim3 grid(ceil_div(static_cast<unsigned>(out.width), kDecimateX),
                  ceil_div(static_cast<unsigned>(out.height), kDecimateY));
  const dim3 block(kDecimateX, kDecimateY);
  kernel<<<grid, block, 0, s.handle()>>>(ref, cmp, in, taps, ref_out.data(), cmp_out.data(),
                                         ref_out.pitch(), out);
  return gpu::check_launch(name.c_str());
}

// Queues the filter of `ref` and `cmp` (in.width x in.height) into the two
// images (their sizes decimated_size(in, taps.factor)). `name` names the
// launch in errors.
template <typename Source>
Status decimate(const Source& ref, const Source& cmp, Size in, const SquareTaps& taps,
                const DeviceImage& ref_out, const DeviceImage& cmp_out, const std::string& name,
                const gpu::Stream& s) {
  return subsample(decimate_kernel<Source>, ref, cmp, in, taps, ref_out, cmp_out, name, s);
}

// The same for MS-SSIM's low-pass (`taps`: low_pass_taps()), by
// low_pass_kernel.
template <typename Source>
Status low_pass(const Source& ref, const Source& cmp, Size in, const SquareTaps& taps,
                const DeviceImage& ref_out, const DeviceImage& cmp_out, const std::string& name,
                const gpu::Stream& s) {
  return subsample(low_pass_kernel<Source>, ref, cmp, in, taps, ref_out, cmp_out, name, s);
}

}  // namespace vqx::ssim

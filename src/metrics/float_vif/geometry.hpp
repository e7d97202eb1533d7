// The sizes float VIF works at and its refusals, shared by the CPU
// extractor (family.cpp, cpu.cpp) and the GPU twin (gpu.cu), so that both
// take and refuse the same pictures with the same messages.
#pragma once

#include <array>
#include <vector>

#include "core/extractor.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_vif/params.hpp"
#include "vqx/status.hpp"

namespace vqx::float_vif {

// The parsed options and the prescaling method they name.
struct Config {
  Params params;
  float_common::ScaleMethod method = float_common::ScaleMethod::kNearest;
};

// The luma's size after vif_prescale (libvmaf float_vif.c init():
// (int)(w * vif_prescale + 0.5)); refuses bilinear prescaling wider than
// libvmaf's scaler holds and a picture too small for the method's reach.
struct Prescale {
  unsigned width = 0;
  unsigned height = 0;
  bool rescale = false;  // whether the size changes (else libvmaf copies)
};
[[nodiscard]] Expected<Prescale> prescaled_size(const PictureFormat& fmt, const Config& config);

// Each scale's size and Gaussian filter for a prescaled luma of width x
// height: scale s + 1 is scale s decimated by 2 (sides halved, rounded
// down). Refuses, naming the scale, a scale whose filter would reach past
// the mirrored border (scale s filters scale s - 1 to decimate it, then
// itself for its terms; with vif_skip_scale0 scale 0 only the former).
struct Scales {
  std::array<unsigned, kScales> w{};
  std::array<unsigned, kScales> h{};
  std::array<std::vector<float>, kScales> filters;
};
[[nodiscard]] Expected<Scales> scale_sizes(unsigned width, unsigned height, float kernelscale,
                                           bool skip_scale0);

}  // namespace vqx::float_vif

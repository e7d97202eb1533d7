// The planes float motion compares and their sizes, with the CPU's
// refusals: shared by the CPU extractor (family.cpp) and the GPU twin
// (gpu.cu), so that both take and refuse the same pictures with the same
// messages.
#pragma once

#include <vector>

#include "core/extractor.hpp"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_motion/params.hpp"
#include "vqx/status.hpp"

namespace vqx::float_motion {

// One plane's sides as libvmaf sees them and its halver (motion_add_scale1).
struct PlaneGeometry {
  unsigned width = 0;
  unsigned height = 0;
  unsigned half_width = 0;
  unsigned half_height = 0;
  float_common::Resampler halver;  // initialised with motion_add_scale1
};

// The planes, luma then (motion_add_uv) chroma; refuses a 4:0:0 input with
// motion_add_uv, a plane smaller than the blur needs, and a half size over
// libvmaf's bilinear limit.
[[nodiscard]] Expected<std::vector<PlaneGeometry>> plane_geometry(const PictureFormat& fmt,
                                                                  const Params& params);

}  // namespace vqx::float_motion

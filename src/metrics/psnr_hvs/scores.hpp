// PSNR-HVS's refusals and the frame's values from the three planes' errors:
// shared by the CPU extractor (family.cpp) and the GPU twin (gpu.cu).
#pragma once

#include <array>

#include "core/extractor.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::psnr_hvs {

// The pictures psnr_hvs refuses (4:0:0, deeper than 12 bits, a plane
// smaller than one block), with both twins' messages.
Status check_format(const PictureFormat& fmt);

// Writes psnr_hvs_y, _cb, _cr and psnr_hvs of frame `index` from the
// planes' errors (cpu.hpp's plane_error, pointwise.hpp's plane_error_of).
void write_scores(const std::array<float, 3>& errors, unsigned index, FeatureWriter& out);

}  // namespace vqx::psnr_hvs

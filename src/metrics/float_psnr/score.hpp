// float_psnr's value from the luma's squared-difference sum: shared by the
// CPU extractor and the GPU twin.
#pragma once

#include "vqx/picture.hpp"

namespace vqx::float_psnr {

// psnr.c compute_psnr(): the mean over w * h (an int product), then the
// capped log with libvmaf's MIN and MAX.
double score(double squared_difference_sum, const PictureFormat& fmt);

}  // namespace vqx::float_psnr

// The check that every sample of a picture given to Context::read_pictures
// is within its bit depth. Families index tables and size integer sums by
// the depth: a sample above it gives garbage or undefined behaviour
// (psnr_hvs's integer DCT overflows), so no family sees one.
#pragma once

#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

// Ok when every sample of `pic` is at most 2^bpc - 1 (always at 8 and 16
// bits, and for pictures a VQX reader checked while filling them);
// otherwise a kInvalidArgument error naming frame `index`, `which` picture
// ("reference" or "distorted"), the plane, the first such sample and the
// bit depth.
Status check_sample_range(const Picture& pic, const char* which, unsigned index);

}  // namespace vqx

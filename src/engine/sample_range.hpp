// The check that every sample of the pictures given to Context::read_pictures
// is within their bit depth. Families index tables and size integer sums by
// the depth: a sample above it gives garbage or undefined behaviour
// (psnr_hvs's integer DCT overflows), so no family sees one.
#pragma once

#include "core/fork_join.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

// Ok when every sample of `ref` and `dist` (one format) is at most
// 2^bpc - 1 (always at 8 and 16 bits, and for pictures a VQX reader checked
// while filling them); otherwise a kInvalidArgument error naming frame
// `index`, the picture ("reference" before "distorted"), the plane, the
// first such sample and the bit depth. With `fork_join`, the rows are
// shared with its helpers (a 4K frame pair at 10 bits is 50 MB to read).
Status check_sample_range(const Picture& ref, const Picture& dist, unsigned index,
                          const ForkJoin* fork_join = nullptr);

}  // namespace vqx

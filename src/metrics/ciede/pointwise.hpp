// The arithmetic of CIEDE2000 at one pixel, written once for both twins:
// the CPU kernel (cpu.cpp, its caches and batches) and the GPU kernel
// (gpu_kernels.cuh) call these. Plain constexpr functions: host and device
// code alike (docs/gpu.md, "Every number once").
//  * chroma_source: libvmaf's chroma addressing (below);
//  * steps::lab_of (color_steps.hpp): a pixel's Lab colour;
//  * steps::ciede2000 (delta_e_steps.hpp): the difference of two colours;
//  * score_of: the frame's score from the sum of the differences.
#pragma once

#include <cmath>

#include "core/index_math.hpp"
#include "metrics/ciede/color_steps.hpp"
#include "metrics/ciede/delta_e_steps.hpp"
#include "metrics/ciede/params.hpp"
#include "vqx/picture.hpp"

namespace vqx::ciede {

// Where chroma sample (x, y) of the 4:4:4 picture libvmaf builds
// (ciede.c, scale_chroma_planes) comes from, in a chroma plane of cw x ch
// samples: output row y reads source row y / 2 for 4:2:0 and 4:2:2 alike,
// and output column x reads source column x / 2 for 4:2:0 but column x for
// 4:2:2. For 4:2:2 that runs past the chroma width into the rest of
// libvmaf's padded row (zeros up to the 32-sample aligned stride) and on
// into the next row; this reproduces that addressing, so the scores equal
// libvmaf's. (Past the last row, which only a 1-row picture reaches,
// libvmaf would read the next plane; zeros are used instead.) `inside`
// false: the sample is 0.
struct ChromaSource {
  unsigned row;
  unsigned col;
  bool inside;
};
[[nodiscard]] constexpr ChromaSource chroma_source(ChromaFormat format, unsigned x, unsigned y,
                                                   unsigned cw, unsigned ch) {
  switch (format) {
    case ChromaFormat::k420:
      return {y / 2, x / 2, true};
    case ChromaFormat::k422: {
      const unsigned stride = round_up(cw, kLibvmafRowAlign);
      const unsigned row = y / 2 + x / stride;
      const unsigned col = x % stride;
      return {row, col, col < cw && row < ch};
    }
    default:  // 4:4:4 (4:0:0 is refused)
      return {y, x, true};
  }
}

// The frame score from the sum of the differences over `pixels` pixels
// (libvmaf divides by the unsigned product w * h).
[[nodiscard]] inline double score_of(double sum, unsigned pixels) {
  return kScoreOffset - kScoreScale * std::log10(sum / static_cast<double>(pixels));
}

}  // namespace vqx::ciede

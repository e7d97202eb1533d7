// The 2x2 box that takes linear RGB from one scale to the next
// (ssimulacra2.cc, Downsample(in, 2, 2)): output (ox, oy) is the mean of
// input rows 2oy, 2oy + 1 and columns 2ox, 2ox + 1, indices clamped to the
// picture (so an odd last row or column counts twice), summed in float in
// that order and multiplied by 0.25.
#pragma once

namespace vqx::ssimulacra2 {

// One output row of ceil(in_width / 2) samples from two input rows (the same
// row twice for an odd picture's last output row).
void downsample_row(const float* row0, const float* row1, unsigned in_width, float* out);

}  // namespace vqx::ssimulacra2

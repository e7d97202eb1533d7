// CAMBI's preprocessing: the input luma becomes a 10-bit picture of the
// encoding size (libvmaf cambi.c, cambi_preprocessing() and the
// decimate_generic_* and anti_dithering_filter() functions).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::cambi {

// Which input row (or column) each output row (column) takes when a side of
// in_size samples becomes out_size: libvmaf steps a float position by
// in_size / out_size from the middle of the first output sample and rounds.
// A position that float error would put past the input is clamped to its
// last sample (libvmaf would read past the row there).
std::vector<unsigned> sample_positions(unsigned in_size, unsigned out_size);

// Whether samples of depth bpc can exceed the depth's maximum (all but 8
// and 16 bits), and the error for such a sample: `seen`, the largest of
// the first row that has one (both twins report that row's maximum).
bool depth_can_overflow(unsigned bpc);
Status sample_above_depth(unsigned bpc, std::uint32_t seen);

// Writes the luma of `luma` (in_w x in_h samples of depth bpc) as 10-bit
// levels into `out` (rows of out_w, contiguous). Samples are taken at
// (xs[j], ys[i]) unless `xs` is empty (same size). Depths below 10 are
// shifted up; deeper ones are rounded to nearest (so 16-bit 65535 gives
// 1024, as in libvmaf). Fails, as libvmaf does, when any sample of the plane
// exceeds the depth's maximum (only 8 and 16 bits cannot).
Status to_10bit(const Plane& luma, unsigned in_w, unsigned in_h, unsigned bpc,
                std::span<const unsigned> xs, std::span<const unsigned> ys, std::uint16_t* out,
                unsigned out_w, unsigned out_h);

// Averages every pixel with its right, lower and lower-right neighbours
// (pairs on the last row and column, the last pixel unchanged), flooring:
// it undoes the dither of encodes with fewer than 10 bits.
void anti_dither(std::uint16_t* img, unsigned w, unsigned h);

}  // namespace vqx::cambi

// ANSNR's energies over the rows and the frame's values from them: shared
// by the CPU extractor (family.cpp, cpu.cpp) and the GPU twin (gpu.cu).
#pragma once

#include "core/extractor.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::ansnr {

struct Energies {
  float signal;  // sum of ref_f^2
  float noise;   // sum of (ref_f - dis_f)^2
};

// The frame's energies are float sums over the rows' energies in row order
// (ansnr_mse_s()): each twin sums every row from 0 along the row, then
// calls this for the rows in order, from {0, 0}.
constexpr void add_row(Energies& total, const Energies& row) {
  total.signal += row.signal;
  total.noise += row.noise;
}

// The refusal of a picture too small for the 5x5 filter (params.hpp,
// kMinDimension), both twins' message.
Status check_size(const PictureFormat& fmt);

// Slots of the outputs, in libvmaf's order.
enum Slot : std::size_t { kAnsnr, kAnpsnr };

// Writes float_ansnr and float_anpsnr of frame `index` (ansnr.c,
// compute_ansnr()).
void write_scores(const Energies& e, const PictureFormat& fmt, unsigned index, FeatureWriter& out);

}  // namespace vqx::ansnr

// PSNR-HVS of one plane on the CPU.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "metrics/psnr_hvs/params.hpp"

namespace vqx::psnr_hvs {

// Samples of one plane: `stride` counts samples, not bytes.
template <typename Sample>
struct PlaneView {
  const Sample* data;
  std::ptrdiff_t stride;
  unsigned width;
  unsigned height;
};

// The per-coefficient weights of one plane, flattened [row * 8 + column].
struct Weights {
  std::array<float, kBlockArea> csf;
  std::array<float, kBlockArea> mask;  // (csf * kMaskScale)^2 as float
};
Weights make_weights(const Table& csf);

struct Scratch;  // the block buffers, defined in cpu.cpp
struct ScratchDeleter {
  void operator()(Scratch* s) const;
};
using ScratchPtr = std::unique_ptr<Scratch, ScratchDeleter>;
// Allocates one kernel's scratch (throws std::bad_alloc).
ScratchPtr make_scratch();

// The plane's error as libvmaf's calc_psnrhvs returns it: the float mean of
// the squared, masked, CSF-weighted coefficient differences over every
// block, divided by (2^bpc - 1)^2. Requires width, height >= 8 and equal
// sizes for both views; bpc 8 for the 8-bit overload, 9..12 for the other.
float plane_error(PlaneView<std::uint8_t> ref, PlaneView<std::uint8_t> dist, const Weights& weights,
                  Scratch& scratch);
float plane_error(PlaneView<std::uint16_t> ref, PlaneView<std::uint16_t> dist, unsigned bpc,
                  const Weights& weights, Scratch& scratch);

}  // namespace vqx::psnr_hvs

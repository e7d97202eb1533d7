// The sizes SpEED works at (libvmaf speed.c, speed_init_dimensions()).
#pragma once

#include <string>

#include "metrics/speed/params.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx::speed {

struct Geometry {
  unsigned width = 0;  // the plane SpEED is given
  unsigned height = 0;
  unsigned scaled_w = 0;  // after the prescale
  unsigned scaled_h = 0;
  unsigned op_w = 0;  // after decimation by 16: the band-pass picture
  unsigned op_h = 0;
  unsigned blocks_x = 0;  // whole 5x5 blocks in the band-pass picture
  unsigned blocks_y = 0;
  unsigned trunc_w = 0;  // the part of it the blocks cover
  unsigned trunc_h = 0;
  unsigned sub_w = 0;  // the common part of the 25 shifted block grids
  unsigned sub_h = 0;

  [[nodiscard]] unsigned blocks() const { return blocks_x * blocks_y; }
};

// The geometry of a width x height plane under `p`'s prescale, or an error
// when the band-pass picture cannot hold one 5x5 block (libvmaf logs "SpEED:
// image too small" there and then crashes). `what` names the extractor and
// the plane in the message, e.g. "speed_chroma: the U and V planes".
Expected<Geometry> make_geometry(unsigned width, unsigned height, const Params& p,
                                 const std::string& what);

// The geometry of speed_chroma's U and V planes for pictures of `fmt`, or
// its refusal (an invalid format, 4:0:0, planes too small): what both twins
// check at init. The planes' size is the luma's halved with truncation where
// subsampled (libvmaf's init_chroma(); for odd sizes that leaves out the
// last chroma column or row of the picture).
Expected<Geometry> chroma_geometry(const PictureFormat& fmt, const Params& p);

// The geometry of speed_temporal's luma planes, or its refusal.
Expected<Geometry> temporal_geometry(const PictureFormat& fmt, const Params& p);

// The smallest side (in samples, before the prescale) that gives at least one
// block along it.
unsigned min_side(const Params& p);

}  // namespace vqx::speed

// Y'CbCr pictures to linear RGB, one row at a time.
//
// What "the colour the input declares" means here (VQX pictures carry no
// colour metadata, so the options declare it; defaults BT.709, limited range,
// sRGB curve):
//   1. samples to normalised Y' in [0, 1] and Pb, Pr in [-0.5, 0.5] by the
//      range option (limited: (Y - 16k) / 219k, (C - 128k) / 224k with
//      k = 2^(bpc - 8); full: Y / (2^bpc - 1), (C - 2^(bpc-1)) / (2^bpc - 1));
//   2. chroma brought to luma resolution by sample replication (each chroma
//      sample covers the 2x1 or 2x2 luma samples it is co-sited with, as
//      libvmaf's ciede does); no filtering;
//   3. R'G'B' by the matrix option (Kr, Kb of BT.709, BT.601 or BT.2020 NCL),
//      clamped to [0, 1] (what an integer RGB picture, e.g. a PNG, holds);
//   4. linear light by the transfer option (sRGB curve, inverse BT.709 OETF,
//      BT.1886 gamma 2.4, or none), tabulated and linearly interpolated.
// The RGB primaries are taken as BT.709/sRGB's, which is what XYB expects;
// no gamut conversion is made. 4:0:0 pictures are grey: R' = G' = B' = Y'.
#pragma once

#include <cstddef>
#include <vector>

#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/pointwise.hpp"
#include "vqx/picture.hpp"

namespace vqx::ssimulacra2 {

// The coefficients (pointwise.hpp) of `params` at bpc bits.
YcbcrCoefficients ycbcr_coefficients(const Params& params, unsigned bpc);

// The transfer curve (R', G' or B' in [0, 1] to linear): below `threshold`
// v * inv_slope, else the power law tabulated at kTransferTableIntervals + 1
// points (plus one guard entry) and interpolated linearly (pointwise.hpp's
// curve_value). Both twins read this table: the GPU's is this one, uploaded.
struct TransferCurve {
  std::vector<float> table;
  float threshold = 0.0f;
  float inv_slope = 1.0f;
  void init(Transfer transfer);
};

// The curve of `transfer`, initialised.
TransferCurve transfer_curve(Transfer transfer);

// One decoder per extractor instance; init() allocates, convert_row() does not.
class LinearRgbConverter {
 public:
  void init(const PictureFormat& fmt, const Params& params);
  // Row y of `pic` (the format given to init) to linear R, G, B, each
  // fmt.width floats.
  void convert_row(const Picture& pic, unsigned y, float* r, float* g, float* b);

 private:
  PictureFormat fmt_;
  YcbcrCoefficients coef_{};
  TransferCurve curve_;
  std::vector<float> pb_;  // normalised chroma at luma resolution
  std::vector<float> pr_;
};

}  // namespace vqx::ssimulacra2

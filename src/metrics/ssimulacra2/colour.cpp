#include "metrics/ssimulacra2/colour.hpp"

#include <cmath>
#include <cstdint>

#include "core/kernel_build.hpp"

namespace vqx::ssimulacra2 {

namespace {

LumaWeights weights_of(Matrix m) {
  switch (m) {
    case Matrix::kBt601:
      return kWeightsBt601;
    case Matrix::kBt2020:
      return kWeightsBt2020;
    case Matrix::kBt709:
      break;
  }
  return kWeightsBt709;
}

// The power-law part of each curve (the whole curve for BT.1886 and linear).
double power_part(Transfer t, double v) {
  switch (t) {
    case Transfer::kSrgb:
      return std::pow((v + kSrgbOffset) / kSrgbScale, kSrgbGamma);
    case Transfer::kBt709:
      return std::pow((v + kBt709Offset) / kBt709Scale, kBt709Gamma);
    case Transfer::kBt1886:
      return std::pow(v, kBt1886Gamma);
    case Transfer::kLinear:
      break;
  }
  return v;
}

struct CurveView {
  const float* table;
  float threshold;
  float inv_slope;
};

// v in [0, 1] to linear light: below the curve's threshold its linear
// segment, above it the power law read from the table by linear
// interpolation, in place. (The segments are kept apart because BT.709's do
// not meet: they differ by 5e-5 at the threshold, which one table interval
// would smear.) A function of its own with restrict parameters: inlined, the
// table and the row may alias as far as GCC knows, and its vector loop is
// skipped at run time.
VQX_CLONES void curve_row(float* __restrict v, unsigned n, const float* __restrict table,
                          float threshold, float inv_slope) {
  for (unsigned x = 0; x < n; ++x) {
    v[x] = curve_value(v[x], table, threshold, inv_slope);
  }
}

VQX_FORCE_INLINE void apply_curve(float* v, unsigned n, const CurveView c) {
  curve_row(v, n, c.table, c.threshold, c.inv_slope);
}

// Pointers are restrict and the coefficients copies, so that the loops
// vectorise (GCC honours restrict on parameters only). The clamp and the
// table look-up are separate loops: GCC vectorises neither when they share
// one.
template <typename Sample>
VQX_FORCE_INLINE void ycbcr_row(const Sample* __restrict luma, const float* __restrict pb,
                                const float* __restrict pr, unsigned n, const YcbcrCoefficients c,
                                const CurveView curve, float* __restrict r, float* __restrict g,
                                float* __restrict b) {
  for (unsigned x = 0; x < n; ++x) {
    const float y = normalised(static_cast<float>(luma[x]), c.luma_offset, c.luma_scale);
    const Rgb v = rgb_prime(y, pb[x], pr[x], c);
    r[x] = v.r;
    g[x] = v.g;
    b[x] = v.b;
  }
  apply_curve(r, n, curve);
  apply_curve(g, n, curve);
  apply_curve(b, n, curve);
}

template <typename Sample>
VQX_FORCE_INLINE void grey_row(const Sample* __restrict luma, unsigned n, const YcbcrCoefficients c,
                               const CurveView curve, float* __restrict r, float* __restrict g,
                               float* __restrict b) {
  for (unsigned x = 0; x < n; ++x) {
    r[x] = clamp01(normalised(static_cast<float>(luma[x]), c.luma_offset, c.luma_scale));
  }
  apply_curve(r, n, curve);
  for (unsigned x = 0; x < n; ++x) {
    g[x] = r[x];
    b[x] = r[x];
  }
}

// Chroma row to normalised Pb or Pr at luma resolution (n samples), each
// chroma sample used for 1 (halve = false) or 2 luma columns.
template <typename Sample>
VQX_FORCE_INLINE void chroma_row(const Sample* __restrict in, bool halve, unsigned n,
                                 const YcbcrCoefficients c, float* __restrict out) {
  if (!halve) {
    for (unsigned x = 0; x < n; ++x) {
      out[x] = normalised(static_cast<float>(in[x]), c.chroma_offset, c.chroma_scale);
    }
    return;
  }
  const unsigned pairs = n / 2;
  for (unsigned cx = 0; cx < pairs; ++cx) {
    const float v = normalised(static_cast<float>(in[cx]), c.chroma_offset, c.chroma_scale);
    out[2 * cx] = v;
    out[2 * cx + 1] = v;
  }
  if (n % 2 != 0) {
    out[n - 1] = normalised(static_cast<float>(in[pairs]), c.chroma_offset, c.chroma_scale);
  }
}

VQX_CLONES void ycbcr_row8(const std::uint8_t* luma, const float* pb, const float* pr, unsigned n,
                           const YcbcrCoefficients& c, const CurveView& curve, float* r, float* g,
                           float* b) {
  ycbcr_row(luma, pb, pr, n, c, curve, r, g, b);
}

VQX_CLONES void ycbcr_row16(const std::uint16_t* luma, const float* pb, const float* pr, unsigned n,
                            const YcbcrCoefficients& c, const CurveView& curve, float* r, float* g,
                            float* b) {
  ycbcr_row(luma, pb, pr, n, c, curve, r, g, b);
}

VQX_CLONES void grey_row8(const std::uint8_t* luma, unsigned n, const YcbcrCoefficients& c,
                          const CurveView& curve, float* r, float* g, float* b) {
  grey_row(luma, n, c, curve, r, g, b);
}

VQX_CLONES void grey_row16(const std::uint16_t* luma, unsigned n, const YcbcrCoefficients& c,
                           const CurveView& curve, float* r, float* g, float* b) {
  grey_row(luma, n, c, curve, r, g, b);
}

VQX_CLONES void chroma_row8(const std::uint8_t* in, bool halve, unsigned n,
                            const YcbcrCoefficients& c, float* out) {
  chroma_row(in, halve, n, c, out);
}

VQX_CLONES void chroma_row16(const std::uint16_t* in, bool halve, unsigned n,
                             const YcbcrCoefficients& c, float* out) {
  chroma_row(in, halve, n, c, out);
}

}  // namespace

YcbcrCoefficients ycbcr_coefficients(const Params& params, unsigned bpc) {
  const double k = std::ldexp(1.0, static_cast<int>(bpc) - 8);
  const double max_value = std::ldexp(1.0, static_cast<int>(bpc)) - 1.0;
  YcbcrCoefficients c{};
  if (params.range == Range::kLimited) {
    c.luma_offset = static_cast<float>(kLimitedLumaOffset * k);
    c.luma_scale = static_cast<float>(1.0 / (kLimitedLumaRange * k));
    c.chroma_offset = static_cast<float>(kLimitedChromaOffset * k);
    c.chroma_scale = static_cast<float>(1.0 / (kLimitedChromaRange * k));
  } else {
    c.luma_offset = 0.0f;
    c.luma_scale = static_cast<float>(1.0 / max_value);
    c.chroma_offset = static_cast<float>(std::ldexp(1.0, static_cast<int>(bpc) - 1));
    c.chroma_scale = static_cast<float>(1.0 / max_value);
  }
  const LumaWeights w = weights_of(params.matrix);
  const double kg = 1.0 - w.kr - w.kb;
  c.cr_to_r = static_cast<float>(2.0 * (1.0 - w.kr));
  c.cb_to_b = static_cast<float>(2.0 * (1.0 - w.kb));
  c.cb_to_g = static_cast<float>(2.0 * w.kb * (1.0 - w.kb) / kg);
  c.cr_to_g = static_cast<float>(2.0 * w.kr * (1.0 - w.kr) / kg);
  return c;
}

void TransferCurve::init(Transfer transfer) {
  table.assign(kTransferTableIntervals + 2, 0.0f);
  for (int i = 0; i <= kTransferTableIntervals; ++i) {
    const double v = static_cast<double>(i) / kTransferTableIntervals;
    table[i] = static_cast<float>(power_part(transfer, v));
  }
  // Guard: v = 1 reads entries N and N + 1 (with weight 0 on the latter).
  table[kTransferTableIntervals + 1] = table[kTransferTableIntervals];
  threshold = 0.0f;
  inv_slope = 1.0f;
  if (transfer == Transfer::kSrgb) {
    // The sRGB curve's linear segment includes its threshold (v <= 0.04045):
    // the next float up is where the power law starts.
    threshold = std::nextafter(static_cast<float>(kSrgbThreshold), 1.0f);
    inv_slope = static_cast<float>(1.0 / kSrgbSlope);
  } else if (transfer == Transfer::kBt709) {
    threshold = static_cast<float>(kBt709Threshold);
    inv_slope = static_cast<float>(1.0 / kBt709Slope);
  }
}

TransferCurve transfer_curve(Transfer transfer) {
  TransferCurve c;
  c.init(transfer);
  return c;
}

void LinearRgbConverter::init(const PictureFormat& fmt, const Params& params) {
  fmt_ = fmt;
  coef_ = ycbcr_coefficients(params, fmt.bpc);
  curve_.init(params.transfer);
  const bool colour = fmt.chroma != ChromaFormat::k400;
  pb_.assign(colour ? fmt.width : 0, 0.0f);
  pr_.assign(colour ? fmt.width : 0, 0.0f);
}

void LinearRgbConverter::convert_row(const Picture& pic, unsigned y, float* r, float* g, float* b) {
  const unsigned n = fmt_.width;
  const bool wide = fmt_.bpc > 8;
  const CurveView curve = {curve_.table.data(), curve_.threshold, curve_.inv_slope};
  const Plane& luma = pic.plane(0);
  if (fmt_.chroma == ChromaFormat::k400) {
    if (wide) {
      grey_row16(luma.row<std::uint16_t>(y), n, coef_, curve, r, g, b);
    } else {
      grey_row8(luma.row<std::uint8_t>(y), n, coef_, curve, r, g, b);
    }
    return;
  }
  const bool halve = fmt_.chroma != ChromaFormat::k444;
  const unsigned cy = fmt_.chroma == ChromaFormat::k420 ? y / 2 : y;
  if (wide) {
    chroma_row16(pic.plane(1).row<std::uint16_t>(cy), halve, n, coef_, pb_.data());
    chroma_row16(pic.plane(2).row<std::uint16_t>(cy), halve, n, coef_, pr_.data());
    ycbcr_row16(luma.row<std::uint16_t>(y), pb_.data(), pr_.data(), n, coef_, curve, r, g, b);
  } else {
    chroma_row8(pic.plane(1).row<std::uint8_t>(cy), halve, n, coef_, pb_.data());
    chroma_row8(pic.plane(2).row<std::uint8_t>(cy), halve, n, coef_, pr_.data());
    ycbcr_row8(luma.row<std::uint8_t>(y), pb_.data(), pr_.data(), n, coef_, curve, r, g, b);
  }
}

}  // namespace vqx::ssimulacra2

#include "metrics/ciede/color.hpp"

#include "metrics/ciede/params.hpp"

namespace vqx::ciede {

YuvScale yuv_scale(unsigned bpc) {
  const double scale = static_cast<double>(1U << (bpc - 8));
  return {kLumaOffset * scale, kChromaOffset * scale, 1.0 / (kLumaRange * scale),
          1.0 / (kChromaRange * scale)};
}

}  // namespace vqx::ciede

#include "metrics/float_vif/geometry.hpp"

#include <string>

#include "metrics/float_common/convolve.hpp"
#include "metrics/float_vif/gaussian.hpp"

namespace vqx::float_vif {

Expected<Prescale> prescaled_size(const PictureFormat& fmt, const Config& config) {
  const Params& p = config.params;
  Prescale out;
  out.width = static_cast<unsigned>(static_cast<int>(fmt.width * p.prescale + 0.5));
  out.height = static_cast<unsigned>(static_cast<int>(fmt.height * p.prescale + 0.5));
  if (config.method == float_common::ScaleMethod::kBilinear &&
      out.width > float_common::kBilinearMaxWidth) {
    return Error(Errc::kUnsupported, "float_vif: bilinear prescaling to " +
                                         std::to_string(out.width) +
                                         " columns is over libvmaf's limit of " +
                                         std::to_string(float_common::kBilinearMaxWidth));
  }
  out.rescale = out.width != fmt.width || out.height != fmt.height;
  const unsigned need = float_common::min_source_side(config.method);
  if (out.rescale && (fmt.width < need || fmt.height < need)) {
    return Error(Errc::kUnsupported, "float_vif: prescaling needs a picture of at least " +
                                         std::to_string(need) + "x" + std::to_string(need) +
                                         " with vif_prescale_method=" + p.prescale_method);
  }
  return out;
}

Expected<Scales> scale_sizes(unsigned width, unsigned height, float kernelscale, bool skip_scale0) {
  const int first = skip_scale0 ? 1 : 0;
  Scales out;
  for (int s = 0; s < kScales; ++s) {
    out.filters[s] = gaussian_filter(s, kernelscale);
    const auto taps = static_cast<unsigned>(out.filters[s].size());
    const unsigned need = float_common::min_side_for_taps(taps);
    out.w[s] = s == 0 ? width : out.w[s - 1] / 2;
    out.h[s] = s == 0 ? height : out.h[s - 1] / 2;
    const bool too_small = (s > 0 && (out.w[s - 1] < need || out.h[s - 1] < need)) ||
                           (s >= first && (out.w[s] < need || out.h[s] < need));
    if (too_small) {
      return Error(Errc::kUnsupported,
                   "float_vif: a " + std::to_string(width) + "x" + std::to_string(height) +
                       " picture is too small: scale " + std::to_string(s) + " is " +
                       std::to_string(out.w[s]) + "x" + std::to_string(out.h[s]) + " and its " +
                       std::to_string(taps) + "-tap filter needs " + std::to_string(need) + "x" +
                       std::to_string(need) + " at that scale and the one above");
    }
  }
  return out;
}

}  // namespace vqx::float_vif

#include "metrics/float_motion/geometry.hpp"

#include <string>

#include "metrics/float_common/convolve.hpp"

namespace vqx::float_motion {

namespace {

// The side of a plane as libvmaf sees it: chroma halved with truncation
// (libvmaf picture.c, w >> ss_hor), so for odd sizes libvmaf leaves out the
// last chroma column or row; VQX uses the same top-left part.
unsigned libvmaf_plane_side(unsigned luma, unsigned plane) {
  return plane == luma ? luma : luma / 2;
}

}  // namespace

Expected<std::vector<PlaneGeometry>> plane_geometry(const PictureFormat& fmt,
                                                    const Params& params) {
  const unsigned planes = params.add_uv ? 3U : 1U;
  if (params.add_uv && fmt.plane_count() < 3) {
    return Error(Errc::kUnsupported,
                 "float_motion: motion_add_uv needs chroma planes (the input is 4:0:0)");
  }
  const std::size_t taps = blur_filter(params.filter_size).size();
  const unsigned min_side = float_common::min_side_for_taps(static_cast<unsigned>(taps));
  std::vector<PlaneGeometry> out(planes);
  for (unsigned p = 0; p < planes; ++p) {
    const unsigned w = libvmaf_plane_side(fmt.width, fmt.plane_width(p));
    const unsigned h = libvmaf_plane_side(fmt.height, fmt.plane_height(p));
    if (w < min_side || h < min_side) {
      return Error(Errc::kUnsupported, "float_motion: plane " + std::to_string(p) + " is " +
                                           std::to_string(w) + "x" + std::to_string(h) +
                                           ", below the " + std::to_string(min_side) + "x" +
                                           std::to_string(min_side) + " the " +
                                           std::to_string(taps) + "-tap blur needs");
    }
    PlaneGeometry& g = out[p];
    g.width = w;
    g.height = h;
    if (params.add_scale1) {
      // libvmaf: (int)(w * 0.5 + 0.5), and it refuses what its bilinear
      // scaler cannot hold.
      const auto hw = static_cast<unsigned>(static_cast<int>(w * 0.5 + 0.5));
      const auto hh = static_cast<unsigned>(static_cast<int>(h * 0.5 + 0.5));
      if (hw > float_common::kBilinearMaxWidth) {
        return Error(Errc::kUnsupported, "float_motion: motion_add_scale1 scales to " +
                                             std::to_string(hw) +
                                             " columns, over libvmaf's limit of " +
                                             std::to_string(float_common::kBilinearMaxWidth));
      }
      g.halver.init(float_common::ScaleMethod::kBilinear, w, h, hw, hh);
      g.half_width = hw;
      g.half_height = hh;
    }
  }
  return out;
}

}  // namespace vqx::float_motion

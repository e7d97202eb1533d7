#include "metrics/ssim/geometry.hpp"

#include <string>

#include "metrics/ssim/decimate.hpp"

namespace vqx::ssim {

namespace {

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace

Expected<SsimGeometry> ssim_geometry(int scale_option, unsigned width, unsigned height) {
  const int w = static_cast<int>(width);
  const int h = static_cast<int>(height);
  SsimGeometry g;
  g.factor = scale_factor(scale_option, width, height);
  g.window =
      g.factor > 1 ? Size{decimated_size(w, g.factor), decimated_size(h, g.factor)} : Size{w, h};
  if (g.window.width < kWindow || g.window.height < kWindow) {
    std::string what = "picture " + size_text(w, h);
    if (g.factor > 1) {
      what += ", subsampled by " + std::to_string(g.factor) + " to " +
              size_text(g.window.width, g.window.height) + ",";
    }
    return Error(Errc::kUnsupported, "float_ssim: " + what + " is smaller than the " +
                                         std::to_string(kWindow) + "x" + std::to_string(kWindow) +
                                         " SSIM window");
  }
  return g;
}

Status check_ms_ssim_size(unsigned width, unsigned height) {
  // libvmaf fails every frame of such a picture ("scale below 1x1!") and
  // writes nothing. Five scales with fewer of them, or a window smaller
  // than 11x11, would be another measure, so VQX refuses the picture.
  if (width >= kMsSsimMinSide && height >= kMsSsimMinSide) return Status::Ok();
  const auto w = static_cast<int>(width);
  const auto h = static_cast<int>(height);
  constexpr int kMin = static_cast<int>(kMsSsimMinSide);
  return Error(Errc::kUnsupported, "float_ms_ssim: picture " + size_text(w, h) +
                                       " is too small: its " + std::to_string(kScales) +
                                       " scales (each side halved " + std::to_string(kScales - 1) +
                                       " times) need at least " + size_text(kMin, kMin) +
                                       " for the " + std::to_string(kWindow) + "x" +
                                       std::to_string(kWindow) + " window");
}

std::array<Size, kScales> ms_ssim_scales(unsigned width, unsigned height) {
  std::array<Size, kScales> s;
  s[0] = {static_cast<int>(width), static_cast<int>(height)};
  for (int k = 1; k < kScales; ++k) {
    s[k] = {decimated_size(s[k - 1].width, kLpfFactor),
            decimated_size(s[k - 1].height, kLpfFactor)};
  }
  return s;
}

}  // namespace vqx::ssim

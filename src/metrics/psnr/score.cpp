#include "metrics/psnr/score.hpp"

#include <cmath>

#include "metrics/psnr/params.hpp"

namespace vqx::psnr {

namespace {
// libvmaf's MIN and MAX macros. With a NaN operand both give the second
// operand, which decides aggregate_psnr() for a plane never measured.
double min_of(double a, double b) { return a < b ? a : b; }
double max_of(double a, double b) { return a > b ? a : b; }
}  // namespace

double psnr_max(const PictureFormat& fmt, unsigned plane, std::uint32_t peak, double min_sse) {
  if (min_sse == 0.0) {
    return static_cast<double>(6 * fmt.bpc + 12);
  }
  const bool sub_h = fmt.chroma != ChromaFormat::k444;
  const bool sub_v = fmt.chroma == ChromaFormat::k420;
  const unsigned w = (plane != 0 && sub_h) ? fmt.width / 2 : fmt.width;
  const unsigned h = (plane != 0 && sub_v) ? fmt.height / 2 : fmt.height;
  const double mse = min_sse / static_cast<double>(w * h);
  return std::ceil(10. * std::log10(static_cast<double>(peak * peak) / mse));
}

PlaneScore plane_score(std::uint64_t sse, unsigned width, unsigned height, std::uint32_t peak,
                       double cap) {
  const double mse = static_cast<double>(sse) / static_cast<double>(width * height);
  const double psnr =
      min_of(10. * std::log10(static_cast<double>(peak * peak) / max_of(mse, kMseFloor)), cap);
  return {psnr, mse};
}

double aggregate_psnr(std::uint64_t sse, std::uint64_t pixels, std::uint32_t peak) {
  const std::uint32_t peak2 = peak * peak;
  const double apsnr =
      10 * (std::log10(static_cast<double>(peak2)) + std::log10(static_cast<double>(pixels)) -
            std::log10(static_cast<double>(sse)));
  // Unsigned 64-bit, wrapping on overflow exactly as libvmaf's product does.
  const std::uint64_t scaled = std::uint64_t{peak2} * pixels * 2;
  const double cap = std::ceil(10 * std::log10(static_cast<double>(scaled)));
  return min_of(apsnr, cap);
}

}  // namespace vqx::psnr

#include "metrics/ansnr/scores.hpp"

#include <cmath>
#include <string>

#include "metrics/ansnr/params.hpp"
#include "metrics/float_psnr/params.hpp"

namespace vqx::ansnr {

Status check_size(const PictureFormat& fmt) {
  if (fmt.width < kMinDimension || fmt.height < kMinDimension) {
    return Error(Errc::kUnsupported, "float_ansnr: picture " + std::to_string(fmt.width) + "x" +
                                         std::to_string(fmt.height) + " is too small (at least " +
                                         std::to_string(kMinDimension) + "x" +
                                         std::to_string(kMinDimension) + " is needed)");
  }
  return Status::Ok();
}

void write_scores(const Energies& e, const PictureFormat& fmt, unsigned index, FeatureWriter& out) {
  const double peak = float_psnr::peak(fmt.bpc);
  const double cap = float_psnr::psnr_max(fmt.bpc);
  // ansnr.c compute_ansnr(): the ratio is a float division; the noise
  // floor and the products are in double, left to right.
  const double ansnr =
      e.noise == 0 ? cap : 10.0 * std::log10(static_cast<double>(e.signal / e.noise));
  const double noise = e.noise;
  const double floored = noise > float_psnr::kNoiseFloor ? noise : float_psnr::kNoiseFloor;
  const double anpsnr = 10 * std::log10(peak * peak * static_cast<double>(fmt.width) *
                                        static_cast<double>(fmt.height) / floored);
  out.write(kAnsnr, index, ansnr);
  out.write(kAnpsnr, index, anpsnr < cap ? anpsnr : cap);
}

}  // namespace vqx::ansnr

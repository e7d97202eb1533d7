#include "metrics/float_psnr/score.hpp"

#include <cmath>

#include "metrics/float_psnr/params.hpp"

namespace vqx::float_psnr {

double score(double squared_difference_sum, const PictureFormat& fmt) {
  const double noise =
      squared_difference_sum / static_cast<double>(static_cast<int>(fmt.width * fmt.height));
  const double pk = peak(fmt.bpc);
  const double cap = psnr_max(fmt.bpc);
  const double floored = noise > kNoiseFloor ? noise : kNoiseFloor;
  const double s = 10 * std::log10(pk * pk / floored);
  return s < cap ? s : cap;
}

}  // namespace vqx::float_psnr

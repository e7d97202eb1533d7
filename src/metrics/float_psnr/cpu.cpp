// The float PSNR sum: exact integers up to 12 bits, the reference's own
// arithmetic above (see params.hpp, kMaxExactBpc).
#include "metrics/float_psnr/cpu.hpp"

#include "metrics/float_psnr/params.hpp"
#include "metrics/psnr/cpu.hpp"

namespace vqx::float_psnr {

namespace {

// Deeper than kMaxExactBpc: the reference's arithmetic, one sample after the
// other (float difference, float square, double sum).
double sequential_sum(const Plane& ref, const Plane& dist, unsigned bpc) {
  const float inv_scale = inv_sample_scale(bpc);
  double total = 0;
  for (unsigned y = 0; y < ref.height(); ++y) {
    const std::uint16_t* r = ref.row<std::uint16_t>(y);
    const std::uint16_t* d = dist.row<std::uint16_t>(y);
    for (unsigned x = 0; x < ref.width(); ++x) {
      const float diff =
          static_cast<float>(r[x]) * inv_scale - static_cast<float>(d[x]) * inv_scale;
      const float square = diff * diff;
      total += square;
    }
  }
  return total;
}

}  // namespace

double squared_difference_sum(const Plane& ref, const Plane& dist, unsigned bpc) {
  if (bpc > kMaxExactBpc) {
    return sequential_sum(ref, dist, bpc);
  }
  // Exact (params.hpp): the integer SSE in units of 4^-(bpc-8).
  return scaled_square_sum(psnr::plane_sse(ref, dist, bpc), bpc);
}

}  // namespace vqx::float_psnr

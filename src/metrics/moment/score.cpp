#include "metrics/moment/score.hpp"

namespace vqx::moment {

void write_scores(const Sums& ref, const Sums& dist, const PictureFormat& fmt, unsigned index,
                  FeatureWriter& out) {
  enum Slot : std::size_t { kRef1st, kDis1st, kRef2nd, kDis2nd };
  const double n = static_cast<double>(static_cast<int>(fmt.width * fmt.height));
  out.write(kRef1st, index, ref.sum / n);
  out.write(kDis1st, index, dist.sum / n);
  out.write(kRef2nd, index, ref.sum_squares / n);
  out.write(kDis2nd, index, dist.sum_squares / n);
}

}  // namespace vqx::moment

// float_moment's values from the plane sums: shared by the CPU extractor
// and the GPU twin.
#pragma once

#include "core/extractor.hpp"
#include "metrics/moment/cpu.hpp"

namespace vqx::moment {

// float_moment_ref1st, _dis1st, _ref2nd, _dis2nd: the sums over w * h (an
// int product, as moment.c divides).
void write_scores(const Sums& ref, const Sums& dist, const PictureFormat& fmt, unsigned index,
                  FeatureWriter& out);

}  // namespace vqx::moment

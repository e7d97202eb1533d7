// The CIEDE2000 colour difference of two Lab colours, computed with
// libvmaf's mix of float and double (ciede.c, ciede2000()): every named
// intermediate is a float, each expression is evaluated in the precision C's
// promotions give it. Equal colours give exactly 0.
#pragma once

#include "metrics/ciede/color.hpp"

namespace vqx::ciede {

float ciede2000(const Lab& c1, const Lab& c2);

}  // namespace vqx::ciede

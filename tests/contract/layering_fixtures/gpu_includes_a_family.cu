// expect: layering
// as: src/gpu/runtime.cu
// Planted violation: the device layer reaches into a metric family.
#include "gpu/runtime.hpp"
#include "metrics/adm/params.hpp"

// expect: layering
// as: src/model/resolve.cpp
// Planted violation: the model layer reads a family's own header; it may
// read the families only through the registry (metrics/registry.hpp).
#include "metrics/registry.hpp"
#include "metrics/vif/params.hpp"

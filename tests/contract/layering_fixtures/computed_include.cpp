// expect: layering-unknown
// as: src/core/options.cpp
// Planted violation: a computed #include, which the check cannot read.
#define VQX_HEADER "gpu/pipeline.hpp"
#include VQX_HEADER

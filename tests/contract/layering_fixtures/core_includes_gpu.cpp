// expect: layering
// as: src/core/context.cpp
// Planted violation: the floor opens the GPU pipeline (what core/context.cpp
// did before the engine existed): core would depend on the layer above it.
#include <memory>

#include "core/extractor.hpp"
#include "gpu/pipeline.hpp"

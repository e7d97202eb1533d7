// expect: layering-unknown
// as: src/core/options.cpp
// Planted violation: a relative path climbs out of the folder, past the
// table.
#include "../gpu/pipeline.hpp"

// expect: layering
// as: src/core/options.cpp
// Planted violation: the floor reads models.
#include "core/options.hpp"
#include "model/model.hpp"

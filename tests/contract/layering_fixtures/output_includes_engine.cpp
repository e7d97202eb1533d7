// expect: layering
// as: src/output/json_writer.cpp
// Planted violation: a writer reads the engine's collector instead of the
// Report it is given.
#include "engine/feature_collector.hpp"
#include "output/writers.hpp"

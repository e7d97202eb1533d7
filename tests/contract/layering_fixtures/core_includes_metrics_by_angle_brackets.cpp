// expect: layering
// as: src/core/extractor.cpp
// Planted violation: one of our headers named with <...>, as if third-party,
// is still one of ours.
#include <metrics/families.hpp>
#include <string>

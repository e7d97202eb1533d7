// expect: layering-unknown
// as: tools/vqx/main.cpp
// Planted violation: a header named from the repository root (src/io/...),
// which no include root gives.
#include "src/io/reader_detail.hpp"

// expect: layering-unknown
// as: src/plugins/loader.cpp
// Planted violation: a new folder with no row in the table: nothing says
// what it may include.
#include "vqx/vqx.hpp"

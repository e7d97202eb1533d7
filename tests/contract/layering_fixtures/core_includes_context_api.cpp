// expect: layering
// as: src/core/picture.cpp
// Planted violation: the floor includes the Context API, the engine's face:
// a call into it would make core depend on the engine.
#include "vqx/picture.hpp"
#include "vqx/vqx.hpp"

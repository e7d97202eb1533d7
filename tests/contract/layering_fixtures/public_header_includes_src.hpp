// expect: layering
// as: include/vqx/vqx.hpp
// Planted violation: a public header includes a private one, which an
// installed VQX does not have.
#pragma once

#include "core/options.hpp"
#include "vqx/status.hpp"

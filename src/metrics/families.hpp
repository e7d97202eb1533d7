// One accessor per extractor family; src/metrics/registry.cpp lists them all.
#pragma once

#include "core/extractor.hpp"

namespace vqx {

const ExtractorFamily& integer_vif_family();     // src/metrics/vif/extractor.cpp
const ExtractorFamily& integer_adm_family();     // src/metrics/adm/extractor.cpp
const ExtractorFamily& integer_motion_family();  // src/metrics/motion/extractor.cpp

}  // namespace vqx

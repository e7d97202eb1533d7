// The model JSON files built into the library. The definition is generated
// at build time by cmake/BuiltinModels.cmake from every *.json under models/
// (builtin_models.cpp in the build's generated folder).
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace vqx::detail {

struct BuiltinModelFile {
  std::string_view version;  // file name without ".json", e.g. "vmaf_v0.6.1"
  std::string_view path;     // relative to models/, e.g. "vmaf_v1.0.16/vmaf_v1.0.16_3d0h.json"
  const unsigned char* data;
  std::size_t size;
};

// Sorted by version.
std::span<const BuiltinModelFile> builtin_model_files();

}  // namespace vqx::detail

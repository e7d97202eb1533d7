// What VQX's own tests may ask a Context beyond its public API: how its GPU
// pipeline uploaded the frames' planes (tests/gpu/pinned_test.cpp checks
// that fetched pictures take the direct path). Defined in context.cpp.
#pragma once

#include <optional>

#include "gpu/pipeline.hpp"
#include "vqx/vqx.hpp"

namespace vqx::detail {

struct ContextInternals {
  // The pipeline's statistics; none for a context without a GPU pipeline.
  static std::optional<gpu::UploadStats> upload_stats(const Context& ctx);
};

}  // namespace vqx::detail

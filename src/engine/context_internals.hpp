// What VQX's own code may ask a Context beyond its public API: how its GPU
// pipeline uploaded the frames' planes (tests/gpu/pinned_test.cpp checks
// that fetched pictures take the direct path), and the batch's shared
// reference uploads (engine/batch.cpp). Defined in context.cpp.
#pragma once

#include <memory>
#include <optional>

#include "gpu/pipeline.hpp"
#include "vqx/vqx.hpp"

namespace vqx::detail {

struct ContextInternals {
  // The pipeline's statistics; none for a context without a GPU pipeline.
  static std::optional<gpu::UploadStats> upload_stats(const Context& ctx);
  // Before the first frame: a GPU context uploads the reference pictures
  // noted with a batch frame number through `share` (nothing on the CPU).
  static void share_reference(Context& ctx, const std::shared_ptr<gpu::SharedReference>& share);
};

}  // namespace vqx::detail

// What VQX's own code may ask a Context beyond its public API: how its GPU
// pipeline uploaded the frames' planes (tests/gpu/pinned_test.cpp checks
// that fetched pictures take the direct path), and the batch's shared
// reference uploads (engine/batch.cpp). Defined in context.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "gpu/pipeline.hpp"
#include "vqx/vqx.hpp"

namespace vqx::detail {

struct ContextInternals {
  // The pipeline's statistics; none for a context without a GPU pipeline.
  static std::optional<gpu::UploadStats> upload_stats(const Context& ctx);
  // Before the first frame: a GPU context uploads the reference pictures
  // read_batch_pictures() numbers through `share` (nothing on the CPU).
  static void share_reference(Context& ctx, const std::shared_ptr<gpu::SharedReference>& share);
  // read_pictures(), with `ref` holding frame `reference_frame` (1-based)
  // of the batch's reference, the samples every clip's context is given.
  static Status read_batch_pictures(Context& ctx, Picture ref, Picture dist, unsigned index,
                                    std::uint64_t reference_frame);
};

}  // namespace vqx::detail

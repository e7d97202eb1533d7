// What VQX's own code may do to a Picture beyond its public API: note that
// a reader has checked every sample against the bit depth while copying
// (the context then need not check again; any mutable access to a plane
// clears the note).
#pragma once

#include "vqx/picture.hpp"

namespace vqx::detail {

struct PictureInternals {
  static void mark_samples_checked(Picture& pic) { pic.samples_checked_ = true; }
  [[nodiscard]] static bool samples_checked(const Picture& pic) { return pic.samples_checked_; }
};

}  // namespace vqx::detail

// What VQX's own code may do to a Picture beyond its public API: note that
// a reader has checked every sample against the bit depth while copying
// (the context then need not check again; any mutable access to a plane
// clears the note), note that it filled the luma alone, and move planes between pictures without
// copying them (a 4:0:0 picture's luma into a 4:2:0 one: engine/neutral_chroma.hpp).
#pragma once

#include <utility>

#include "vqx/picture.hpp"

namespace vqx::detail {

struct PictureInternals {
  static void mark_samples_checked(Picture& pic) { pic.samples_checked_ = true; }
  [[nodiscard]] static bool samples_checked(const Picture& pic) { return pic.samples_checked_; }
  // A reader filled only the luma plane; the others hold whatever they
  // held (VideoReader::read_planes). Any mutable access clears the note.
  static void mark_luma_only(Picture& pic) { pic.luma_only_ = true; }
  [[nodiscard]] static bool luma_only(const Picture& pic) { return pic.luma_only_; }

  // Takes plane `p` out of `pic` (which keeps an empty plane there).
  static Plane take_plane(Picture& pic, unsigned p) { return std::move(pic.planes_[p]); }
  // A picture of `fmt` made of the given planes, which must have its plane
  // sizes and sample width (unused planes empty).
  static Picture assemble(const PictureFormat& fmt, Plane y, Plane cb, Plane cr) {
    Picture pic;
    pic.fmt_ = fmt;
    pic.planes_ = {std::move(y), std::move(cb), std::move(cr)};
    return pic;
  }
};

}  // namespace vqx::detail

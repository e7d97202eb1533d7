// What VQX's own code may do to a Picture beyond its public API: note that
// a reader has checked every sample against the bit depth while copying
// (the context then need not check again; any mutable access to a plane
// clears the note), note that it filled the luma alone, move planes
// between pictures without copying them (a 4:0:0 picture's luma into a
// 4:2:0 one: engine/neutral_chroma.hpp), and make a picture in memory from
// a given allocator (a GPU context's pinned pictures: gpu/pipeline.cu).
#pragma once

#include <utility>

#include "vqx/picture.hpp"

namespace vqx::detail {

struct PictureInternals {
  // Picture::make, with every plane's rows from `memory` (which must
  // outlive the picture): the same layout (64-byte aligned stride, zeroed
  // padding), a kLimit error when `memory` has none to give.
  static Expected<Picture> make_in(const PictureFormat& fmt, const PlaneMemory& memory) {
    return Picture::make_in(fmt, &memory);
  }

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

// 4:0:0 (gray) pictures scored as what users get everywhere else: FFmpeg's
// conversion of gray to 4:2:0, the luma unchanged and both chroma planes at
// the neutral value 2^(bpc - 1) (128 at 8 bits). The context does it once
// for every family, and only when a registered extractor reads chroma
// (ChromaRule, core/family.hpp): luma-only runs take the 4:0:0 pictures as
// they are. The luma plane is moved, not copied, and the chroma planes,
// filled once, go back and forth with the context's recycled pictures.
// Not thread-safe: the context serialises every use (read_pictures on its
// calling thread, fetch_picture on the readers' threads) with its neutral
// chroma mutex.
#pragma once

#include <utility>
#include <vector>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

class NeutralChroma {
 public:
  // For pictures of `gray` (4:0:0).
  explicit NeutralChroma(const PictureFormat& gray);

  [[nodiscard]] const PictureFormat& gray_format() const { return gray_; }
  // The 4:2:0 format the families see.
  [[nodiscard]] const PictureFormat& colour_format() const { return colour_; }

  // `gray`'s luma (moved) with neutral chroma planes, as a 4:2:0 picture; a
  // kLimit error when memory runs out.
  Expected<Picture> widen(Picture gray);
  // The inverse, for a recycled picture: its luma (moved) as a gray
  // picture; its chroma planes are kept for the next widen().
  Picture narrow(Picture colour);

 private:
  PictureFormat gray_;
  PictureFormat colour_;
  std::vector<std::pair<Plane, Plane>> spare_;  // neutral chroma, ready for widen()
};

}  // namespace vqx

#include "engine/neutral_chroma.hpp"

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include "core/picture_internals.hpp"

namespace vqx {

namespace {

Plane neutral_plane(const PictureFormat& fmt, unsigned p) {
  Plane plane(fmt.plane_width(p), fmt.plane_height(p), fmt.bytes_per_sample());
  const std::uint32_t neutral = 1U << (fmt.bpc - 1);
  for (unsigned y = 0; y < plane.height(); ++y) {
    if (fmt.bpc == 8) {
      std::fill_n(plane.row<std::uint8_t>(y), plane.width(), static_cast<std::uint8_t>(neutral));
    } else {
      std::fill_n(plane.row<std::uint16_t>(y), plane.width(), static_cast<std::uint16_t>(neutral));
    }
  }
  return plane;
}

}  // namespace

NeutralChroma::NeutralChroma(const PictureFormat& gray) : gray_(gray), colour_(gray) {
  colour_.chroma = ChromaFormat::k420;
}

Expected<Picture> NeutralChroma::widen(Picture gray) {
  std::pair<Plane, Plane> chroma;
  if (spare_.empty()) {
    try {
      chroma = {neutral_plane(colour_, 1), neutral_plane(colour_, 2)};
    } catch (const std::bad_alloc&) {
      return Error(Errc::kLimit, "out of memory allocating the neutral chroma of a " +
                                     std::to_string(gray_.width) + "x" +
                                     std::to_string(gray_.height) + " 4:0:0 picture");
    }
  } else {
    chroma = std::move(spare_.back());
    spare_.pop_back();
  }
  return detail::PictureInternals::assemble(colour_, detail::PictureInternals::take_plane(gray, 0),
                                            std::move(chroma.first), std::move(chroma.second));
}

Picture NeutralChroma::narrow(Picture colour) {
  // The families only read their pictures: the chroma is still neutral.
  spare_.emplace_back(detail::PictureInternals::take_plane(colour, 1),
                      detail::PictureInternals::take_plane(colour, 2));
  return detail::PictureInternals::assemble(gray_, detail::PictureInternals::take_plane(colour, 0),
                                            Plane(), Plane());
}

}  // namespace vqx

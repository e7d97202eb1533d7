#include "engine/sample_range.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/kernel_build.hpp"
#include "core/picture_internals.hpp"

namespace vqx {

namespace {

// The OR of every sample of a plane of 16-bit samples: one pass at memory
// speed (vectorised, one clone per instruction set).
VQX_CLONES std::uint32_t or_of_samples(const std::uint8_t* data, std::size_t stride, unsigned width,
                                       unsigned height) {
  std::uint16_t acc = 0;
  for (unsigned y = 0; y < height; ++y) {
    const auto* row = reinterpret_cast<const std::uint16_t*>(data + (y * stride));
    for (unsigned x = 0; x < width; ++x) acc |= row[x];
  }
  return acc;
}

const char* plane_name(unsigned p, unsigned planes) {
  if (planes == 1) return "Y";
  return p == 0 ? "Y" : p == 1 ? "Cb" : "Cr";
}

// The error for the first sample of `plane` above `max` (there is one).
Status sample_error(const Plane& plane, unsigned p, unsigned planes, unsigned bpc,
                    const char* which, unsigned index) {
  const unsigned max = (1U << bpc) - 1;
  for (unsigned y = 0; y < plane.height(); ++y) {
    for (unsigned x = 0; x < plane.width(); ++x) {
      const std::uint32_t v = plane.at(x, y);
      if (v <= max) continue;
      return Error(Errc::kInvalidArgument,
                   "frame " + std::to_string(index) + ": the " + which + " picture has a sample " +
                       std::to_string(v) + " at (" + std::to_string(x) + ", " + std::to_string(y) +
                       ") of plane " + std::to_string(p) + " (" + plane_name(p, planes) +
                       "), above the " + std::to_string(bpc) + "-bit maximum " +
                       std::to_string(max));
    }
  }
  return Status::Ok();
}

}  // namespace

Status check_sample_range(const Picture& pic, const char* which, unsigned index) {
  const unsigned bpc = pic.bpc();
  // 8 and 16 bits: every value the storage holds is within the depth.
  if (bpc == 8 || bpc == 16 || detail::PictureInternals::samples_checked(pic)) {
    return Status::Ok();
  }
  for (unsigned p = 0; p < pic.plane_count(); ++p) {
    const Plane& plane = pic.plane(p);
    const std::uint32_t acc =
        or_of_samples(plane.data(), plane.stride_bytes(), plane.width(), plane.height());
    if ((acc >> bpc) != 0) return sample_error(plane, p, pic.plane_count(), bpc, which, index);
  }
  return Status::Ok();
}

}  // namespace vqx

#include "engine/sample_range.hpp"

#include <algorithm>
#include <array>
#include <atomic>
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

// Rows of at least this many bytes per share of the check: fewer is not
// worth a helper's wake-up.
constexpr std::size_t kBytesPerShare = std::size_t{1} << 20;

}  // namespace

Status check_sample_range(const Picture& ref, const Picture& dist, unsigned index,
                          const ForkJoin* fork_join) {
  const Picture* pics[2] = {&ref, &dist};
  const char* names[2] = {"reference", "distorted"};
  const unsigned bpc = ref.bpc();
  // 8 and 16 bits: every value the storage holds is within the depth.
  if (bpc == 8 || bpc == 16) return Status::Ok();
  struct Part {
    const Plane* plane;
    unsigned pic;
    unsigned p;
  };
  std::array<Part, 6> parts{};  // up to three planes of each picture
  unsigned count = 0;
  std::size_t bytes = 0;
  for (unsigned k = 0; k < 2; ++k) {
    if (detail::PictureInternals::samples_checked(*pics[k])) continue;
    for (unsigned p = 0; p < pics[k]->plane_count(); ++p) {
      const Plane& plane = pics[k]->plane(p);
      parts[count++] = {&plane, k, p};
      bytes += std::size_t{plane.width()} * plane.height() * 2;
    }
  }
  const unsigned helpers = fork_join == nullptr ? 0 : fork_join->helpers();
  const auto jobs = static_cast<unsigned>(std::min<std::size_t>(helpers, bytes / kBytesPerShare));
  const unsigned shares = jobs + 1;
  // The OR of every sample of each part, each share adding its rows'.
  std::array<std::atomic<std::uint32_t>, 6> ors{};
  auto run_share = [&](unsigned share) {
    for (unsigned i = 0; i < count; ++i) {
      const Plane& plane = *parts[i].plane;
      const unsigned y0 = plane.height() * share / shares;
      const unsigned y1 = plane.height() * (share + 1) / shares;
      ors[i].fetch_or(or_of_samples(plane.data() + std::size_t{y0} * plane.stride_bytes(),
                                    plane.stride_bytes(), plane.width(), y1 - y0));
    }
  };
  if (jobs == 0) {
    run_share(0);
  } else {
    fork_join->run(jobs, run_share);
  }
  for (unsigned i = 0; i < count; ++i) {
    if ((ors[i].load() >> bpc) != 0) {
      const Part& part = parts[i];
      return sample_error(*part.plane, part.p, pics[part.pic]->plane_count(), bpc, names[part.pic],
                          index);
    }
  }
  return Status::Ok();
}

}  // namespace vqx

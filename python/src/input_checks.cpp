#include "input_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace vqx::python {

namespace {

std::string describe(const PictureFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + to_string(f.chroma) +
         " " + std::to_string(f.bpc) + "-bit";
}

}  // namespace

Status check_same_format(const VideoReader& ref, const VideoReader& dist) {
  if (ref.format() == dist.format()) return Status::Ok();
  return Error(Errc::kMismatch, "reference " + ref.path() + " is " + describe(ref.format()) +
                                    " but distorted " + dist.path() + " is " +
                                    describe(dist.format()));
}

Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, bool ignore_frame_rate) {
  const VideoInfo& r = ref.info();
  const VideoInfo& d = dist.info();
  if (ignore_frame_rate || !frame_rate_known(r) || !frame_rate_known(d) || same_frame_rate(r, d)) {
    return Status::Ok();
  }
  return Error(Errc::kMismatch, "reference " + ref.path() + " is " + describe_frame_rate(r) +
                                    " but distorted " + dist.path() + " is " +
                                    describe_frame_rate(d) +
                                    ": frames paired by number would not show the same moments "
                                    "(give ignore_frame_rate=True to pair them anyway)");
}

Status check_frame_counts(const VideoReader& ref, const VideoReader& dist, unsigned frame_cnt) {
  const std::int64_t r = ref.info().frame_count;
  const std::int64_t d = dist.info().frame_count;
  if (r < 0 || d < 0) return Status::Ok();
  const std::int64_t limit = frame_cnt != 0 ? frame_cnt : std::numeric_limits<std::int64_t>::max();
  if (std::min(r, limit) == std::min(d, limit)) return Status::Ok();
  return Error(Errc::kMismatch, "reference " + ref.path() + " has " + std::to_string(r) +
                                    " frames but distorted " + dist.path() + " has " +
                                    std::to_string(d) +
                                    ": they must have as many (frame_cnt scores only the first "
                                    "ones)");
}

}  // namespace vqx::python

#include "input_checks.hpp"

#include "vqx/alignment.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace vqx::cli {

namespace {

std::string describe(const PictureFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + to_string(f.chroma) +
         " " + std::to_string(f.bpc) + "-bit";
}

}  // namespace

Status check_output_is_not_an_input(const CliOptions& o) {
  return check_output_is_not_an_input(o.output, o);
}

Status check_output_is_not_an_input(const std::string& output, const CliOptions& o) {
  std::vector<NamedInput> inputs = {{"reference video", o.reference}};
  for (const std::string& d : o.distorted) inputs.push_back({"distorted video", d});
  return check_output_is_not_one_of(output, inputs);
}

Status check_output_is_not_one_of(const std::string& output,
                                  const std::vector<NamedInput>& inputs) {
  struct stat out {};
  if (output.empty() || ::stat(output.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) {
    return Status::Ok();
  }
  for (const NamedInput& input : inputs) {
    struct stat in {};
    if (::stat(input.path.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
        in.st_ino == out.st_ino) {
      return Error(Errc::kInvalidArgument, "--output " + output + " is the " + input.what + " " +
                                               input.path + ": the report would replace it");
    }
  }
  return Status::Ok();
}

Status check_same_format(const VideoReader& ref, const VideoReader& dist) {
  if (ref.format() == dist.format()) return Status::Ok();
  PictureFormat resized = dist.format();
  resized.width = ref.format().width;
  resized.height = ref.format().height;
  const std::string hint =
      resized == ref.format()
          ? " (give --scale to scale the distorted video to the reference's size)"
          : "";
  return Error(Errc::kInvalidArgument, "reference " + ref.path() + " is " + describe(ref.format()) +
                                           " but distorted " + dist.path() + " is " +
                                           describe(dist.format()) + hint);
}

Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, const CliOptions& o) {
  const VideoInfo& r = ref.info();
  const VideoInfo& d = dist.info();
  if (o.ignore_frame_rate || !frame_rate_known(r) || !frame_rate_known(d) ||
      same_frame_rate(r, d)) {
    return Status::Ok();
  }
  return Error(Errc::kInvalidArgument,
               "reference " + ref.path() + " is " + describe_frame_rate(r) + " but distorted " +
                   dist.path() + " is " + describe_frame_rate(d) +
                   ": frames paired by number would not show the same moments (convert one to "
                   "the other's rate, or give --ignore_frame_rate to pair them anyway)");
}

Status check_frame_counts(const VideoReader& ref, const VideoReader& dist, const CliOptions& o,
                          int offset) {
  const std::int64_t ref_frames = ref.info().frame_count;
  const std::int64_t dist_frames = dist.info().frame_count;
  if (ref_frames < 0 || dist_frames < 0) return Status::Ok();
  struct Side {
    const VideoReader& reader;
    std::int64_t frames;
    unsigned skip;
    const char* skip_option;
  };
  const OffsetSkips shift = offset_skips(offset);
  const unsigned ref_shift = shift.ref;
  const unsigned dist_shift = shift.dist;
  const Side sides[2] = {
      {ref, ref_frames, o.frame_skip_ref + ref_shift,
       ref_shift != 0 ? "--frame_skip_ref and the offset" : "--frame_skip_ref"},
      {dist, dist_frames, o.frame_skip_dist + dist_shift,
       dist_shift != 0 ? "--frame_skip_dist and the offset" : "--frame_skip_dist"}};
  for (const Side& s : sides) {
    if (s.skip > s.frames) {
      return Error(Errc::kInvalidArgument,
                   s.reader.path() + ": cannot skip " + std::to_string(s.skip) +
                       " frames: the file has only " + std::to_string(s.frames));
    }
  }
  const std::int64_t limit =
      o.frame_cnt != 0 ? o.frame_cnt : std::numeric_limits<std::int64_t>::max();
  const std::int64_t ref_left = ref_frames - sides[0].skip;
  const std::int64_t dist_left = dist_frames - sides[1].skip;
  if (std::min(ref_left, limit) == std::min(dist_left, limit)) return Status::Ok();
  const auto count = [](const Side& s, std::int64_t left) {
    std::string text = s.reader.path() + " has " + std::to_string(left) + " frames";
    if (s.skip != 0) text += " after " + std::string(s.skip_option) + " " + std::to_string(s.skip);
    return text;
  };
  const bool dist_short = dist_left < ref_left;
  const Side& shorter = dist_short ? sides[1] : sides[0];
  const Side& longer = dist_short ? sides[0] : sides[1];
  return Error(Errc::kInvalidArgument,
               count(shorter, dist_short ? dist_left : ref_left) + " but " +
                   count(longer, dist_short ? ref_left : dist_left) +
                   ": the reference and the distorted video must have as many frames (--frame_cnt "
                   "scores only the first ones)");
}

}  // namespace vqx::cli

// vqx/run_checks.hpp: the front ends' pre-run checks and read-ahead.
#include "vqx/run_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <thread>

#include "vqx/alignment.hpp"

namespace vqx {

std::string describe(const PictureFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + to_string(f.chroma) +
         " " + std::to_string(f.bpc) + "-bit";
}

Status check_same_format(const VideoReader& ref, const VideoReader& dist,
                         const RunCheckNames& names) {
  if (ref.format() == dist.format()) return Status::Ok();
  PictureFormat resized = dist.format();
  resized.width = ref.format().width;
  resized.height = ref.format().height;
  const std::string hint =
      resized == ref.format() && !names.scale.empty()
          ? " (give " + names.scale + " to scale the distorted video to the reference's size)"
          : "";
  return Error(Errc::kMismatch, "reference " + ref.path() + " is " + describe(ref.format()) +
                                    " but distorted " + dist.path() + " is " +
                                    describe(dist.format()) + hint);
}

Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, bool ignore_frame_rate,
                         const RunCheckNames& names) {
  const VideoInfo& r = ref.info();
  const VideoInfo& d = dist.info();
  if (ignore_frame_rate || !frame_rate_known(r) || !frame_rate_known(d) || same_frame_rate(r, d)) {
    return Status::Ok();
  }
  return Error(Errc::kMismatch,
               "reference " + ref.path() + " is " + describe_frame_rate(r) + " but distorted " +
                   dist.path() + " is " + describe_frame_rate(d) +
                   ": frames paired by number would not show the same moments (convert one to "
                   "the other's rate, or give " +
                   names.ignore_frame_rate + " to pair them anyway)");
}

Status check_frame_counts(const VideoReader& ref, const VideoReader& dist,
                          const ScoredFrames& scored, const RunCheckNames& names) {
  const std::int64_t ref_frames = ref.info().frame_count;
  const std::int64_t dist_frames = dist.info().frame_count;
  if (ref_frames < 0 || dist_frames < 0) return Status::Ok();
  struct Side {
    const VideoReader& reader;
    std::int64_t frames;
    std::int64_t skip;
    std::string skip_option;
  };
  const OffsetSkips shift = offset_skips(scored.offset);
  const auto option = [](const std::string& name, unsigned by_offset) {
    return by_offset != 0 ? name + " and the offset" : name;
  };
  const Side sides[2] = {{ref, ref_frames, std::int64_t{scored.skip_ref} + shift.ref,
                          option(names.frame_skip_ref, shift.ref)},
                         {dist, dist_frames, std::int64_t{scored.skip_dist} + shift.dist,
                          option(names.frame_skip_dist, shift.dist)}};
  for (const Side& s : sides) {
    if (s.skip > s.frames) {
      return Error(Errc::kInvalidArgument,
                   s.reader.path() + ": cannot skip " + std::to_string(s.skip) +
                       " frames: the file has only " + std::to_string(s.frames));
    }
  }
  const std::int64_t limit =
      scored.frame_cnt != 0 ? scored.frame_cnt : std::numeric_limits<std::int64_t>::max();
  const std::int64_t ref_left = ref_frames - sides[0].skip;
  const std::int64_t dist_left = dist_frames - sides[1].skip;
  if (std::min(ref_left, limit) == std::min(dist_left, limit)) return Status::Ok();
  const auto count = [](const Side& s, std::int64_t left) {
    std::string text = s.reader.path() + " has " + std::to_string(left) + " frames";
    if (s.skip != 0) text += " after " + s.skip_option + " " + std::to_string(s.skip);
    return text;
  };
  const bool dist_short = dist_left < ref_left;
  const Side& shorter = dist_short ? sides[1] : sides[0];
  const Side& longer = dist_short ? sides[0] : sides[1];
  return Error(Errc::kMismatch,
               count(shorter, dist_short ? dist_left : ref_left) + " but " +
                   count(longer, dist_short ? ref_left : dist_left) +
                   ": the reference and the distorted video must have as many frames (" +
                   names.frame_cnt + " scores only the first ones)");
}

Expected<std::unique_ptr<Context>> create_context(const ContextSettings& settings,
                                                  const std::vector<std::string>& models,
                                                  const std::vector<std::string>& features,
                                                  const RunCheckNames& names) {
  VQX_ASSIGN_OR_RETURN(std::unique_ptr<Context> ctx, Context::create(settings));
  for (const auto& m : models) {
    if (auto s = ctx->use_features_from_model(m); !s.ok()) {
      return Error(s.code(), names.model + " " + m + ": " + s.message());
    }
  }
  for (const auto& f : features) {
    if (auto s = ctx->use_feature(f); !s.ok()) {
      return Error(s.code(), names.feature + " " + f + ": " + s.message());
    }
  }
  return ctx;
}

ReadAhead::Settings read_ahead_settings(const Context& ctx, const PictureFormat& format,
                                        const ReadAheadRequest& request) {
  const ReadAhead::Load load{.cores = std::max(std::thread::hardware_concurrency(), 1U),
                             .scoring_threads = request.scoring_threads,
                             .gpu = ctx.device_description() != "cpu",
                             .format = format,
                             .planes_read = ctx.planes_read()};
  const unsigned depth =
      request.depth.value_or(std::max(ReadAhead::auto_depth(load), request.readers.value_or(0)));
  return {.depth = depth,
          .readers = request.readers.value_or(ReadAhead::auto_readers(load, depth))};
}

}  // namespace vqx

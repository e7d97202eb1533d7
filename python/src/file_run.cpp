#include "file_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "errors.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/run_checks.hpp"

namespace vqx::python {

namespace {

// vqx.score()'s arguments, as the library's checks name them (one skip for
// both files; it does not scale).
const RunCheckNames& python_names() {
  static const RunCheckNames names{.ignore_frame_rate = "ignore_frame_rate=True",
                                   .frame_cnt = "frame_cnt",
                                   .frame_skip_ref = "skip",
                                   .frame_skip_dist = "skip",
                                   .scale = ""};
  return names;
}

std::optional<unsigned> frames_to_score(const VideoReader& ref, unsigned frame_cnt, unsigned skip) {
  const std::int64_t known = ref.info().frame_count < 0 ? -1 : ref.info().frame_count - skip;
  if (known < 0) return frame_cnt != 0 ? std::optional<unsigned>(frame_cnt) : std::nullopt;
  const auto frames = static_cast<unsigned>(std::min<std::int64_t>(known, UINT32_MAX));
  return frame_cnt != 0 ? std::min(frames, frame_cnt) : frames;
}

}  // namespace

ScoredRun score_files(const FileRequest& request, RunObserver& observer) {
  std::unique_ptr<VideoReader> ref = take(open_video(request.reference, request.raw));
  std::unique_ptr<VideoReader> dist = take(open_video(request.distorted, request.raw));
  check(check_same_format(*ref, *dist, python_names()));
  check(check_frame_rates(*ref, *dist, request.ignore_frame_rate, python_names()));
  const std::int64_t known = ref->info().frame_count;
  if (known >= 0 && request.skip >= known) {
    throw Failure(Error(Errc::kInvalidArgument,
                        request.reference + ": cannot skip " + std::to_string(request.skip) +
                            " frames: the file has only " + std::to_string(known)));
  }
  check(check_frame_counts(
      *ref, *dist,
      {.skip_ref = request.skip, .skip_dist = request.skip, .frame_cnt = request.frame_cnt},
      python_names()));

  std::unique_ptr<Context> ctx = make_context(request.settings, request.models, request.features);
  // Only the planes the features read: the luma alone for VMAF.
  ref->read_planes(ctx->planes_read());
  dist->read_planes(ctx->planes_read());
  check(ref->skip(request.skip));
  check(dist->skip(request.skip));
  // As the CLI's `auto` picks it for this machine and run.
  const ReadAhead::Settings settings =
      read_ahead_settings(*ctx, ref->format(), {.scoring_threads = request.settings.threads});
  check(ctx->reserve_pictures(2 * settings.depth));
  Context& c = *ctx;
  std::unique_ptr<ReadAhead> pairs = take(ReadAhead::start(
      *ref, *dist, settings, [&c](const PictureFormat& f) { return c.fetch_picture(f); }));

  const std::optional<unsigned> total = frames_to_score(*ref, request.frame_cnt, request.skip);
  const auto start = std::chrono::steady_clock::now();
  unsigned n = 0;
  for (; request.frame_cnt == 0 || n < request.frame_cnt; ++n) {
    Picture rp;
    Picture dp;
    if (!take(pairs->next(rp, dp))) break;
    check(ctx->read_pictures(std::move(rp), std::move(dp), n));
    observer.frames_done(n + 1, total);
  }
  pairs->stop();  // frame_cnt reached: the readers stop before the flush
  if (n == 0)
    throw Failure(Error(Errc::kInvalidArgument, request.reference + ": no frames to score"));
  check(ctx->flush());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RunResults results =
      collect_results(*ctx, request.settings.subsample, seconds > 0 ? n / seconds : 0);
  return {std::move(ctx), std::move(results)};
}

}  // namespace vqx::python

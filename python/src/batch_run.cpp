#include "batch_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <thread>

#include "errors.hpp"
#include "vqx/alignment.hpp"
#include "vqx/batch.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/run_checks.hpp"
#include "vqx/scaled_video.hpp"

namespace vqx::python {

namespace {

Expected<std::unique_ptr<VideoReader>> open_clip(const BatchRequest& r, const std::string& path,
                                                 const PictureFormat& reference) {
  VQX_ASSIGN_OR_RETURN(std::unique_ptr<VideoReader> dist, open_video(path, r.raw));
  if (!r.scale_filter) return dist;
  VQX_ASSIGN_OR_RETURN(const ScaleFilter filter, parse_scale_filter(*r.scale_filter));
  return open_scaled(std::move(dist), reference.width, reference.height, filter);
}

// score_many()'s arguments, as the library's checks name them.
const RunCheckNames& batch_names() {
  static const RunCheckNames names{.ignore_frame_rate = "ignore_frame_rate=True",
                                   .frame_cnt = "frame_cnt",
                                   .frame_skip_ref = "",
                                   .frame_skip_dist = "",
                                   .scale = "scale=True"};
  return names;
}

struct Clip {
  std::unique_ptr<VideoReader> reader;
  std::unique_ptr<Context> context;
};

// Opens clip `i`, checks it, finds or takes its offset and positions it.
Status prepare(const BatchRequest& r, std::size_t i, const VideoReader& ref,
               const LumaFrames& sync_frames, Clip& c, ClipOutcome& outcome,
               BatchClip& batch) {
  const std::string& path = r.distorted[i];
  VQX_ASSIGN_OR_RETURN(c.reader, open_clip(r, path, ref.format()));
  VQX_RETURN_IF_ERROR(check_same_format(ref, *c.reader, batch_names()));
  VQX_RETURN_IF_ERROR(check_frame_rates(ref, *c.reader, r.ignore_frame_rate, batch_names()));
  int offset = r.dist_offsets.empty() ? 0 : r.dist_offsets[i];
  if (r.sync_window) {
    // A second reader: the search reads the clip's first frames.
    VQX_ASSIGN_OR_RETURN(std::unique_ptr<VideoReader> probe, open_clip(r, path, ref.format()));
    VQX_ASSIGN_OR_RETURN(const SyncResult found,
                         find_offset(sync_frames, *probe, {.window = *r.sync_window}));
    offset = found.offset;
  }
  outcome.offset = offset;
  VQX_RETURN_IF_ERROR(check_frame_counts(ref, *c.reader,
                                         {.frame_cnt = r.frame_cnt, .offset = offset},
                                         batch_names()));
  c.reader->read_planes(c.context->planes_read());
  VQX_RETURN_IF_ERROR(c.reader->skip(offset < 0 ? static_cast<unsigned>(-offset) : 0));
  batch.dist = c.reader.get();
  batch.context = c.context.get();
  batch.ref_offset = offset > 0 ? static_cast<unsigned>(offset) : 0;
  return Status::Ok();
}

}  // namespace

std::vector<ClipOutcome> score_batch_files(const BatchRequest& r, RunObserver& observer) {
  std::unique_ptr<VideoReader> ref = take(open_video(r.reference, r.raw));
  LumaFrames sync_frames;
  if (r.sync_window) {
    std::unique_ptr<VideoReader> probe = take(open_video(r.reference, r.raw));
    sync_frames =
        take(read_luma_frames(*probe, SyncSettings{.window = *r.sync_window}.frames_needed()));
  }
  std::vector<ClipOutcome> outcomes(r.distorted.size());
  std::vector<Clip> clips(r.distorted.size());
  std::vector<BatchClip> batch;
  std::vector<std::size_t> scored;  // clips[scored[k]] is batch[k]
  for (std::size_t i = 0; i < clips.size(); ++i) {
    // The run's models and features: an error there is every clip's (thrown).
    clips[i].context = make_context(r.settings, r.models, r.features);
    BatchClip b;
    outcomes[i].status = prepare(r, i, *ref, sync_frames, clips[i], outcomes[i], b);
    if (!outcomes[i].status.ok()) continue;
    batch.push_back(b);
    scored.push_back(i);
  }
  if (batch.empty()) return outcomes;

  Context& first = *batch.front().context;
  ref->read_planes(first.planes_read());
  const ReadAhead::Load load{.cores = std::max(std::thread::hardware_concurrency(), 1U),
                             .scoring_threads = r.settings.threads,
                             .gpu = first.device_description() != "cpu",
                             .format = ref->format(),
                             .planes_read = first.planes_read()};
  const unsigned depth = ReadAhead::auto_depth(load);
  for (const BatchClip& b : batch) check(b.context->reserve_pictures(2 * depth));
  std::optional<unsigned> total;
  if (ref->info().frame_count >= 0) {
    total = static_cast<unsigned>(std::min<std::int64_t>(ref->info().frame_count, UINT32_MAX));
    if (r.frame_cnt != 0) total = std::min(*total, r.frame_cnt);
  }
  // The observer may throw (KeyboardInterrupt): the batch is stopped and
  // the exception carried out once score_batch() has returned.
  std::exception_ptr stopped;
  const auto start = std::chrono::steady_clock::now();
  const Status run = score_batch(
      *ref, batch, {.frame_cnt = r.frame_cnt, .depth = depth, .on_frame = [&](unsigned n) {
                      try {
                        observer.frames_done(n, total);
                        return true;
                      } catch (...) {
                        stopped = std::current_exception();
                        return false;
                      }
                    }});
  if (stopped) std::rethrow_exception(stopped);
  check(run);  // the reference's error ends every clip
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t k = 0; k < batch.size(); ++k) {
    ClipOutcome& o = outcomes[scored[k]];
    o.status = batch[k].status;
    if (!o.status.ok()) continue;
    if (batch[k].frames == 0) {
      o.status = Error(Errc::kInvalidArgument, r.distorted[scored[k]] + ": no frames to score");
      continue;
    }
    Clip& c = clips[scored[k]];
    RunResults results = collect_results(*c.context, r.settings.subsample,
                                         seconds > 0 ? batch[k].frames / seconds : 0);
    o.run = ScoredRun{std::move(c.context), std::move(results)};
  }
  return outcomes;
}

}  // namespace vqx::python

// score_batch() (vqx/batch.hpp): one reference read, N clips scored. Each
// video is read through a lane of the read-ahead (io/read_lane.hpp: a thread
// of its own when the depth is 1 or more, else read in turn here), the
// reference into pictures of the batch's own (recycled), each clip into its
// context's; every reference frame is copied into a picture of each clip's
// context (a plane copy, a fraction of a millisecond at 1080p against tens
// of milliseconds of scoring), so that every context owns its pictures as
// in a run of its own. GPU contexts upload each reference frame once for
// all of them: the copies are handed over with the reference frame's
// number and the contexts share their uploads (gpu::SharedReference).
#include "vqx/batch.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/picture_internals.hpp"
#include "engine/context_internals.hpp"
#include "gpu/pipeline.hpp"
#include "io/read_lane.hpp"

namespace vqx {

namespace {

using io_detail::LaneItem;
using io_detail::ReadLane;

// The reference's pictures: those given back are handed out again, so
// that no picture is allocated in steady state.
class Recycler {
 public:
  Expected<Picture> fetch(const PictureFormat& f) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!free_.empty() && free_.back().format() == f) {
        Picture p = std::move(free_.back());
        free_.pop_back();
        return p;
      }
    }
    return Picture::make(f);
  }
  void give_back(Picture p) {
    const std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(p));
  }

 private:
  std::mutex mutex_;
  std::vector<Picture> free_;
};

// One video's frames, from a lane's thread or read here.
class Source {
 public:
  Source(VideoReader& reader, PictureSource pictures, unsigned depth)
      : reader_(reader), pictures_(std::move(pictures)) {
    if (depth >= 1 && reader.interruptible()) {
      lane_ = io_detail::start_stream_lane(reader, pictures_, depth);
    }
  }
  ~Source() { stop(); }
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  LaneItem take() { return lane_ ? lane_->take() : io_detail::read_item(reader_, pictures_); }
  void stop() {
    if (lane_) lane_->stop();
  }

 private:
  VideoReader& reader_;
  PictureSource pictures_;
  std::unique_ptr<ReadLane> lane_;
};

// `ref`'s samples in a picture of `ctx`'s pool, with the reader's notes
// (luma alone, samples checked).
Expected<Picture> copy_into(const Picture& ref, Context& ctx) {
  VQX_ASSIGN_OR_RETURN(Picture copy, ctx.fetch_picture(ref.format()));
  const bool luma_only = detail::PictureInternals::luma_only(ref);
  const unsigned planes = luma_only ? 1 : ref.plane_count();
  for (unsigned p = 0; p < planes; ++p) {
    const Plane& from = ref.plane(p);
    Plane& to = copy.plane(p);
    // One format, one layout: the planes' strides are equal.
    std::memcpy(to.data(), from.data(), from.stride_bytes() * from.height());
  }
  if (luma_only) detail::PictureInternals::mark_luma_only(copy);
  if (detail::PictureInternals::samples_checked(ref)) {
    detail::PictureInternals::mark_samples_checked(copy);
  }
  return copy;
}

struct Lane {
  BatchClip& clip;
  std::unique_ptr<Source> source;
  bool active = true;

  void end(Status s) {
    clip.status = std::move(s);
    active = false;
    if (source) source->stop();
  }
};

}  // namespace

Status score_batch(VideoReader& ref, std::vector<BatchClip>& clips, const BatchSettings& settings) {
  for (const BatchClip& c : clips) {
    if (c.dist == nullptr || c.context == nullptr) {
      return Error(Errc::kInvalidArgument, "score_batch: a clip without its reader or context");
    }
  }
  const std::shared_ptr<gpu::SharedReference> uploads = gpu::make_shared_reference();
  for (BatchClip& c : clips) detail::ContextInternals::share_reference(*c.context, uploads);
  auto recycler = std::make_shared<Recycler>();
  std::vector<Lane> lanes;
  lanes.reserve(clips.size());
  std::unique_ptr<Source> reference;
  try {
    reference = std::make_unique<Source>(
        ref, [recycler](const PictureFormat& f) { return recycler->fetch(f); }, settings.depth);
    for (BatchClip& c : clips) {
      c.status = Status::Ok();
      c.frames = 0;
      Context* ctx = c.context;
      lanes.push_back(
          Lane{c, std::make_unique<Source>(
                      *c.dist, [ctx](const PictureFormat& f) { return ctx->fetch_picture(f); },
                      settings.depth)});
    }
  } catch (const std::system_error& e) {
    return Error(Errc::kLimit,
                 std::string("cannot start the reader threads (out of memory?): ") + e.what());
  }
  const auto any_active = [&lanes] {
    for (const Lane& l : lanes) {
      if (l.active) return true;
    }
    return false;
  };
  Status batch;
  unsigned ref_frames = 0;
  while (any_active()) {
    LaneItem r = reference->take();
    if (!r.status.ok()) {
      batch = r.status;
      for (Lane& l : lanes) {
        if (l.active) l.end(r.status);
      }
      break;
    }
    for (Lane& l : lanes) {
      if (!l.active || ref_frames < l.clip.ref_offset) continue;
      LaneItem d = l.source->take();
      if (!d.status.ok()) {
        l.end(d.status);
        continue;
      }
      if (!r.frame || !d.frame) {
        if (r.frame != d.frame) {
          const std::string& shorter = r.frame ? l.clip.dist->path() : ref.path();
          const std::string& longer = r.frame ? ref.path() : l.clip.dist->path();
          l.end(Error(Errc::kMismatch, shorter + " ended after " + std::to_string(l.clip.frames) +
                                           " frames, before " + longer));
        } else {
          l.active = false;  // both ended: scored to the end
        }
        continue;
      }
      Expected<Picture> copy = copy_into(r.picture, *l.clip.context);
      if (!copy.ok()) {
        l.end(copy.status());
        continue;
      }
      if (Status s = detail::ContextInternals::read_batch_pictures(
              *l.clip.context, std::move(*copy), std::move(d.picture), l.clip.frames,
              ref_frames + 1);
          !s.ok()) {
        l.end(s);
        continue;
      }
      ++l.clip.frames;
      if (settings.frame_cnt != 0 && l.clip.frames == settings.frame_cnt) l.active = false;
    }
    if (!r.frame) {
      // The reference ended before a clip's first pair (an offset past its end).
      for (Lane& l : lanes) {
        if (l.active) l.active = false;
      }
      break;
    }
    recycler->give_back(std::move(r.picture));
    ++ref_frames;
    if (settings.on_frame && !settings.on_frame(ref_frames)) {
      batch = Error(Errc::kCancelled,
                    "interrupted after " + std::to_string(ref_frames) + " reference frames");
      for (Lane& l : lanes) {
        if (l.active) l.end(batch);
      }
      break;
    }
  }
  reference->stop();
  for (Lane& l : lanes) {
    l.source->stop();
    if (!l.clip.status.ok()) continue;
    if (l.clip.frames == 0) {
      l.clip.status = Error(Errc::kInvalidArgument,
                            l.clip.dist->path() + ": no frames to score against " + ref.path());
      continue;
    }
    l.clip.status = l.clip.context->flush();
  }
  return batch;
}

}  // namespace vqx

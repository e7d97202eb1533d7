// Scoring several distorted clips against one reference in one pass (the
// CLI's `-d a.mp4 -d b.mp4 ...`): the reference is read (decoded) once, and
// each frame of it is copied into a picture of every clip's context, which
// scores it against that clip's frame. One context per clip, so that each
// clip's results are what a run of that clip alone gives. Implemented by
// src/engine (batch.cpp).
//
//   std::vector<vqx::BatchClip> clips;  // each: an opened reader and a context
//   clips.push_back({.dist = a.get(), .context = ctx_a.get()});
//   clips.push_back({.dist = b.get(), .context = ctx_b.get()});
//   vqx::score_batch(*ref, clips, {});
//   for (auto& c : clips) if (c.status.ok()) c.context->write_output(...);
//
// A clip's own failure (its reader's error, a clip shorter or longer than the
// reference, its context's error) ends that clip alone, in its status; the
// others go on. A reference's error ends every clip still scoring.
#pragma once

#include <functional>
#include <vector>

#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

struct BatchClip {
  // The distorted clip, positioned at its first frame to score (skips
  // done), and the context that scores it (models and features
  // registered). Neither is owned; both outlive score_batch().
  VideoReader* dist = nullptr;
  Context* context = nullptr;
  // Reference frames (from where the reference stands) passed over before
  // this clip's first pair: a positive --dist-offset (vqx/alignment.hpp).
  // A negative one is a skip of the clip's own first frames, done before.
  unsigned ref_offset = 0;

  // Set by score_batch(): OK when every pair was scored and the context
  // flushed; else why the clip ended (the message names the file).
  Status status;
  unsigned frames = 0;  // pairs handed to the context
};

struct BatchSettings {
  // Pairs per clip at most (0: all).
  unsigned frame_cnt = 0;
  // Frames of each video read ahead on a thread of its own (as
  // ReadAhead::Settings::depth); 0: every video is read in turn on the
  // calling thread. Each context should keep room for 2 x depth pictures
  // (Context::reserve_pictures).
  unsigned depth = 0;
  // Called after each reference frame handed out, with the number of
  // reference frames so far; returning false stops the batch (the clips
  // still scoring then carry the batch's "interrupted" error, Errc::kCancelled).
  std::function<bool(unsigned)> on_frame;
};

// Scores every clip against `ref` and flushes each context that scored to
// the end. The returned status is the batch's own failure: the reference's
// error, or a stop asked by on_frame (each clip then carries it too); OK
// otherwise, whatever the clips' own statuses.
Status score_batch(VideoReader& ref, std::vector<BatchClip>& clips, const BatchSettings& settings);

}  // namespace vqx

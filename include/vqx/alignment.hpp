// Finding how a distorted clip is shifted in time against its reference (the
// CLI's --sync): frames dropped or added at the start by an encoder or a
// capture. Implemented by src/io (alignment.cpp).
//
// An offset is the reference frame that the distorted clip's first frame
// shows: 3 when the distorted clip lacks the reference's first 3 frames
// (its frame 0 is the reference's frame 3), -2 when it has 2 frames of its
// own before the reference's first. The CLI's --dist-offset takes the same.
//
//   auto ref_frames = vqx::read_luma_frames(*ref, vqx::SyncSettings{}.frames_needed());
//   auto found = vqx::find_offset(ref_frames.value(), *dist, {});
//   // found->offset, found->psnr
#pragma once

#include <vector>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

struct SyncSettings {
  // Offsets from -window to +window are tried.
  unsigned window = 30;
  // Pairs compared for each offset: the first `frames` of the aligned clips.
  unsigned frames = 10;
  // Frames of each clip that find_offset() may read.
  [[nodiscard]] unsigned frames_needed() const { return window + frames; }
};

struct SyncResult {
  int offset = 0;
  // The luma PSNR (dB) over the compared pairs at that offset: the PSNR of
  // their mean squared error (capped at kSyncMaxPsnr for equal frames).
  double psnr = 0;
  unsigned pairs = 0;  // pairs compared
};

inline constexpr double kSyncMaxPsnr = 100.0;

// The luma planes of the first `count` frames of `video` (fewer when it is
// shorter), reading the luma alone where the reader can.
Expected<std::vector<Plane>> read_luma_frames(VideoReader& video, unsigned count);

// Reads the first settings.frames_needed() frames of `dist` (from where it
// stands) and returns the offset within the window whose first pairs have
// the highest luma PSNR against `reference` (read_luma_frames of the
// reference, frames_needed() of them). Every offset is compared on as many
// pairs: `frames`, or for short clips the most that any offset has (the
// offsets that cannot have that many are left out). A tie goes to the
// offset nearer 0 (then the positive one). Errors: a reading error; frames
// of another size or depth; a clip without frames.
Expected<SyncResult> find_offset(const std::vector<Plane>& reference, VideoReader& dist,
                                 const SyncSettings& settings);

}  // namespace vqx

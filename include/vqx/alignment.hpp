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
//   // found->offset, found->psnr, found->pairs
#pragma once

#include <vector>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

// The frames an offset passes over before the first pair: the reference's
// first `offset` (offset > 0) or the distorted clip's first -offset.
struct OffsetSkips {
  unsigned ref = 0;
  unsigned dist = 0;
};
[[nodiscard]] constexpr OffsetSkips offset_skips(int offset) {
  if (offset >= 0) return {.ref = static_cast<unsigned>(offset), .dist = 0};
  return {.ref = 0, .dist = static_cast<unsigned>(-(offset + 1)) + 1U};  // -INT_MIN overflows
}

struct SyncSettings {
  // Offsets from -window to +window are tried.
  unsigned window = 30;
  // Pairs compared for each offset: the first `frames` of the aligned clips.
  unsigned frames = 10;
  // Short clips give the far offsets fewer pairs: each offset is compared
  // on the pairs it has, and one with fewer than min_pairs (at most
  // `frames`) is not compared at all (too few frames to tell offsets apart).
  unsigned min_pairs = 5;
  // Frames of each clip that find_offset() may read.
  [[nodiscard]] unsigned frames_needed() const { return window + frames; }
};

struct SyncResult {
  int offset = 0;
  // The luma PSNR (dB) over the compared pairs at that offset: the PSNR of
  // their mean squared error (capped at kSyncMaxPsnr for equal frames).
  double psnr = 0;
  unsigned pairs = 0;  // pairs compared at that offset
  // The offsets compared: -window..window, narrower when the clips are too
  // short for the far ones (fewer than min_pairs pairs there).
  int first_compared = 0;
  int last_compared = 0;
};

// The luma planes of a clip's first frames, with their bit depth.
struct LumaFrames {
  unsigned bpc = 8;
  std::vector<Plane> planes;
};

inline constexpr double kSyncMaxPsnr = 100.0;

// The luma planes of the first `count` frames of `video` (fewer when it is
// shorter), reading the luma alone where the reader can.
Expected<LumaFrames> read_luma_frames(VideoReader& video, unsigned count);

// Reads the first settings.frames_needed() frames of `dist` (from where it
// stands) and returns the offset within the window whose pairs have the
// highest luma PSNR against `reference` (read_luma_frames of the reference,
// frames_needed() of them): the PSNR of the mean squared error over the
// first `frames` pairs at that offset, or over those it has when the clips
// are short (at least min_pairs; SyncResult says which offsets were
// compared). A tie goes to the offset nearer 0 (then the positive one).
// Errors: a reading error; frames of another size or bit depth; clips too
// short for min_pairs pairs at any offset.
Expected<SyncResult> find_offset(const LumaFrames& reference, VideoReader& dist,
                                 const SyncSettings& settings);

}  // namespace vqx

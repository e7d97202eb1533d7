// The checks a front end makes on its two videos once both are open, before
// any frame is scored (what can be known up front is refused up front, not
// after scoring every frame before the fault), and the read-ahead it then
// starts. The CLI (tools/vqx) and the Python package (python/src) both call
// these; each passes how it spells its own parameters (RunCheckNames), so
// that a message names the option or argument the user gave. Implemented
// by src/engine (run_checks.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vqx/picture.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

// A front end's names for the parameters the messages mention.
struct RunCheckNames {
  std::string ignore_frame_rate;    // "--ignore_frame_rate", "ignore_frame_rate=True"
  std::string frame_cnt;            // "--frame_cnt", "frame_cnt"
  std::string frame_skip_ref;       // "--frame_skip_ref"
  std::string frame_skip_dist;      // "--frame_skip_dist"
  std::string scale;                // "--scale"; empty: the front end cannot scale (no hint)
  std::string model = "model";      // "--model"
  std::string feature = "feature";  // "--feature"
};

// A context of `settings` computing `models` (use_features_from_model) and
// `features` (use_feature); an error names the one refused: "<names.model>
// <spec>: <why>".
Expected<std::unique_ptr<Context>> create_context(const ContextSettings& settings,
                                                  const std::vector<std::string>& models,
                                                  const std::vector<std::string>& features,
                                                  const RunCheckNames& names);

// "176x144 420 8-bit".
std::string describe(const PictureFormat& f);

// The two videos have the same size, chroma format and bit depth
// (kMismatch). When the size alone differs and the front end can scale,
// the message suggests names.scale.
Status check_same_format(const VideoReader& ref, const VideoReader& dist,
                         const RunCheckNames& names);

// Frames are paired by number: at different rates the pairs would show
// different moments and the score would be wrong, so known rates that
// differ are refused (kMismatch) unless `ignore_frame_rate` says the
// pairing is meant.
Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, bool ignore_frame_rate,
                         const RunCheckNames& names);

// What a run scores of each video: frames passed over first, then at most
// frame_cnt pairs (0: all). `offset`: the distorted video's offset
// (vqx/alignment.hpp), which skips frames of one of them besides.
struct ScoredFrames {
  unsigned skip_ref = 0;
  unsigned skip_dist = 0;
  unsigned frame_cnt = 0;
  int offset = 0;
};

// When both files' frame counts are known (raw and Y4M files, not pipes):
// neither skip passes the file's end (kInvalidArgument), and the frames
// each side scores agree (kMismatch).
Status check_frame_counts(const VideoReader& ref, const VideoReader& dist,
                          const ScoredFrames& scored, const RunCheckNames& names);

// The read-ahead's settings for a run of `ctx` on videos of `format`: a
// depth and a number of reading threads given, or `auto` (nullopt) as
// ReadAhead picks them for this machine and run; readers alone given: the
// read-ahead is at least that deep.
struct ReadAheadRequest {
  unsigned scoring_threads = 0;  // the context's ContextSettings::threads
  std::optional<unsigned> depth = std::nullopt;
  std::optional<unsigned> readers = std::nullopt;
};
ReadAhead::Settings read_ahead_settings(const Context& ctx, const PictureFormat& format,
                                        const ReadAheadRequest& request);

}  // namespace vqx

// The steps of a run that the one-clip run (main.cpp) and the batch
// (batch_run.cpp) share: the context with its models and features, the
// read-ahead's settings, opening a distorted clip (scaled with --scale) and
// finding its offset (--sync).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "vqx/alignment.hpp"
#include "vqx/output_files.hpp"
#include "vqx/picture.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx::cli {

// Prints "vqx: <message>" on stderr; returns the exit status 1.
int fail(const std::string& message);
int fail(const Status& s);

// The raw parameters -w -h -p -b give, if any.
Expected<std::optional<RawVideoParams>> raw_params(const CliOptions& o);

// A context with the run's settings, models and features (the messages
// name the option: "--model X: ...").
Expected<std::unique_ptr<Context>> create_context(const CliOptions& o,
                                                  const std::shared_ptr<OutputFiles>& files);

// --read_ahead and --read_threads, `auto` as the read-ahead picks it for
// this machine and run; --read_threads N alone reads at least N ahead.
ReadAhead::Settings read_ahead_settings(const CliOptions& o, const Context& ctx,
                                        const PictureFormat& format);

// Opens a distorted clip; with --scale, one of another size than
// `reference` is scaled to it.
Expected<std::unique_ptr<VideoReader>> open_distorted(const CliOptions& o, const std::string& path,
                                                      const std::optional<RawVideoParams>& raw,
                                                      const PictureFormat& reference);

// The reference's first frames for --sync (luma planes), read from
// --frame_skip_ref on through a reader of their own.
Expected<LumaFrames> sync_reference_frames(const CliOptions& o,
                                           const std::optional<RawVideoParams>& raw);

// --sync for one clip: its offset against the reference's first frames
// (read_luma_frames of the reference after --frame_skip_ref), the clip read
// from --frame_skip_dist on by a reader of its own (the one that scores it
// was opened before and stays unread). Unless --quiet, one line on stderr
// says what was found: "vqx: a.mp4: --sync: offset 3 (luma PSNR 41.20 dB
// over 10 pairs)", and when the clips were too short for some offsets of
// the window, which were compared ("...; offsets -2 to 30 compared, the
// clips are too short for the others").
Expected<int> sync_clip(const CliOptions& o, const LumaFrames& reference, const std::string& path,
                        const std::optional<RawVideoParams>& raw,
                        const PictureFormat& reference_format);

}  // namespace vqx::cli

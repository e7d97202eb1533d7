// The checks vqx makes on its two inputs once both are open, before any
// frame is scored: what can be known up front is refused up front, not
// after scoring every frame before the fault. The checks of the videos are
// the library's (vqx/run_checks.hpp, shared with the Python package), here
// with the CLI's option names; the output check is the CLI's own.
#pragma once

#include <string>
#include <vector>

#include "cli_options.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::cli {

// One input of a command, as the check below names it: what it is
// ("reference video", "run") and its path.
struct NamedInput {
  std::string what;
  std::string path;
};

// A report written over one of the inputs would destroy it when the run
// succeeds (the rename replaces the file): refused, whatever the path's
// spelling (a link, ./, another name of the same file: same device and
// inode). The scoring run, the batch and `vqx report` all check with this.
Status check_output_is_not_one_of(const std::string& output, const std::vector<NamedInput>& inputs);

// The scoring run's output against its reference and distorted videos.
Status check_output_is_not_an_input(const CliOptions& o);
// The same for one output of a batch (any of its inputs).
Status check_output_is_not_an_input(const std::string& output, const CliOptions& o);

// The two videos have the same size, chroma format and bit depth (a size
// that differs alone: the message suggests --scale).
Status check_same_format(const VideoReader& ref, const VideoReader& dist);

// Frames are paired by number: at different rates the pairs would show
// different moments and the score would be wrong, so known rates that
// differ are refused unless --ignore_frame_rate says the pairing is meant.
Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, const CliOptions& o);

// When both files' frame counts are known (raw and Y4M files, not pipes),
// the frames each run scores after its skip and --frame_cnt must agree.
// `offset`: the clip's --dist-offset (or --sync's), which skips frames of
// one of them besides --frame_skip_ref/--frame_skip_dist.
Status check_frame_counts(const VideoReader& ref, const VideoReader& dist, const CliOptions& o,
                          int offset = 0);

}  // namespace vqx::cli

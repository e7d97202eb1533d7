// The checks vqx.score() makes on its two files once both are open, before
// any frame is scored, as the CLI makes them (tools/vqx/input_checks.hpp),
// with the Python parameters' names in the messages.
#pragma once

#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::python {

// The same size, chroma format and bit depth.
Status check_same_format(const VideoReader& ref, const VideoReader& dist);
// Known frame rates that differ are refused unless `ignore_frame_rate`:
// frames paired by number would not show the same moments.
Status check_frame_rates(const VideoReader& ref, const VideoReader& dist, bool ignore_frame_rate);
// When both files tell their frame counts, the frames scored (the first
// `frame_cnt` when not 0) must be as many in each.
Status check_frame_counts(const VideoReader& ref, const VideoReader& dist, unsigned frame_cnt);

}  // namespace vqx::python

// vqx.score(): two files scored as the CLI scores them (tools/vqx/main.cpp):
// both opened with open_video, checked against each other before any frame
// is scored, read ahead into the context's pool, scored and flushed. Plain
// C++: the Python side only watches the run (RunObserver).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "setup_context.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx::python {

struct FileRequest {
  std::string reference;
  std::string distorted;
  std::optional<RawVideoParams> raw;  // geometry of raw .yuv input
  std::vector<std::string> models;
  std::vector<std::string> features;
  ContextSettings settings;
  unsigned frame_cnt = 0;  // 0: every frame
  // Frames of both videos passed over before the first scored (read and
  // dropped where the format cannot seek): vqx.dask's segments.
  unsigned skip = 0;
  bool ignore_frame_rate = false;
};

// Told after every frame; it may throw to end the run (the Python side
// raises KeyboardInterrupt from there), which then unwinds cleanly.
class RunObserver {
 public:
  // `total`: the frames the run will score, when the files tell it.
  virtual void frames_done(unsigned done, std::optional<unsigned> total) = 0;

 protected:
  RunObserver() = default;
  RunObserver(const RunObserver&) = default;
  RunObserver& operator=(const RunObserver&) = default;
  ~RunObserver() = default;
};

struct ScoredRun {
  std::unique_ptr<Context> context;  // flushed: write_output() reads it
  RunResults results;
};

// Throws Failure with the library's message (naming the file or the
// option) on any error.
ScoredRun score_files(const FileRequest& request, RunObserver& observer);

}  // namespace vqx::python

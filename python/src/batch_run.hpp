// vqx.score_many(): several distorted files against one reference, read
// once (vqx::score_batch, include/vqx/batch.hpp), as the CLI's batch
// (tools/vqx/batch_run.cpp) scores them: --scale, --dist-offset and --sync
// included. Each clip ends with its own results or its own error; what
// fails every clip (a bad model, the reference's error) throws.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "file_run.hpp"
#include "vqx/status.hpp"

namespace vqx::python {

struct BatchRequest {
  std::string reference;
  std::vector<std::string> distorted;
  std::optional<RawVideoParams> raw;
  std::vector<std::string> models;
  std::vector<std::string> features;
  ContextSettings settings;
  unsigned frame_cnt = 0;
  bool ignore_frame_rate = false;
  std::optional<std::string> scale_filter;  // set: --scale with this filter
  std::vector<int> dist_offsets;            // one per clip (empty: all 0)
  std::optional<unsigned> sync_window;      // set: --sync within this window
};

struct ClipOutcome {
  std::optional<ScoredRun> run;  // set when the clip was scored
  Status status;                 // else why it failed (names the file)
  std::optional<int> offset;     // the offset used (found by sync, or given)
};

// `observer` sees the reference frames read.
std::vector<ClipOutcome> score_batch_files(const BatchRequest& request, RunObserver& observer);

}  // namespace vqx::python

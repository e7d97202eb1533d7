// A run as `vqx report` reads it: the JSON that `vqx --json` writes, or the
// reference `vmaf` tool's (the same schema without "settings"), read back
// into the Report the writers print (output/report.hpp).
#pragma once

#include <string>

#include "output/report.hpp"
#include "vqx/status.hpp"

namespace vqx::html {

struct RunFile {
  std::string path;  // as given
  // Every metric's values in `values`: NaN where the frame lacks the metric
  // or has null (the writers' non-finite value: NaN, +inf or -inf).
  Report report;
};

// Reads `path`. Errors start with the path: it cannot be read, it is not
// JSON, it has no frames, or a frame, value or pooled entry has the wrong
// type.
Expected<RunFile> read_run_file(const std::string& path);

}  // namespace vqx::html

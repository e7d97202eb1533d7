// An HTML report of one or more runs: the JSON files that `vqx --json`
// (or the reference `vmaf` tool) writes, compared on one self-contained
// page (inline SVG and CSS; no script, no network): per metric a chart of
// the per-frame values with every run overlaid and a histogram, the pooled
// values of every run, each run's N worst frames by the main metric, and
// each run's settings (docs/report.md).
//
//   auto page = vqx::html_report({"x264.json", "x265.json"}, {.worst_frames = 5});
//   vqx::Status s = vqx::write_html_report({"a.json", "b.json"}, "report.html");
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vqx/output_files.hpp"
#include "vqx/status.hpp"

namespace vqx {

struct HtmlReportOptions {
  std::string title = {};  // the page's title; empty: "VQX report"
  // The lowest-scoring frames listed per run (0: no such table).
  unsigned worst_frames = 10;
  // The metrics shown, in this order; each must be in every run. Empty:
  // every metric, in the first run's order (then every run must have the
  // same metrics). The first is the main metric (the worst frames' score);
  // by default it is the first model score (the first run's "settings"
  // name the models; without them, the first metric whose name starts with
  // "vmaf"), else the first metric.
  std::vector<std::string> metrics = {};
};

// The page, or an error naming the file at fault: one that cannot be read,
// is not JSON, has no frames or a value that is not a number, lacks a
// chosen metric, or whose metrics differ from the first run's.
Expected<std::string> html_report(const std::vector<std::string>& json_paths,
                                  const HtmlReportOptions& options = {});

// html_report() written to `output_path` as Context::write_output() writes
// its file (vqx/output_files.hpp): the file appears only when complete, and
// on an error no file is left and what was at the path stays; "-" and
// /dev/stdout are written straight through. `files`: the set the file
// belongs to (null: one of its own, renamed into place when written).
Status write_html_report(const std::vector<std::string>& json_paths, const std::string& output_path,
                         const HtmlReportOptions& options = {},
                         const std::shared_ptr<OutputFiles>& files = nullptr);

}  // namespace vqx

// The runs one report compares: read, checked against each other, and the
// metrics it shows chosen (vqx/html_report.hpp says the rules).
#pragma once

#include <string>
#include <vector>

#include "output/html/run_file.hpp"
#include "vqx/html_report.hpp"
#include "vqx/status.hpp"

namespace vqx::html {

struct RunSet {
  std::vector<RunFile> runs;
  std::vector<std::string> labels;   // per run: its file name, or its path where names repeat
  std::vector<std::string> metrics;  // shown, in order
  std::string main_metric;           // the worst frames' score
};

// Errors name the file at fault (or the option, for no files at all).
Expected<RunSet> read_run_set(const std::vector<std::string>& paths,
                              const HtmlReportOptions& options);

// Run `r`'s values of `metric` (it has them: read_run_set checked).
const std::vector<double>& values_of(const RunFile& r, const std::string& metric);

}  // namespace vqx::html

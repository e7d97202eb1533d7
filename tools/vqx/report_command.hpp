// `vqx report RUN.json [MORE.json ...] -o report.html`: the HTML report of
// vqx/html_report.hpp, as a subcommand of vqx (docs/report.md).
#pragma once

#include <memory>

#include "vqx/output_files.hpp"

namespace vqx::cli {

// argv[0] is "report". `files`: the process's set (the signal thread closes
// it), which holds the report until it is complete. Returns the exit status.
int run_report_command(int argc, const char* const* argv,
                       const std::shared_ptr<OutputFiles>& files);

}  // namespace vqx::cli

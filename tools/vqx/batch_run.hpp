// vqx with several -d: every distorted clip scored against the one reference
// in one run (vqx/batch.hpp), each clip's report written where -o says
// (a folder, or a pattern with {name}), and a table of the pooled scores on
// stdout. A clip that fails is named on stderr and the others still give
// their outputs; the exit status is then 1. docs/batch.md.
#pragma once

#include <memory>

#include "cli_options.hpp"
#include "vqx/output_files.hpp"

namespace vqx::cli {

int run_batch(const CliOptions& o, const std::shared_ptr<OutputFiles>& files);

}  // namespace vqx::cli

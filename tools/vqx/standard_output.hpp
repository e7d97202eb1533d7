// What vqx writes on its standard output, and where its pooled scores go.
//
// Standard output carries what the user asked for: the pooled scores
// ("vmaf: 76.668905"), --version, --help, or the report itself (-o -,
// -o /dev/stdout, or any path that is the same file). A write there that
// fails (a full disk, a closed pipe, a closed standard output) is an error:
// exit status 1, never a silent 0. Standard error carries the
// diagnostics: the progress line, the errors, and the pooled scores when
// standard output carries the report, so that the stream holds the report
// alone (`vqx --json -o /dev/stdout | jq .`). (The reference `vmaf` prints
// its pooled scores on standard error, and only on a terminal.) A failed
// write to standard error cannot be reported and is not an error.
#pragma once

#include <string>
#include <string_view>

#include "vqx/status.hpp"

namespace vqx::cli {

// Call first in main(). A standard descriptor (0, 1 or 2) that is closed is
// opened on /dev/null, so that no file the run opens gets its number (an
// error message would then go into an output file); standard output is
// opened read-only, so that every write to it still fails.
void secure_standard_descriptors();

// Standard output was closed when the process started
// (secure_standard_descriptors() saw it).
bool stdout_closed();

// Prints "<program>: <message>" on standard error (the one line of a
// failure); returns the exit status 1. fail() (run_setup.hpp) is this for
// "vqx", and `vqx report` uses it for "vqx report".
int report_error(std::string_view program, const std::string& message);

// Writes all of `text` to standard output, or says why not.
Status write_stdout(std::string_view text);

// Whether the report written to `output` goes to standard output: "-", or
// a path naming the same file (/dev/stdout, /dev/fd/1, a file that is also
// the redirection).
bool report_on_stdout(const std::string& output);

}  // namespace vqx::cli

// What vqx writes on its standard output, and where its pooled scores go.
//
// Standard output carries what the user asked for: the pooled scores
// ("vmaf: 76.668905"), --version, --help, or the report itself (-o -,
// -o /dev/stdout, or any path that is the same file). Standard error
// carries the diagnostics: the progress line, the errors, and the pooled scores when
// standard output carries the report, so that the stream holds the report
// alone (`vqx --json -o /dev/stdout | jq .`). (The reference `vmaf` prints
// its pooled scores on standard error, and only on a terminal.)
//
// Header-only: the CLI target's sources are listed in CMakeLists.txt.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <string>

namespace vqx::cli {

// Whether the report written to `output` goes to standard output: "-", or
// a path naming the same file (/dev/stdout, /dev/fd/1, a file that is also
// the redirection).
inline bool report_on_stdout(const std::string& output) {
  if (output == "-") return true;
  if (output.empty()) return false;
  struct stat out {};
  struct stat path {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(output.c_str(), &path) == 0 &&
         out.st_dev == path.st_dev && out.st_ino == path.st_ino;
}

}  // namespace vqx::cli

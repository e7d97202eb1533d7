// Writes an output where the user asked for it, without ever leaving a file
// that looks complete but is not, and without destroying what is not ours:
//   * a regular file (or a path that does not exist yet) is written under a
//     temporary name beside it and renamed into place only when the whole
//     write succeeded; a symbolic link's target is written, the link stays;
//   * "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are the
//     process's own descriptors: written straight through, never reopened,
//     so an append (`>> log`) stays an append and nothing is renamed;
//   * a character device, a FIFO or a socket is opened without truncation
//     and written straight through.
// Every failure names the path and gives the system's reason.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "vqx/status.hpp"

namespace vqx {

Status write_file_atomically(const std::string& path,
                             const std::function<Status(std::ostream&)>& write);

}  // namespace vqx

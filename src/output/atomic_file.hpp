// Writes an output where the user asked for it, without ever leaving a file
// that looks complete but is not, and without destroying what is not ours:
//   * a regular file (or a path that does not exist yet) is written under a
//     temporary name beside it and renamed into place only when the whole
//     write succeeded (core/staged_file.hpp: the file is one of `files`,
//     and when that set is held the rename waits for its commit()); a
//     symbolic link's target is written, the link stays;
//   * "-", /dev/stdout, /dev/stderr, /dev/stdin, /dev/fd/N and
//     /proc/self/fd/N are the process's own descriptors: written straight
//     through, never reopened, so an append (`>> log`) stays an append and
//     nothing is renamed;
//   * a character device, a FIFO or a socket is opened without truncation
//     and written straight through.
// Every failure names the path and gives the system's reason.
// OutputFiles::prepare() (vqx/output_files.hpp) makes the same choices up
// front; it is implemented in atomic_file.cpp.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "vqx/output_files.hpp"
#include "vqx/status.hpp"

namespace vqx {

Status write_file_atomically(OutputFiles& files, const std::string& path,
                             const std::function<Status(std::ostream&)>& write);

}  // namespace vqx

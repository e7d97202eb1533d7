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
//
// Header-only: the CLI target's sources are listed in CMakeLists.txt.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>
#include <system_error>

#include "vqx/status.hpp"

namespace vqx::cli {

namespace stdout_detail {
inline bool& stdout_closed() {
  static bool closed = false;
  return closed;
}
}  // namespace stdout_detail

// Call first in main(). A standard descriptor (0, 1 or 2) that is closed is
// opened on /dev/null, so that no file the run opens gets its number (an
// error message would then go into an output file); standard output is
// opened read-only, so that every write to it still fails.
inline void secure_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == 1) stdout_detail::stdout_closed() = true;
    const int got = ::open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
    if (got >= 0 && got != fd) {  // a lower one was closed too: it is next
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

inline bool stdout_closed() { return stdout_detail::stdout_closed(); }

// Writes all of `text` to standard output, or says why not.
inline Status write_stdout(std::string_view text) {
  if (stdout_closed()) return Error(Errc::kIo, "standard output is closed");
  while (!text.empty()) {
    const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error(Errc::kIo, "standard output: write failed: " +
                                  std::error_code(errno, std::generic_category()).message());
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::Ok();
}

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

#include "standard_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

namespace vqx::cli {

namespace {

// Set once, by secure_standard_descriptors(), before any other thread.
bool& closed_at_start() {
  static bool closed = false;
  return closed;
}

}  // namespace

void secure_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == 1) closed_at_start() = true;
    const int got = ::open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY);
    if (got >= 0 && got != fd) {  // a lower one was closed too: it is next
      ::dup2(got, fd);
      ::close(got);
    }
  }
}

bool stdout_closed() { return closed_at_start(); }

int report_error(std::string_view program, const std::string& message) {
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(program.size()), program.data(),
               message.c_str());
  return 1;
}

Status write_stdout(std::string_view text) {
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

bool report_on_stdout(const std::string& output) {
  if (output == "-") return true;
  if (output.empty()) return false;
  struct stat out {};
  struct stat path {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(output.c_str(), &path) == 0 &&
         out.st_dev == path.st_dev && out.st_ino == path.st_ino;
}

}  // namespace vqx::cli

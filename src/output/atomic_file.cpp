#include "output/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>
#include <streambuf>
#include <string_view>

namespace vqx {

namespace {

std::string reason(int err) { return std::strerror(err); }

// An output stream over a file descriptor it does not own unless told to:
// buffered, retrying short and interrupted writes, keeping the first error.
class FdBuf final : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }
  FdBuf(const FdBuf&) = delete;
  FdBuf& operator=(const FdBuf&) = delete;
  ~FdBuf() override = default;

  // 0, or the errno of the first failed write.
  [[nodiscard]] int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    std::size_t left = static_cast<std::size_t>(pptr() - pbase());
    while (left > 0 && error_ == 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno != EINTR) error_ = errno;
        continue;
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    setp(buf_.data(), buf_.data() + buf_.size());
    return error_ == 0;
  }

  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buf_{};
};

// Runs `write` into `fd`; the status names `path`.
Status write_to_fd(int fd, const std::string& path,
                   const std::function<Status(std::ostream&)>& write) {
  FdBuf buf(fd);
  std::ostream out(&buf);
  Status s = write(out);
  out.flush();
  if (!s.ok()) return Error(s.code(), path + ": " + s.message());
  if (buf.error() != 0) return Error(Errc::kIo, path + ": write failed: " + reason(buf.error()));
  if (!out) return Error(Errc::kIo, path + ": write failed");
  return Status::Ok();
}

// The descriptor a path names when it is one of the process's own: "-",
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N.
std::optional<int> own_descriptor(std::string_view path) {
  if (path == "-" || path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.substr(0, prefix.size()) != prefix) continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (ec == std::errc() && end == digits.data() + digits.size() && fd >= 0) return fd;
  }
  return std::nullopt;
}

// Follows symbolic links (a dangling one included) to the path that is
// written, so that the link itself is never replaced.
Expected<std::string> link_target(const std::string& path) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink(p.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) return Error(Errc::kIo, path + ": cannot read the link: " + reason(errno));
    std::string target(buf.data(), static_cast<std::size_t>(n));
    if (target.empty() || target[0] != '/') {
      const auto slash = p.rfind('/');
      if (slash != std::string::npos) target = p.substr(0, slash + 1) + target;
    }
    p = target;
  }
  return Error(Errc::kIo, path + ": too many levels of symbolic links");
}

Status write_in_place(int fd, const std::string& path,
                      const std::function<Status(std::ostream&)>& write) {
  Status s = write_to_fd(fd, path, write);
  if (::close(fd) != 0 && s.ok()) {
    s = Error(Errc::kIo, path + ": write failed: " + reason(errno));
  }
  return s;
}

}  // namespace

Status write_file_atomically(const std::string& path,
                             const std::function<Status(std::ostream&)>& write) {
  if (path.empty()) return Error(Errc::kInvalidArgument, "the output path is empty");
  if (const std::optional<int> fd = own_descriptor(path)) {
    return write_to_fd(*fd, path == "-" ? std::string("standard output") : path, write);
  }
  VQX_ASSIGN_OR_RETURN(const std::string target, link_target(path));

  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return Error(Errc::kIo, path + ": cannot write: it is a directory");
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, a FIFO or a socket: nothing to rename, nothing to truncate.
    const int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return Error(Errc::kIo, path + ": cannot open for writing: " + reason(errno));
    return write_in_place(fd, path, write);
  }

  const std::string tmp = target + ".tmp." + std::to_string(::getpid());
  // A replaced file keeps its permissions; a new one gets the umask's.
  const mode_t mode = exists ? (st.st_mode & 07777) : 0666;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) return Error(Errc::kIo, path + ": cannot create: " + reason(errno));
  if (exists) (void)::fchmod(fd, mode);
  Status s = write_in_place(fd, path, write);
  if (s.ok() && std::rename(tmp.c_str(), target.c_str()) != 0) {
    s = Error(Errc::kIo, path + ": cannot rename the finished output into place: " + reason(errno));
  }
  if (!s.ok()) ::unlink(tmp.c_str());
  return s;
}

}  // namespace vqx

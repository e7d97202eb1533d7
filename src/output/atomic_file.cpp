#include "output/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <optional>
#include <streambuf>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/staged_file.hpp"

namespace vqx {

namespace {

// strerror() is not thread-safe; std::error_code's message() is.
std::string reason(int err) { return std::error_code(err, std::generic_category()).message(); }

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
  // The system's reason first: a writer that saw its stream fail says only
  // "could not write the output" (before, that was all -o /dev/full said).
  if (buf.error() != 0) return Error(Errc::kIo, path + ": write failed: " + reason(buf.error()));
  if (!s.ok()) return Error(s.code(), path + ": " + s.message());
  if (!out) return Error(Errc::kIo, path + ": write failed");
  return Status::Ok();
}

std::string shown_name(const std::string& path) {
  return path == "-" ? std::string("standard output") : path;
}

// The descriptor a path names when it is one of the process's own: "-",
// /dev/stdout, /dev/stderr, /dev/stdin, /dev/fd/N, /proc/self/fd/N.
std::optional<int> own_descriptor(std::string_view path) {
  if (path == "-" || path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  if (path == "/dev/stdin") return 0;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.substr(0, prefix.size()) != prefix) continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (ec == std::errc() && end == digits.data() + digits.size() && fd >= 0) return fd;
  }
  return std::nullopt;
}

Status write_in_place(int fd, const std::string& path,
                      const std::function<Status(std::ostream&)>& write) {
  Status s = write_to_fd(fd, path, write);
  if (::close(fd) != 0 && s.ok()) {
    s = Error(Errc::kIo, path + ": write failed: " + reason(errno));
  }
  return s;
}

// Where a write to `path` goes, chosen once for the write and for the
// check before the run (OutputFiles::prepare), so that both choose alike.
struct Destination {
  enum class Kind {
    kOwnDescriptor,  // "-", /dev/stdout, /dev/fd/N: written through
    kSpecialFile,    // a device, a FIFO or a socket: nothing to rename or truncate
    kRegularFile,    // a regular file, or a new one: staged and renamed into place
  };
  Kind kind;
  int fd = -1;         // kOwnDescriptor
  std::string target;  // the others: `path` with its links followed
};

Expected<Destination> destination_of(const std::string& path) {
  using Kind = Destination::Kind;
  if (path.empty()) return Error(Errc::kInvalidArgument, "the output path is empty");
  if (const std::optional<int> fd = own_descriptor(path)) {
    return Destination{Kind::kOwnDescriptor, *fd, {}};
  }
  VQX_ASSIGN_OR_RETURN(std::string target, staged::resolve_links(path));
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return Error(Errc::kIo, path + ": cannot write: it is a directory");
  }
  const Kind kind = exists && !S_ISREG(st.st_mode) ? Kind::kSpecialFile : Kind::kRegularFile;
  return Destination{kind, -1, std::move(target)};
}

}  // namespace

Status write_file_atomically(OutputFiles& files, const std::string& path,
                             const std::function<Status(std::ostream&)>& write) {
  VQX_ASSIGN_OR_RETURN(const Destination dest, destination_of(path));
  switch (dest.kind) {
    case Destination::Kind::kOwnDescriptor:
      return write_to_fd(dest.fd, shown_name(path), write);
    case Destination::Kind::kSpecialFile: {
      const int fd = ::open(dest.target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd < 0) return Error(Errc::kIo, path + ": cannot open for writing: " + reason(errno));
      return write_in_place(fd, path, write);
    }
    case Destination::Kind::kRegularFile:
      break;
  }
  // Written under a temporary name and renamed into place when complete
  // (core/staged_file.hpp).
  auto staged_file = staged::create(files, dest.target);
  if (!staged_file.ok()) {
    return Error(staged_file.status().code(), path + ": " + staged_file.status().message());
  }
  staged::StagedFile& file = *staged_file;
  Status s = write_in_place(file.fd, path, write);
  file.fd = -1;  // closed by write_in_place
  if (!s.ok()) {
    staged::abandon(file);
    return s;
  }
  if (Status r = staged::finish(file); !r.ok()) return Error(r.code(), path + ": " + r.message());
  return Status::Ok();
}

// A member of OutputFiles (core/staged_file.cpp has the others), here
// beside write_file_atomically() because it must choose as that does.
Status OutputFiles::prepare(const std::string& path) {
  VQX_ASSIGN_OR_RETURN(const Destination dest, destination_of(path));
  switch (dest.kind) {
    case Destination::Kind::kOwnDescriptor: {
      const int flags = ::fcntl(dest.fd, F_GETFL);
      if (flags < 0) {
        return Error(Errc::kIo, shown_name(path) + ": cannot write: " + reason(errno));
      }
      if ((flags & O_ACCMODE) == O_RDONLY) {
        return Error(Errc::kIo, shown_name(path) + ": cannot write: it is open only for reading");
      }
      return Status::Ok();
    }
    case Destination::Kind::kSpecialFile:
      // Not opened now: opening a FIFO waits for its reader.
      if (::access(dest.target.c_str(), W_OK) != 0) {
        return Error(Errc::kIo, path + ": cannot open for writing: " + reason(errno));
      }
      return Status::Ok();
    case Destination::Kind::kRegularFile:
      break;
  }
  if (Status s = staged::reserve(*this, dest.target); !s.ok()) {
    return Error(s.code(), path + ": " + s.message());
  }
  return Status::Ok();
}

}  // namespace vqx

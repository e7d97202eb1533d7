// The readers' input file (input_file.hpp).
#include "io/input_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace vqx::io_detail {

namespace {

// What the buffer holds: enough for any header line and for peek(); a
// frame's payload goes around it, straight into the caller's memory.
constexpr std::size_t kBufferBytes = 16 * 1024;

#ifdef IOV_MAX
constexpr int kMaxIov = IOV_MAX;
#else
constexpr int kMaxIov = 16;  // POSIX's minimum
#endif

// Marks `bytes` of buffers[i...] as filled: returns the first entry that
// still has room.
std::size_t use_up(std::span<iovec> buffers, std::size_t i, std::size_t bytes) {
  while (bytes > 0) {
    iovec& v = buffers[i];
    const std::size_t k = std::min(bytes, v.iov_len);
    v.iov_base = static_cast<char*>(v.iov_base) + k;
    v.iov_len -= k;
    bytes -= k;
    if (v.iov_len == 0) ++i;
  }
  return i;
}

// strerror() is not thread-safe; std::error_code's message() is.
std::string error_text(int err) {
  return err != 0 ? std::error_code(err, std::generic_category()).message() : "unknown error";
}

}  // namespace

Expected<InputFile> InputFile::open(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::is_directory(st)) {
    return Error(Errc::kIo, path + ": cannot open: is a directory");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return Error(Errc::kIo, path + ": cannot open: " + error_text(err));
  }
  InputFile in;
  in.fd_ = fd;
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    in.size_ = static_cast<std::int64_t>(info.st_size);
    // Frames are read front to back: a larger read-ahead window in the kernel.
    (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  } else {
    in.wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (in.wake_fd_ < 0) {
      const int err = errno;
      return Error(Errc::kIo, path + ": cannot open: " + error_text(err));
    }
  }
  return in;
}

InputFile::InputFile(InputFile&& other) noexcept { *this = std::move(other); }

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this == &other) return *this;
  close_descriptors();
  fd_ = std::exchange(other.fd_, -1);
  wake_fd_ = std::exchange(other.wake_fd_, -1);
  size_ = other.size_;
  errno_ = other.errno_;
  buf_ = std::move(other.buf_);
  pos_ = std::exchange(other.pos_, 0);
  end_ = std::exchange(other.end_, 0);
  return *this;
}

InputFile::~InputFile() { close_descriptors(); }

void InputFile::close_descriptors() {
  if (fd_ >= 0) ::close(fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
  fd_ = wake_fd_ = -1;
}

long InputFile::read_some(iovec* iov, int count) {
  for (;;) {
    if (errno_ != 0) return -1;  // failed or interrupted: no more reads
    if (wake_fd_ >= 0) {
      pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        errno_ = errno;
        return -1;
      }
      if (fds[1].revents != 0) {
        errno_ = ECANCELED;
        return -1;
      }
      // Readable, hung up or failed: the read says which.
    }
    const ssize_t got =
        count == 1 ? ::read(fd_, iov->iov_base, iov->iov_len) : ::readv(fd_, iov, count);
    if (got >= 0) return static_cast<long>(got);
    // EAGAIN: a descriptor another program made non-blocking; poll() waits.
    if (errno == EINTR || (errno == EAGAIN && wake_fd_ >= 0)) continue;
    errno_ = errno;
    return -1;
  }
}

void InputFile::fill(std::size_t want) {
  if (!buf_) buf_ = std::make_unique<char[]>(kBufferBytes);
  want = std::min(want, kBufferBytes);
  if (pos_ > 0) {
    std::memmove(buf_.get(), buf_.get() + pos_, buffered());
    end_ -= pos_;
    pos_ = 0;
  }
  while (end_ < want) {
    iovec v{buf_.get() + end_, kBufferBytes - end_};
    const long got = read_some(&v, 1);
    if (got <= 0) break;
    end_ += static_cast<std::size_t>(got);
  }
}

std::size_t InputFile::read(void* dst, std::size_t n) {
  auto* out = static_cast<char*>(dst);
  const std::size_t from_buffer = std::min(n, buffered());
  if (from_buffer > 0) std::memcpy(out, buf_.get() + pos_, from_buffer);
  pos_ += from_buffer;
  if (from_buffer == n) return n;
  const std::size_t left = n - from_buffer;
  if (left >= kBufferBytes) {  // a large read goes straight into dst
    iovec one{out + from_buffer, left};
    return from_buffer + read_into(std::span<iovec>(&one, 1));
  }
  fill(left);
  const std::size_t more = std::min(left, buffered());
  std::memcpy(out + from_buffer, buf_.get() + pos_, more);
  pos_ += more;
  return from_buffer + more;
}

std::size_t InputFile::read_into(std::span<iovec> buffers) {
  std::size_t total = 0;
  std::size_t i = 0;
  // The buffered bytes first, then the rest straight from the descriptor.
  while (i < buffers.size() && buffered() > 0) {
    if (buffers[i].iov_len == 0) {
      ++i;
      continue;
    }
    const std::size_t k = std::min(buffers[i].iov_len, buffered());
    std::memcpy(buffers[i].iov_base, buf_.get() + pos_, k);
    pos_ += k;
    total += k;
    i = use_up(buffers, i, k);
  }
  while (i < buffers.size()) {
    if (buffers[i].iov_len == 0) {
      ++i;
      continue;
    }
    const int count = static_cast<int>(std::min<std::size_t>(buffers.size() - i, kMaxIov));
    const long got = read_some(&buffers[i], count);
    if (got <= 0) break;  // end of file or an error
    total += static_cast<std::size_t>(got);
    i = use_up(buffers, i, static_cast<std::size_t>(got));
  }
  return total;
}

std::size_t InputFile::read_at(std::int64_t offset, std::span<iovec> buffers) const {
  std::size_t total = 0;
  std::size_t i = 0;
  while (i < buffers.size()) {
    if (buffers[i].iov_len == 0) {
      ++i;
      continue;
    }
    const int count = static_cast<int>(std::min<std::size_t>(buffers.size() - i, kMaxIov));
    const ssize_t got =
        ::preadv(fd_, &buffers[i], count, static_cast<off_t>(offset) + static_cast<off_t>(total));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // end of file or an error
    total += static_cast<std::size_t>(got);
    i = use_up(buffers, i, static_cast<std::size_t>(got));
  }
  return total;
}

int InputFile::getc() {
  if (buffered() == 0) fill(1);
  if (buffered() == 0) return EOF;
  return static_cast<unsigned char>(buf_[pos_++]);
}

std::string_view InputFile::peek(std::size_t n) {
  if (buffered() < n) fill(n);
  return {buf_ ? buf_.get() + pos_ : nullptr, std::min(n, buffered())};
}

std::int64_t InputFile::position() const {
  const auto at = static_cast<std::int64_t>(::lseek(fd_, 0, SEEK_CUR));
  return at < 0 ? -1 : at - static_cast<std::int64_t>(buffered());
}

bool InputFile::seek(std::int64_t pos) {
  pos_ = end_ = 0;
  if (::lseek(fd_, static_cast<off_t>(pos), SEEK_SET) == static_cast<off_t>(pos)) return true;
  if (errno_ == 0) errno_ = errno;
  return false;
}

Status InputFile::read_error(const std::string& path) const {
  return Error(Errc::kIo, path + ": read error: " + error_text(errno_));
}

void InputFile::interrupt() {
  if (wake_fd_ < 0) return;  // a regular file: its reads end by themselves
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(wake_fd_, &one, sizeof one);
}

}  // namespace vqx::io_detail

// The readers' input file (src/io only): a file descriptor with a small
// buffer of its own for the bytes of headers, and reads that go straight
// into the caller's memory (a picture's rows) for the bulk of a frame.
//
// A regular file's reads always end. A pipe's, a FIFO's or a terminal's may
// wait for the writer forever; interrupt(), from any thread, ends such a
// wait (and every later one) with an error, which is how a reader thread
// blocked on a stalled pipe is stopped (vqx/read_ahead.hpp): those reads
// poll() the input and a wake-up descriptor of the file's own.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "vqx/status.hpp"

namespace vqx::io_detail {

class InputFile {
 public:
  // kIo error "<path>: cannot open: <reason>" on failure.
  static Expected<InputFile> open(const std::string& path);
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  // Reads up to n bytes; fewer only at end of file or on error().
  std::size_t read(void* dst, std::size_t n);
  // Reads into the buffers in turn, as read() into one buffer of their
  // total size would, without a copy of the bytes the file's own buffer
  // does not hold: fewer only at end of file or on error(). The entries are
  // used up (changed) as bytes arrive.
  std::size_t read_into(std::span<iovec> buffers);
  // Positioned reads of a regular file (size() >= 0): fills the buffers in
  // turn with the file's bytes from `offset` on, without using or moving
  // the file's position or its buffer, so that several threads may read at
  // once. Fewer bytes only at end of file or on a read error, which is not
  // recorded (error() is unchanged): the caller reads the same bytes with
  // read() to learn what is there. The entries are used up as bytes arrive.
  std::size_t read_at(std::int64_t offset, std::span<iovec> buffers) const;
  int getc();  // EOF at end of file or on error()
  // The next n bytes (fewer at end of file), left unread: the following
  // read() and getc() return them first. This is how open_video() looks at
  // a file's first bytes without reopening it, which a pipe would not allow.
  std::string_view peek(std::size_t n);
  // The offset of the next byte read() returns, and a move to an offset:
  // for regular files only (size() >= 0). seek() drops the buffered bytes.
  [[nodiscard]] std::int64_t position() const;
  bool seek(std::int64_t pos);
  // A read failed (sticky), or was interrupted.
  [[nodiscard]] bool error() const { return errno_ != 0; }
  // "<path>: read error: <the first failure's reason>".
  [[nodiscard]] Status read_error(const std::string& path) const;
  [[nodiscard]] std::int64_t size() const { return size_; }  // -1 when not a regular file
  // From any thread: a read waiting for data that may never come (not a
  // regular file's) returns at once with error(), and so does every later
  // read. The file is of no further use.
  void interrupt();

 private:
  InputFile() = default;
  // One read(2)/readv(2) of the descriptor, waiting in poll() first when
  // the file is not a regular one; retried on EINTR. Sets errno_ on failure.
  long read_some(iovec* iov, int count);
  // Refills the buffer (what it holds is moved to its start first) with at
  // least `want` bytes, fewer only at end of file or on error.
  void fill(std::size_t want);
  [[nodiscard]] std::size_t buffered() const { return end_ - pos_; }
  void close_descriptors();

  int fd_ = -1;
  int wake_fd_ = -1;  // an eventfd for files that are not regular; interrupt() writes it
  std::int64_t size_ = -1;
  int errno_ = 0;  // the first failure's errno
  std::unique_ptr<char[]> buf_;
  std::size_t pos_ = 0;  // buf_[pos_, end_) read from the file, not yet returned
  std::size_t end_ = 0;
};

}  // namespace vqx::io_detail

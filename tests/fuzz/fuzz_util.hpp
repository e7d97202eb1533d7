// Helpers shared by the fuzz targets (tests/fuzz/*_fuzz.cpp).
//
// Every target defines LLVMFuzzerTestOneInput. Built with VQX_FUZZ (clang,
// libFuzzer) each target is its own fuzzer binary; in every other build the
// replay test (replay_test.cpp) compiles the same sources with the entry
// point renamed and runs each one over its seeds and regression inputs, so
// every crash the fuzzers ever found stays a test under GCC and ASan too.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace vqx::fuzz {

// The fuzz input as a file: an anonymous in-memory file (memfd) whose path
// is /proc/self/fd/N, so that readers which take a path read it as a
// regular, seekable file of the input's size, with no disk I/O.
class MemFile {
 public:
  MemFile(const std::uint8_t* data, std::size_t size) {
    fd_ = ::memfd_create("vqx_fuzz", MFD_CLOEXEC);
    if (fd_ < 0) std::abort();
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n <= 0) std::abort();
      done += static_cast<std::size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemFile() { ::close(fd_); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// Consumes bytes from the front of the input (for targets whose input is
// parameters followed by a payload).
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  std::uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  [[nodiscard]] const std::uint8_t* data() const { return p_; }
  [[nodiscard]] std::size_t size() const { return n_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A fuzz target found a result that breaks a promise (not a crash, but as
// bad): stop so that libFuzzer saves the input.
[[noreturn]] inline void broken_promise(const char* what) {
  std::fprintf(stderr, "vqx fuzz: %s\n", what);
  std::abort();
}

}  // namespace vqx::fuzz

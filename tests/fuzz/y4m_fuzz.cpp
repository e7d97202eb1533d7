// Fuzz target: the Y4M reader (src/io/y4m_reader.cpp). The input is a whole
// .y4m file. Promises checked besides "no crash, leak or sanitizer report":
// an opened stream has a valid format, every frame read fills a picture of
// that format, and every error is a one-line message that names the file.
#include <cstdint>

#include "reader_fuzz.hpp"

namespace {
constexpr unsigned kMaxFrames = 16;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const vqx::fuzz::MemFile file(data, size);
  const auto reader = vqx::open_y4m(file.path());
  vqx::VideoReader* r = vqx::fuzz::opened(reader, file.path());
  if (r == nullptr) return 0;
  vqx::fuzz::read_frames(*r, file.path(), kMaxFrames);
  // skip() has its own path through the frame headers.
  auto again = vqx::open_y4m(file.path());
  if (!again.ok()) vqx::fuzz::broken_promise("opened once, not twice");
  if (vqx::Status s = (*again)->skip(2); !s.ok()) vqx::fuzz::check_reader_error(s, file.path());
  return 0;
}

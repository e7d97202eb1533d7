// Fuzz target: the Y4M reader (src/io/y4m_reader.cpp). The input is a whole
// .y4m file. Promises checked besides "no crash, leak or sanitizer report":
// an opened stream has a valid format, every frame read fills a picture of
// that format, and every error is a one-line message that names the file.
#include <cstdint>

#include "fuzz_util.hpp"
#include "io/video_reader.hpp"

namespace {

constexpr unsigned kMaxFrames = 16;

void check_error(const vqx::Status& s, const std::string& path) {
  if (s.ok() || s.message().rfind(path, 0) != 0) vqx::fuzz::broken_promise("error does not name the file");
  if (s.message().find('\n') != std::string::npos) vqx::fuzz::broken_promise("multi-line error");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const vqx::fuzz::MemFile file(data, size);
  auto reader = vqx::open_y4m(file.path());
  if (!reader.ok()) {
    check_error(reader.status(), file.path());
    return 0;
  }
  vqx::VideoReader& r = **reader;
  if (!vqx::validate(r.format()).ok()) vqx::fuzz::broken_promise("opened with an invalid format");
  vqx::Picture pic;
  for (unsigned i = 0; i < kMaxFrames; ++i) {
    auto got = r.read(pic);
    if (!got.ok()) {
      check_error(got.status(), file.path());
      return 0;
    }
    if (!*got) break;
    if (!(pic.format() == r.format())) vqx::fuzz::broken_promise("picture of another format");
  }
  // skip() has its own path through the frame headers.
  auto again = vqx::open_y4m(file.path());
  if (!again.ok()) vqx::fuzz::broken_promise("opened once, not twice");
  if (vqx::Status s = (*again)->skip(2); !s.ok()) check_error(s, file.path());
  return 0;
}

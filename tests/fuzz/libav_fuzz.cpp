// Fuzz target: the libav input wrapper (src/io/libav_reader.cpp): probing,
// stream choice, pixel-format mapping, frame checks, plane copies. The input
// is a whole file, demuxed and decoded by FFmpeg. FFmpeg itself is not
// instrumented, so coverage guides the fuzzer through VQX's code; ASan still
// sees every byte VQX reads from FFmpeg's frames.
#include <cstdint>

extern "C" {
#include <libavutil/log.h>
}

#include "fuzz_util.hpp"
#include "io/video_reader.hpp"

namespace {

constexpr unsigned kMaxFrames = 8;

void check_error(const vqx::Status& s, const std::string& path) {
  if (s.ok() || s.message().rfind(path, 0) != 0) vqx::fuzz::broken_promise("error does not name the file");
  if (s.message().find('\n') != std::string::npos) vqx::fuzz::broken_promise("multi-line error");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool quiet = [] {
    av_log_set_level(AV_LOG_QUIET);
    return true;
  }();
  (void)quiet;
  const vqx::fuzz::MemFile file(data, size);
  auto reader = vqx::open_libav(file.path());
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
  return 0;
}

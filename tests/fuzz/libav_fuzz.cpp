// Fuzz target: the libav input wrapper (src/io/libav_reader.cpp): probing,
// stream choice, pixel-format mapping, frame checks, plane copies. The input
// is a whole file, demuxed and decoded by FFmpeg. FFmpeg itself is not
// instrumented, so coverage guides the fuzzer through VQX's code; ASan still
// sees every byte VQX reads from FFmpeg's frames.
#include <cstdint>

#include "reader_fuzz.hpp"

namespace {
constexpr unsigned kMaxFrames = 8;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // (FFmpeg's log goes to the reader, not stderr: src/io/libav_log.hpp.)
  const vqx::fuzz::MemFile file(data, size);
  const auto reader = vqx::open_libav(file.path());
  vqx::VideoReader* r = vqx::fuzz::opened(reader, file.path());
  if (r != nullptr) vqx::fuzz::read_frames(*r, file.path(), kMaxFrames);
  return 0;
}

// Fuzz target: the raw YUV reader (src/io/raw_reader.cpp, packed_reader.cpp) and the -w -h -p
// -b checks. Input: 6 bytes of parameters (width, height as 16-bit little
// endian; bit depth; pixel format) then the file's bytes. Sizes are any
// 16-bit value, so limits and odd sizes are reached; the payload decides
// whether frames are whole, truncated or hold samples above the depth.
#include <cstdint>

#include "reader_fuzz.hpp"

namespace {
constexpr unsigned kMaxFrames = 16;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  vqx::fuzz::Bytes in(data, size);
  vqx::RawVideoParams params;
  params.width = in.u16();
  params.height = in.u16();
  params.bpc = in.u8();
  static constexpr const char* kFormats[] = {"420", "422", "444", "400", "411", ""};
  auto chroma = vqx::parse_pixel_format(kFormats[in.u8() % 6]);
  if (!chroma.ok()) return 0;
  params.chroma = *chroma;
  const vqx::fuzz::MemFile file(in.data(), in.size());
  const auto reader = vqx::open_raw(file.path(), params);
  vqx::VideoReader* r = vqx::fuzz::opened(reader, file.path());
  if (r == nullptr) return 0;
  if (vqx::Status s = r->skip(in.size() > 0 ? data[0] % 2 : 0); !s.ok()) {
    vqx::fuzz::check_reader_error(s, file.path());
    return 0;
  }
  vqx::fuzz::read_frames(*r, file.path(), kMaxFrames);
  return 0;
}

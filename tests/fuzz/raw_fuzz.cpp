// Fuzz target: the raw YUV reader (src/io/raw_reader.cpp) and the -w -h -p
// -b checks. Input: 6 bytes of parameters (width, height as 16-bit little
// endian; bit depth; pixel format) then the file's bytes. Sizes are any
// 16-bit value, so limits and odd sizes are reached; the payload decides
// whether frames are whole, truncated or hold samples above the depth.
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
  auto reader = vqx::open_raw(file.path(), params);
  if (!reader.ok()) {
    check_error(reader.status(), file.path());
    return 0;
  }
  vqx::VideoReader& r = **reader;
  if (!vqx::validate(r.format()).ok()) vqx::fuzz::broken_promise("opened with an invalid format");
  if (vqx::Status s = r.skip(in.size() > 0 ? data[0] % 2 : 0); !s.ok()) {
    check_error(s, file.path());
    return 0;
  }
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

// vqx_to_y4m IN OUT.y4m: decodes IN with VQX's own readers (y4m, raw, or
// anything libav reads) and writes it as Y4M, so that the benchmarks time
// scoring without decoding on a machine that has no ffmpeg command.
// Writes the file's own format (planes, bit depth, chroma), 16-bit samples
// little-endian as Y4M wants; frame rate 25:1 when the input has none.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "vqx/video_reader.hpp"

namespace {

const char* y4m_chroma(const vqx::PictureFormat& f) {
  switch (f.chroma) {
    case vqx::ChromaFormat::k400:
      return "mono";
    case vqx::ChromaFormat::k420:
      return "420";
    case vqx::ChromaFormat::k422:
      return "422";
    case vqx::ChromaFormat::k444:
      return "444";
  }
  return "420";
}

bool write_plane(std::FILE* out, const vqx::Plane& p, std::vector<unsigned char>& row) {
  const std::size_t bytes = std::size_t{p.width()} * p.bytes_per_sample();
  row.resize(bytes);
  for (unsigned y = 0; y < p.height(); ++y) {
    if (p.bytes_per_sample() == 1) {
      const std::uint8_t* src = p.row<std::uint8_t>(y);
      for (std::size_t x = 0; x < bytes; ++x) row[x] = src[x];
    } else {
      const std::uint16_t* src = p.row<std::uint16_t>(y);
      for (unsigned x = 0; x < p.width(); ++x) {
        row[2 * x] = static_cast<unsigned char>(src[x] & 0xFFU);
        row[2 * x + 1] = static_cast<unsigned char>(src[x] >> 8);
      }
    }
    if (std::fwrite(row.data(), 1, bytes, out) != bytes) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: vqx_to_y4m IN OUT.y4m\n");
    return 2;
  }
  auto reader = vqx::open_video(argv[1], std::nullopt);
  if (!reader.ok()) {
    std::fprintf(stderr, "vqx_to_y4m: %s\n", reader.status().message().c_str());
    return 1;
  }
  const vqx::PictureFormat fmt = (*reader)->format();
  const vqx::VideoInfo& info = (*reader)->info();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(argv[2], "wb"), &std::fclose);
  if (!out) {
    std::fprintf(stderr, "vqx_to_y4m: %s: cannot open for writing\n", argv[2]);
    return 1;
  }
  std::string chroma = y4m_chroma(fmt);
  if (fmt.bpc > 8) chroma += "p" + std::to_string(fmt.bpc);
  const unsigned num = info.fps_num != 0 ? info.fps_num : 25;
  const unsigned den = info.fps_den != 0 ? info.fps_den : 1;
  std::fprintf(out.get(), "YUV4MPEG2 W%u H%u F%u:%u Ip A1:1 C%s\n", fmt.width, fmt.height, num, den,
               chroma.c_str());
  auto pic = vqx::Picture::make(fmt);
  if (!pic.ok()) {
    std::fprintf(stderr, "vqx_to_y4m: %s\n", pic.status().message().c_str());
    return 1;
  }
  std::vector<unsigned char> row;
  for (;;) {
    auto got = (*reader)->read(*pic);
    if (!got.ok()) {
      std::fprintf(stderr, "vqx_to_y4m: %s\n", got.status().message().c_str());
      return 1;
    }
    if (!*got) break;
    std::fputs("FRAME\n", out.get());
    for (unsigned p = 0; p < pic->plane_count(); ++p) {
      if (!write_plane(out.get(), pic->plane(p), row)) {
        std::fprintf(stderr, "vqx_to_y4m: %s: write failed\n", argv[2]);
        return 1;
      }
    }
  }
  if (std::fflush(out.get()) != 0) {
    std::fprintf(stderr, "vqx_to_y4m: %s: write failed\n", argv[2]);
    return 1;
  }
  return 0;
}

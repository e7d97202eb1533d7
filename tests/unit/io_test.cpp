// Tests of the video readers: Y4M and raw files are written into a temporary
// folder by the tests; the FFV1 files read through libav are in
// tests/data/io/ (see the README there).
#include <gtest/gtest.h>
#include <link.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "fifo.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------- helpers

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    for (int attempt = 0; attempt < 100; ++attempt) {
      const fs::path p = fs::temp_directory_path() / ("vqx_io_test_" + std::to_string(rd()));
      std::error_code ec;
      if (fs::create_directory(p, ec)) {
        path_ = p;
        return;
      }
    }
    ADD_FAILURE() << "cannot create a temporary folder";
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

using Bytes = std::vector<std::uint8_t>;

void write_file(const std::string& path, const Bytes& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

void append(Bytes& b, std::string_view s) {
  // A loop rather than insert(): GCC 12 at -O3 flags insert() from a
  // string_view with a false -Wnonnull.
  b.reserve(b.size() + s.size());
  for (char c : s) b.push_back(static_cast<std::uint8_t>(c));
}
void append(Bytes& b, const Bytes& more) { b.insert(b.end(), more.begin(), more.end()); }

// A deterministic sample value for plane p, position (x, y), frame f that
// uses the full range of the depth.
std::uint32_t pattern(unsigned p, unsigned x, unsigned y, unsigned f, unsigned bpc) {
  const std::uint32_t v = (p * 97U) + (x * 13U) + (y * 71U) + (f * 29U) + ((x * y) << 5U);
  return v & ((1U << bpc) - 1U);
}

// One frame packed as in a raw file or a Y4M payload (16-bit little-endian).
Bytes pack_frame(const PictureFormat& fmt, unsigned f, bool alpha = false) {
  Bytes b;
  const unsigned planes = fmt.plane_count() + (alpha ? 1U : 0U);
  for (unsigned p = 0; p < planes; ++p) {
    const unsigned w = p < fmt.plane_count() ? fmt.plane_width(p) : fmt.width;
    const unsigned h = p < fmt.plane_count() ? fmt.plane_height(p) : fmt.height;
    for (unsigned y = 0; y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
        const std::uint32_t v = pattern(p, x, y, f, fmt.bpc);
        b.push_back(static_cast<std::uint8_t>(v & 0xff));
        if (fmt.bpc > 8) b.push_back(static_cast<std::uint8_t>(v >> 8));
      }
    }
  }
  return b;
}

// Checks every sample of `pic` against pattern(..., f); stops at the first
// difference.
void expect_frame(const Picture& pic, const PictureFormat& fmt, unsigned f) {
  ASSERT_EQ(pic.format(), fmt);
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    ASSERT_EQ(pic.plane(p).width(), fmt.plane_width(p));
    ASSERT_EQ(pic.plane(p).height(), fmt.plane_height(p));
    for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
      for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
        ASSERT_EQ(pic.plane(p).at(x, y), pattern(p, x, y, f, fmt.bpc))
            << "plane " << p << " x " << x << " y " << y << " frame " << f;
      }
    }
  }
}

std::string y4m_header(unsigned w, unsigned h, const std::string& colour) {
  return "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) + " F25:1 Ip A1:1" +
         (colour.empty() ? "" : " C" + colour) + "\n";
}

Bytes make_y4m(const std::string& header, const PictureFormat& fmt, unsigned frames,
               bool alpha = false) {
  Bytes b;
  append(b, header);
  for (unsigned f = 0; f < frames; ++f) {
    append(b, "FRAME\n");
    append(b, pack_frame(fmt, f, alpha));
  }
  return b;
}

Bytes make_raw(const PictureFormat& fmt, unsigned frames) {
  Bytes b;
  for (unsigned f = 0; f < frames; ++f) append(b, pack_frame(fmt, f));
  return b;
}

std::unique_ptr<VideoReader> open_ok(const std::string& path,
                                     const std::optional<RawVideoParams>& raw = std::nullopt) {
  auto r = open_video(path, raw);
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok()) return nullptr;
  return std::move(r).value();
}

// Reads every frame, checking each against the pattern.
void expect_all_frames(VideoReader& reader, const PictureFormat& fmt, unsigned frames) {
  ASSERT_EQ(reader.format(), fmt);
  auto pic = Picture::make(fmt);
  ASSERT_TRUE(pic.ok());
  for (unsigned f = 0; f < frames; ++f) {
    auto got = reader.read(*pic);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(*got) << "frame " << f;
    expect_frame(*pic, fmt, f);
  }
  for (int i = 0; i < 2; ++i) {  // the end stays the end
    auto got = reader.read(*pic);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_FALSE(*got);
  }
  EXPECT_EQ(reader.frames_read(), frames);
}

// Opening must fail with `code`, with a message that names the file and
// contains `needle`.
void expect_open_error(const std::string& path, const std::optional<RawVideoParams>& raw, Errc code,
                       const std::string& needle) {
  auto r = open_video(path, raw);
  ASSERT_FALSE(r.ok()) << path << " opened";
  EXPECT_EQ(r.status().code(), code) << r.status().message();
  EXPECT_NE(r.status().message().find(path), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find(needle), std::string::npos) << r.status().message();
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
}

// Reading must give `good` frames, then fail with `code` naming the file.
void expect_read_error(const std::string& path, const std::optional<RawVideoParams>& raw,
                       unsigned good, Errc code, const std::string& needle) {
  auto reader = open_ok(path, raw);
  ASSERT_NE(reader, nullptr);
  Picture pic;
  for (unsigned f = 0; f < good; ++f) {
    auto got = reader->read(pic);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(*got);
  }
  auto got = reader->read(pic);
  ASSERT_FALSE(got.ok()) << "frame " << good << " was read";
  EXPECT_EQ(got.status().code(), code) << got.status().message();
  EXPECT_NE(got.status().message().find(path), std::string::npos) << got.status().message();
  EXPECT_NE(got.status().message().find(needle), std::string::npos) << got.status().message();
  EXPECT_EQ(got.status().message().find('\n'), std::string::npos) << got.status().message();
}

// A fault of framing (a frame cut short, a FRAME header that is not one):
// in a regular file it is found when the file is opened, since its size is
// known (`open_needle`, or `needle` when empty); through a pipe, when the
// frame is reached, after `good` frames (`needle`).
void expect_framing_error(const std::string& path, const std::optional<RawVideoParams>& raw,
                          unsigned good, Errc code, const std::string& needle,
                          const std::string& open_needle = "") {
  {
    SCOPED_TRACE("regular file");
    expect_open_error(path, raw, code, open_needle.empty() ? needle : open_needle);
  }
  SCOPED_TRACE("through a pipe");
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Fifo fifo(std::move(bytes));
  expect_read_error(fifo.path(), raw, good, code, needle);
}

// A small SHA-256 (FIPS 180-4) for comparing decoded frames with ffmpeg's.
class Sha256 {
 public:
  void update(const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      block_[fill_++] = p[i];
      if (fill_ == 64) {
        compress();
        fill_ = 0;
      }
    }
    bits_ += std::uint64_t{n} * 8;
  }
  std::string hex() {
    const std::uint64_t bits = bits_;
    const std::uint8_t one = 0x80;
    const std::uint8_t zero = 0;
    update(&one, 1);
    while (fill_ != 56) update(&zero, 1);
    for (int i = 7; i >= 0; --i) {
      const auto b = static_cast<std::uint8_t>(bits >> (i * 8));
      update(&b, 1);
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (const std::uint32_t v : h_) {
      for (int i = 28; i >= 0; i -= 4) out += kHex[(v >> i) & 15U];
    }
    return out;
  }

 private:
  static std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
  void compress() {
    static constexpr std::array<std::uint32_t, 64> k = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2};
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i) {
      w[i] = (std::uint32_t{block_[4 * i]} << 24) | (std::uint32_t{block_[4 * i + 1]} << 16) |
             (std::uint32_t{block_[4 * i + 2]} << 8) | std::uint32_t{block_[4 * i + 3]};
    }
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::array<std::uint32_t, 8> s = h_;
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t e1 = rotr(s[4], 6) ^ rotr(s[4], 11) ^ rotr(s[4], 25);
      const std::uint32_t ch = (s[4] & s[5]) ^ (~s[4] & s[6]);
      const std::uint32_t t1 = s[7] + e1 + ch + k[i] + w[i];
      const std::uint32_t e0 = rotr(s[0], 2) ^ rotr(s[0], 13) ^ rotr(s[0], 22);
      const std::uint32_t maj = (s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]);
      const std::uint32_t t2 = e0 + maj;
      s = {t1 + t2, s[0], s[1], s[2], s[3] + t1, s[4], s[5], s[6]};
    }
    for (int i = 0; i < 8; ++i) h_[i] += s[i];
  }
  std::array<std::uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<std::uint8_t, 64> block_{};
  std::size_t fill_ = 0;
  std::uint64_t bits_ = 0;
};

// SHA-256 of every frame's planes packed like ffmpeg's -f rawvideo output.
std::string sha256_of_frames(VideoReader& reader, unsigned& frames) {
  Sha256 sha;
  Picture pic;
  frames = 0;
  const PictureFormat& fmt = reader.format();
  for (;;) {
    auto got = reader.read(pic);
    EXPECT_TRUE(got.ok()) << got.status().message();
    if (!got.ok() || !*got) break;
    ++frames;
    for (unsigned p = 0; p < fmt.plane_count(); ++p) {
      for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
        if (fmt.bpc > 8) {  // little-endian, whatever the host
          for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
            const std::uint16_t v = pic.plane(p).row<std::uint16_t>(y)[x];
            const std::array<std::uint8_t, 2> le = {static_cast<std::uint8_t>(v & 0xff),
                                                    static_cast<std::uint8_t>(v >> 8)};
            sha.update(le.data(), 2);
          }
        } else {
          sha.update(pic.plane(p).row<std::uint8_t>(y), fmt.plane_width(p));
        }
      }
    }
  }
  return sha.hex();
}

fs::path data_dir() {
  if (const char* dir = std::getenv("VQX_TEST_DATA_DIR")) return fs::path(dir) / "io";
#ifdef VQX_TEST_DATA_DIR
  return fs::path(VQX_TEST_DATA_DIR) / "io";
#else
  return fs::path(__FILE__).parent_path().parent_path() / "data" / "io";
#endif
}

// ---------------------------------------------------------------- helpers' own test

TEST(IoTestHelpers, Sha256KnownAnswers) {
  Sha256 empty;
  EXPECT_EQ(empty.hex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  Sha256 abc;
  abc.update(reinterpret_cast<const std::uint8_t*>("abc"), 3);
  EXPECT_EQ(abc.hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// ---------------------------------------------------------------- Y4M

TEST(Y4m, Reads8Bit420OddSize) {
  TempDir dir;
  const std::string path = dir.file("odd.y4m");
  const PictureFormat fmt{7, 5, 8, ChromaFormat::k420};  // chroma 4x3
  write_file(path, make_y4m(y4m_header(7, 5, "420jpeg"), fmt, 3));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->path(), path);
  EXPECT_EQ(reader->info().container, "y4m");
  EXPECT_EQ(reader->info().y4m_colorspace, "420jpeg");
  expect_all_frames(*reader, fmt, 3);
}

struct TagCase {
  const char* tag;
  ChromaFormat chroma;
  unsigned bpc;
};

TEST(Y4m, EveryColourSpaceTag) {
  const std::array<TagCase, 27> cases = {{
      {"420", ChromaFormat::k420, 8},      {"420jpeg", ChromaFormat::k420, 8},
      {"420mpeg2", ChromaFormat::k420, 8}, {"420paldv", ChromaFormat::k420, 8},
      {"422", ChromaFormat::k422, 8},      {"444", ChromaFormat::k444, 8},
      {"mono", ChromaFormat::k400, 8},     {"420p9", ChromaFormat::k420, 9},
      {"420p10", ChromaFormat::k420, 10},  {"420p12", ChromaFormat::k420, 12},
      {"420p14", ChromaFormat::k420, 14},  {"420p16", ChromaFormat::k420, 16},
      {"422p9", ChromaFormat::k422, 9},    {"422p10", ChromaFormat::k422, 10},
      {"422p12", ChromaFormat::k422, 12},  {"422p16", ChromaFormat::k422, 16},
      {"444p9", ChromaFormat::k444, 9},    {"444p10", ChromaFormat::k444, 10},
      {"444p12", ChromaFormat::k444, 12},  {"444p14", ChromaFormat::k444, 14},
      {"444p16", ChromaFormat::k444, 16},  {"mono9", ChromaFormat::k400, 9},
      {"mono10", ChromaFormat::k400, 10},  {"mono12", ChromaFormat::k400, 12},
      {"mono16", ChromaFormat::k400, 16},  {"monop10", ChromaFormat::k400, 10},
      {"monop16", ChromaFormat::k400, 16},
  }};
  TempDir dir;
  for (const TagCase& c : cases) {
    SCOPED_TRACE(c.tag);
    for (const auto& [w, h] : {std::pair{6U, 4U}, std::pair{5U, 3U}}) {
      const std::string path = dir.file(std::string(c.tag) + "_" + std::to_string(w) + ".y4m");
      const PictureFormat fmt{w, h, c.bpc, c.chroma};
      write_file(path, make_y4m(y4m_header(w, h, c.tag), fmt, 2));
      auto reader = open_ok(path);
      ASSERT_NE(reader, nullptr);
      EXPECT_EQ(reader->info().y4m_colorspace, c.tag);
      expect_all_frames(*reader, fmt, 2);
    }
  }
}

TEST(Y4m, TenBitSamplesAreLittleEndian) {
  TempDir dir;
  const std::string path = dir.file("le.y4m");
  Bytes b;
  append(b, "YUV4MPEG2 W2 H1 F25:1 Cmono10\nFRAME\n");
  append(b, Bytes{0x01, 0x02, 0xff, 0x03});  // 0x0201 = 513, 0x03ff = 1023
  write_file(path, b);
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  Picture pic;
  auto got = reader->read(pic);
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  EXPECT_EQ(pic.plane(0).row<std::uint16_t>(0)[0], 513);
  EXPECT_EQ(pic.plane(0).row<std::uint16_t>(0)[1], 1023);
}

TEST(Y4m, Exact8BitValues444) {
  TempDir dir;
  const std::string path = dir.file("v.y4m");
  Bytes b;
  append(b, "YUV4MPEG2 W2 H1 C444\nFRAME\n");
  append(b, Bytes{0, 255, 16, 235, 128, 1});
  write_file(path, b);
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  Picture pic;
  auto got = reader->read(pic);
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  EXPECT_EQ(pic.plane(0).at(0, 0), 0U);
  EXPECT_EQ(pic.plane(0).at(1, 0), 255U);
  EXPECT_EQ(pic.plane(1).at(0, 0), 16U);
  EXPECT_EQ(pic.plane(1).at(1, 0), 235U);
  EXPECT_EQ(pic.plane(2).at(0, 0), 128U);
  EXPECT_EQ(pic.plane(2).at(1, 0), 1U);
}

TEST(Y4m, AlphaPlaneIsDropped) {
  TempDir dir;
  const std::string path = dir.file("alpha.y4m");
  const PictureFormat fmt{5, 3, 8, ChromaFormat::k444};
  write_file(path, make_y4m(y4m_header(5, 3, "444alpha"), fmt, 3, /*alpha=*/true));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(reader->info().has_alpha);
  expect_all_frames(*reader, fmt, 3);
}

TEST(Y4m, HeaderFieldsAreKept) {
  TempDir dir;
  const std::string path = dir.file("fields.y4m");
  const PictureFormat fmt{4, 2, 10, ChromaFormat::k422};
  write_file(path, make_y4m("YUV4MPEG2 W4 H2 F30000:1001 It A16:15 C422p10 XYSCSS=422P10 "
                            "XCOLORRANGE=FULL Zunknown\n",
                            fmt, 1));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  const VideoInfo& i = reader->info();
  EXPECT_EQ(i.fps_num, 30000U);
  EXPECT_EQ(i.fps_den, 1001U);
  EXPECT_EQ(i.sar_num, 16U);
  EXPECT_EQ(i.sar_den, 15U);
  EXPECT_EQ(i.interlace, 't');
  EXPECT_EQ(i.range, ColorRange::kFull);
  EXPECT_EQ(i.y4m_extensions, (std::vector<std::string>{"YSCSS=422P10", "COLORRANGE=FULL"}));
  expect_all_frames(*reader, fmt, 1);
}

TEST(Y4m, DefaultsWithoutOptionalTags) {
  TempDir dir;
  // No C tag: 4:2:0 8-bit, as libvmaf and FFmpeg assume; no F, I, A.
  const std::string path = dir.file("bare.y4m");
  const PictureFormat fmt{3, 3, 8, ChromaFormat::k420};
  write_file(path, make_y4m("YUV4MPEG2 W3 H3\n", fmt, 2));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->info().fps_num, 0U);
  EXPECT_EQ(reader->info().interlace, '?');
  EXPECT_EQ(reader->info().range, ColorRange::kUnknown);
  expect_all_frames(*reader, fmt, 2);

  // No C tag but FFmpeg's older XYSCSS extension: that describes the frames.
  const std::string path2 = dir.file("yscss.y4m");
  const PictureFormat fmt2{3, 3, 10, ChromaFormat::k420};
  write_file(path2, make_y4m("YUV4MPEG2 W3 H3 F25:1 XYSCSS=420P10\n", fmt2, 2));
  auto reader2 = open_ok(path2);
  ASSERT_NE(reader2, nullptr);
  expect_all_frames(*reader2, fmt2, 2);
}

TEST(Y4m, FrameHeadersWithParameters) {
  TempDir dir;
  const std::string path = dir.file("params.y4m");
  const PictureFormat fmt{4, 4, 8, ChromaFormat::k420};
  Bytes b;
  append(b, y4m_header(4, 4, "420mpeg2"));
  append(b, "FRAME Ixyz Xsomething=1\n");
  append(b, pack_frame(fmt, 0));
  append(b, "FRAME\n");
  append(b, pack_frame(fmt, 1));
  append(b, "FRAME \n");
  append(b, pack_frame(fmt, 2));
  write_file(path, b);
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  expect_all_frames(*reader, fmt, 3);
}

// A regular file's frames are counted when it is opened: by its size when
// every frame header is a bare "FRAME\n", else by walking the headers.
TEST(Y4m, FrameCountIsKnownAtOpen) {
  TempDir dir;
  const PictureFormat fmt{4, 4, 8, ChromaFormat::k420};
  const std::string bare = dir.file("bare.y4m");
  write_file(bare, make_y4m(y4m_header(4, 4, "420"), fmt, 3));
  auto r1 = open_ok(bare);
  ASSERT_NE(r1, nullptr);
  EXPECT_EQ(r1->info().frame_count, 3);
  expect_all_frames(*r1, fmt, 3);

  const std::string params = dir.file("params.y4m");
  Bytes b;
  append(b, y4m_header(4, 4, "420"));
  for (unsigned f = 0; f < 4; ++f) {
    append(b, f == 2 ? "FRAME Ip\n" : "FRAME\n");
    append(b, pack_frame(fmt, f));
  }
  write_file(params, b);
  auto r2 = open_ok(params);
  ASSERT_NE(r2, nullptr);
  EXPECT_EQ(r2->info().frame_count, 4);
  expect_all_frames(*r2, fmt, 4);

  const std::string empty = dir.file("empty.y4m");
  write_file(empty, make_y4m(y4m_header(4, 4, "420"), fmt, 0));
  auto r3 = open_ok(empty);
  ASSERT_NE(r3, nullptr);
  EXPECT_EQ(r3->info().frame_count, 0);

  // Through a pipe nothing is known up front.
  std::string bytes;
  for (const auto byte : make_y4m(y4m_header(4, 4, "420"), fmt, 2))
    bytes += static_cast<char>(byte);
  const Fifo fifo(bytes);
  auto r4 = open_ok(fifo.path());
  ASSERT_NE(r4, nullptr);
  EXPECT_EQ(r4->info().frame_count, -1);
  expect_all_frames(*r4, fmt, 2);
}

TEST(Y4m, AnyExtensionAndRawParamsIgnored) {
  TempDir dir;
  const std::string path = dir.file("clip.yuv");  // a Y4M file despite its name
  const PictureFormat fmt{8, 6, 8, ChromaFormat::k444};
  write_file(path, make_y4m(y4m_header(8, 6, "444"), fmt, 2));
  // The header describes the frames; -w -h -p -b cannot misread them.
  auto reader = open_ok(path, RawVideoParams{1920, 1080, 10, ChromaFormat::k420});
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->info().container, "y4m");
  expect_all_frames(*reader, fmt, 2);
}

TEST(Y4m, EmptyStreamEndsCleanly) {
  TempDir dir;
  const std::string path = dir.file("empty.y4m");
  write_file(path,
             make_y4m(y4m_header(4, 4, "420"), PictureFormat{4, 4, 8, ChromaFormat::k420}, 0));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  Picture pic;
  auto got = reader->read(pic);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_FALSE(*got);
}

TEST(Y4m, PictureIsReallocatedWhenItsFormatDiffers) {
  TempDir dir;
  const std::string path = dir.file("re.y4m");
  const PictureFormat fmt{6, 2, 8, ChromaFormat::k422};
  write_file(path, make_y4m(y4m_header(6, 2, "422"), fmt, 2));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  auto pic = Picture::make(PictureFormat{16, 16, 10, ChromaFormat::k444});
  ASSERT_TRUE(pic.ok());
  auto got = reader->read(*pic);
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  expect_frame(*pic, fmt, 0);
  const std::uint8_t* data = pic->plane(0).data();
  got = reader->read(*pic);  // same format now: reused, not reallocated
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  EXPECT_EQ(pic->plane(0).data(), data);
  expect_frame(*pic, fmt, 1);
}

TEST(Y4m, Skip) {
  TempDir dir;
  const std::string path = dir.file("skip.y4m");
  const PictureFormat fmt{5, 5, 10, ChromaFormat::k420};
  write_file(path, make_y4m(y4m_header(5, 5, "420p10"), fmt, 4));
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(reader->skip(2).ok());
  Picture pic;
  auto got = reader->read(pic);
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  expect_frame(pic, fmt, 2);
  const Status s = reader->skip(5);  // only one frame left
  EXPECT_EQ(s.code(), Errc::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
}

// ---------------------------------------------------------------- Y4M errors

TEST(Y4mErrors, TruncatedFrame) {
  TempDir dir;
  const std::string path = dir.file("trunc.y4m");
  const PictureFormat fmt{6, 4, 8, ChromaFormat::k420};  // 36 bytes a frame
  Bytes b = make_y4m(y4m_header(6, 4, "420"), fmt, 3);
  b.resize(b.size() - 10);
  write_file(path, b);
  expect_framing_error(path, std::nullopt, 2, Errc::kParse,
                       "frame 2 is truncated (got 26 of 36 bytes)");
}

// Frame headers with parameters defeat the count by size: the headers are
// walked and the cut is still found at open.
TEST(Y4mErrors, TruncatedFrameAfterFrameParameters) {
  TempDir dir;
  const std::string path = dir.file("trunc_params.y4m");
  const PictureFormat fmt{6, 4, 8, ChromaFormat::k420};  // 36 bytes a frame
  Bytes b;
  append(b, y4m_header(6, 4, "420"));
  for (unsigned f = 0; f < 3; ++f) {
    append(b, "FRAME Ip Xa=b\n");
    append(b, pack_frame(fmt, f));
  }
  b.resize(b.size() - 1);
  write_file(path, b);
  expect_framing_error(path, std::nullopt, 2, Errc::kParse,
                       "frame 2 is truncated (got 35 of 36 bytes)");
}

TEST(Y4mErrors, TruncatedFrameHeader) {
  TempDir dir;
  const std::string path = dir.file("trunc_hdr.y4m");
  const PictureFormat fmt{2, 2, 8, ChromaFormat::k400};
  Bytes b = make_y4m(y4m_header(2, 2, "mono"), fmt, 1);
  append(b, "FRA");
  write_file(path, b);
  expect_framing_error(path, std::nullopt, 1, Errc::kParse, "frame 1: FRAME header cut short");
}

TEST(Y4mErrors, MissingFrameMarker) {
  TempDir dir;
  const std::string path = dir.file("noframe.y4m");
  const PictureFormat fmt{2, 2, 8, ChromaFormat::k400};
  Bytes b = make_y4m(y4m_header(2, 2, "mono"), fmt, 2);
  b.push_back(0x42);  // one byte too many in frame 1: framing is lost before frame 2
  append(b, "FRAME\n");
  append(b, pack_frame(fmt, 2));
  // Also a frame whose marker is replaced by sample data.
  write_file(path, b);
  expect_framing_error(path, std::nullopt, 2, Errc::kParse, "frame 2: expected a FRAME header");

  const std::string path2 = dir.file("noframe2.y4m");
  Bytes b2;
  append(b2, y4m_header(2, 2, "mono"));
  append(b2, pack_frame(fmt, 0));
  write_file(path2, b2);
  expect_framing_error(path2, std::nullopt, 0, Errc::kParse, "frame 0: expected a FRAME header");
}

TEST(Y4mErrors, GarbledFrameMarker) {
  TempDir dir;
  const std::string path = dir.file("garbled.y4m");
  const PictureFormat fmt{2, 2, 8, ChromaFormat::k400};
  Bytes b;
  append(b, y4m_header(2, 2, "mono"));
  append(b, "FRAMEX\n");
  append(b, pack_frame(fmt, 0));
  write_file(path, b);
  expect_framing_error(path, std::nullopt, 0, Errc::kParse, "garbled FRAME header");

  const std::string path2 = dir.file("longframe.y4m");
  Bytes b2;
  append(b2, y4m_header(2, 2, "mono"));
  append(b2, "FRAME " + std::string(5000, 'x'));
  write_file(path2, b2);
  expect_framing_error(path2, std::nullopt, 0, Errc::kParse, "FRAME header has no newline");
}

TEST(Y4mErrors, GarbageHeader) {
  TempDir dir;
  struct Case {
    std::string name;
    std::string header;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {"text", "hello world, this is not a video\n", "not a Y4M file"},
      {"binary", std::string("\x1a\x45\xdf\xa3\x00\x00\x00\x00\x00\x00\x42\x86\n", 13),
       "not a Y4M file"},
      {"empty", "", "the file is empty"},
      {"width", "YUV4MPEG2 W12x H10 F25:1\n", "bad width 'W12x'"},
      {"height", "YUV4MPEG2 W12 H-4 F25:1\n", "bad height 'H-4'"},
      {"nowidth", "YUV4MPEG2 H10 F25:1\n", "no width (W) tag"},
      {"noheight", "YUV4MPEG2 W10\n", "no height (H) tag"},
      {"zero", "YUV4MPEG2 W0 H10\n", "width is 0"},
      {"fps", "YUV4MPEG2 W10 H10 F25\n", "bad frame rate 'F25'"},
      {"aspect", "YUV4MPEG2 W10 H10 A1:x\n", "bad pixel aspect ratio"},
      {"interlace", "YUV4MPEG2 W10 H10 Ix\n", "bad interlacing tag 'Ix'"},
      {"magic", "YUV4MPEG2W10 H10\n", "bad magic"},
      {"nonprint", std::string("YUV4MPEG2 W10 H10 \x01\n", 20), "non-printable byte"},
      {"nonewline", "YUV4MPEG2 W10 H10 F25:1", "not terminated by a newline"},
      {"toolong", "YUV4MPEG2 W10 H10 X" + std::string(5000, 'a') + "\n", "no newline within"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir.file(c.name + ".y4m");
    Bytes b;
    append(b, c.header);
    write_file(path, b);
    expect_open_error(path, std::nullopt, Errc::kParse, c.needle);
  }
}

TEST(Y4mErrors, UnsupportedColourTag) {
  TempDir dir;
  for (const std::string tag :
       {"411", "420p11", "420p8", "yuv420p", "mono7", "444alphap10", "420JPEG"}) {
    SCOPED_TRACE(tag);
    const std::string path = dir.file("c" + tag + ".y4m");
    Bytes b;
    append(b, y4m_header(4, 4, tag));
    write_file(path, b);
    expect_open_error(path, std::nullopt, Errc::kUnsupported, "C" + tag);
  }
}

TEST(Y4mErrors, HugeDimensionsAreRefusedBeforeAllocation) {
  TempDir dir;
  struct Case {
    std::string header;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {"YUV4MPEG2 W100000 H100000 F25:1 C420\n", "100000x100000"},
      {"YUV4MPEG2 W16385 H16 C444p16\n", "16385x16"},
      {"YUV4MPEG2 W99999999999999 H99999999999 C420\n", "99999999999999x99999999999"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.header);
    const std::string path = dir.file("huge" + std::to_string(n++) + ".y4m");
    Bytes b;
    append(b, c.header);
    append(b, "FRAME\n");
    write_file(path, b);
    expect_open_error(path, std::nullopt, Errc::kLimit, c.needle);
  }
  // A number past 64 bits is malformed rather than large.
  const std::string path = dir.file("huge_overflow.y4m");
  Bytes b;
  append(b, "YUV4MPEG2 W123456789012345678901234567890 H10\n");
  write_file(path, b);
  expect_open_error(path, std::nullopt, Errc::kParse, "bad width");
}

TEST(Y4mErrors, SampleAboveBitDepth) {
  TempDir dir;
  const std::string path = dir.file("range.y4m");
  Bytes b;
  append(b, "YUV4MPEG2 W2 H1 Cmono10\n");
  append(b, "FRAME\n");
  append(b, Bytes{0xff, 0x03, 0x00, 0x00});  // 1023 0: fine
  append(b, "FRAME\n");
  append(b, Bytes{0x00, 0x04, 0x00, 0x00});  // 1024: too big for 10 bits
  write_file(path, b);
  expect_read_error(path, std::nullopt, 1, Errc::kParse,
                    "frame 1 has sample values above the 10-bit maximum 1023");
}

// ---------------------------------------------------------------- raw

TEST(Raw, ReadsEveryLayout) {
  TempDir dir;
  const std::array<PictureFormat, 8> fmts = {{
      {7, 5, 8, ChromaFormat::k420},
      {7, 5, 10, ChromaFormat::k420},
      {9, 3, 8, ChromaFormat::k422},
      {9, 3, 12, ChromaFormat::k422},
      {3, 7, 8, ChromaFormat::k444},
      {3, 7, 16, ChromaFormat::k444},
      {5, 5, 8, ChromaFormat::k400},
      {5, 5, 10, ChromaFormat::k400},
  }};
  int n = 0;
  for (const PictureFormat& fmt : fmts) {
    SCOPED_TRACE(std::string(to_string(fmt.chroma)) + " " + std::to_string(fmt.bpc) + "-bit");
    const std::string path = dir.file("raw" + std::to_string(n++) + ".yuv");
    write_file(path, make_raw(fmt, 3));
    auto reader = open_ok(path, RawVideoParams{fmt.width, fmt.height, fmt.bpc, fmt.chroma});
    ASSERT_NE(reader, nullptr);
    EXPECT_EQ(reader->info().container, "raw");
    EXPECT_EQ(reader->info().frame_count, 3);
    expect_all_frames(*reader, fmt, 3);
  }
}

TEST(Raw, AnyExtensionWhenParamsAreGiven) {
  TempDir dir;
  const std::string path = dir.file("frames.bin");
  const PictureFormat fmt{4, 2, 8, ChromaFormat::k420};
  write_file(path, make_raw(fmt, 2));
  auto reader = open_ok(path, RawVideoParams{4, 2, 8, ChromaFormat::k420});
  ASSERT_NE(reader, nullptr);
  expect_all_frames(*reader, fmt, 2);
}

TEST(Raw, Skip) {
  TempDir dir;
  const std::string path = dir.file("skip.yuv");
  const PictureFormat fmt{4, 4, 10, ChromaFormat::k444};
  write_file(path, make_raw(fmt, 3));
  auto reader = open_ok(path, RawVideoParams{4, 4, 10, ChromaFormat::k444});
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->info().frame_count, 3);
  ASSERT_TRUE(reader->skip(1).ok());
  Picture pic;
  auto got = reader->read(pic);
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  expect_frame(pic, fmt, 1);
  EXPECT_EQ(reader->skip(3).code(), Errc::kInvalidArgument);
}

TEST(RawErrors, SizeNotAMultipleOfTheFrameSize) {
  TempDir dir;
  const std::string path = dir.file("short.yuv");
  const PictureFormat fmt{4, 4, 8, ChromaFormat::k420};  // 24 bytes a frame
  Bytes b = make_raw(fmt, 3);
  b.resize(b.size() - 5);
  write_file(path, b);
  // The file's size is known: opening fails (before, the whole frames were
  // read and the partial one was the error, after scoring them all).
  // Through a pipe, the whole frames read and the partial one is the error.
  expect_framing_error(path, RawVideoParams{4, 4, 8, ChromaFormat::k420}, 2, Errc::kParse,
                       "frame 2 is truncated (got 19 of 24 bytes",
                       "the file's 67 bytes are not a whole number of 4x4 420 8-bit frames of 24 "
                       "bytes (2 frames and 19 bytes): check -w -h -p -b");
  // Parameters that do not fit the file at all.
  expect_framing_error(path, RawVideoParams{64, 64, 8, ChromaFormat::k420}, 0, Errc::kParse,
                       "frame 0 is truncated (got 67 of 6144 bytes",
                       "the file's 67 bytes are not a whole number of 64x64");
}

TEST(RawErrors, BadParameters) {
  TempDir dir;
  const std::string path = dir.file("p.yuv");
  write_file(path, Bytes(100, 0));
  expect_open_error(path, RawVideoParams{0, 10, 8, ChromaFormat::k420}, Errc::kInvalidArgument,
                    "raw video parameters");
  expect_open_error(path, RawVideoParams{100000, 100000, 8, ChromaFormat::k420}, Errc::kLimit,
                    "100000x100000");
  expect_open_error(path, RawVideoParams{10, 10, 17, ChromaFormat::k420}, Errc::kUnsupported,
                    "bit depth 17");
}

TEST(RawErrors, YuvWithoutParameters) {
  TempDir dir;
  const std::string path = dir.file("noparams.yuv");
  write_file(path, Bytes(100, 0));
  expect_open_error(path, std::nullopt, Errc::kInvalidArgument, "-w -h -p -b");
}

// ---------------------------------------------------------------- open_video, parse_pixel_format

TEST(OpenVideo, MissingFile) {
  TempDir dir;
  for (const char* name : {"missing.y4m", "missing.yuv", "missing.mkv"}) {
    SCOPED_TRACE(name);
    const std::string path = dir.file(name);
    expect_open_error(path, std::nullopt, Errc::kIo, "cannot open");
    expect_open_error(path, RawVideoParams{4, 4, 8, ChromaFormat::k420}, Errc::kIo, "cannot open");
  }
}

TEST(OpenVideo, Directory) {
  TempDir dir;
  const std::string path = dir.file("adir.y4m");
  fs::create_directory(path);
  expect_open_error(path, std::nullopt, Errc::kIo, "is a directory");
}

TEST(OpenVideo, NotAVideoWithoutY4mMagic) {
  TempDir dir;
  const std::string path = dir.file("notes.mp4");
  Bytes b;
  append(b, "just some text, not a video at all\n");
  write_file(path, b);
  auto r = open_video(path, std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(path), std::string::npos) << r.status().message();
  if (!libav_available()) {
    EXPECT_EQ(r.status().code(), Errc::kUnsupported);
    EXPECT_NE(r.status().message().find("without FFmpeg"), std::string::npos);
  }
}

TEST(OpenVideo, FrameRates) {
  const auto rate = [](unsigned num, unsigned den) {
    VideoInfo info;
    info.fps_num = num;
    info.fps_den = den;
    return info;
  };
  EXPECT_EQ(describe_frame_rate(rate(25, 1)), "25 fps");
  EXPECT_EQ(describe_frame_rate(rate(50, 2)), "25 fps");
  EXPECT_EQ(describe_frame_rate(rate(30000, 1001)), "30000/1001 fps (29.97)");
  EXPECT_EQ(describe_frame_rate(rate(24000, 1001)), "24000/1001 fps (23.976)");
  EXPECT_EQ(describe_frame_rate(rate(0, 0)), "an unknown rate");
  EXPECT_EQ(describe_frame_rate(rate(25, 0)), "an unknown rate");
  EXPECT_FALSE(frame_rate_known(rate(0, 1)));
  EXPECT_TRUE(same_frame_rate(rate(25, 1), rate(50, 2)));
  EXPECT_TRUE(same_frame_rate(rate(30000, 1001), rate(2997, 100)));
  EXPECT_TRUE(same_frame_rate(rate(24000, 1001), rate(2997, 125)));
  EXPECT_FALSE(same_frame_rate(rate(30000, 1001), rate(30, 1)));
  EXPECT_FALSE(same_frame_rate(rate(24000, 1001), rate(24, 1)));
  EXPECT_FALSE(same_frame_rate(rate(25, 1), rate(50, 1)));
  EXPECT_FALSE(same_frame_rate(rate(25, 1), rate(0, 0)));  // unknown is never "the same"
  EXPECT_TRUE(same_frame_rate(rate(0xffffffffU, 1), rate(0xffffffffU, 1)));
}

TEST(OpenVideo, ParsePixelFormat) {
  EXPECT_EQ(*parse_pixel_format("420"), ChromaFormat::k420);
  EXPECT_EQ(*parse_pixel_format("422"), ChromaFormat::k422);
  EXPECT_EQ(*parse_pixel_format("444"), ChromaFormat::k444);
  EXPECT_EQ(*parse_pixel_format("400"), ChromaFormat::k400);
  for (const char* bad : {"", "yuv420p", "420p", " 420", "411", "4:2:0"}) {
    SCOPED_TRACE(bad);
    auto r = parse_pixel_format(bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Errc::kInvalidArgument);
  }
}

// ---------------------------------------------------------------- libav

struct LibavCase {
  const char* file;
  PictureFormat fmt;
  unsigned frames;
  const char* sha256;  // of `ffmpeg -i FILE -f rawvideo -`
};

TEST(Libav, ReadsFfv1LikeFfmpeg) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  const std::array<LibavCase, 2> cases = {{
      {"ffv1_64x48_420p8.mkv",
       {64, 48, 8, ChromaFormat::k420},
       3,
       "815c4d7c4c21ed06731e0fc8a4463239d6c580fcfcd7a5eee9b068f83ecbfe23"},
      {"ffv1_33x17_420p10.mkv",
       {33, 17, 10, ChromaFormat::k420},
       3,
       "a35a9415aac10ef41fb136d1ade1b32827f0bbd103e8b7b832b3314d28bb832f"},
  }};
  for (const LibavCase& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = (data_dir() / c.file).string();
    auto reader = open_ok(path);
    ASSERT_NE(reader, nullptr);
    EXPECT_EQ(reader->format(), c.fmt);
    EXPECT_EQ(reader->info().codec, "ffv1");
    unsigned frames = 0;
    EXPECT_EQ(sha256_of_frames(*reader, frames), c.sha256);
    EXPECT_EQ(frames, c.frames);
    EXPECT_EQ(reader->frames_read(), c.frames);
  }
}

// FFmpeg's libraries are loaded when a file needs them, not at start-up
// (src/io/libav_api.hpp): reading Y4M loads none of them, the first other
// file loads them. Run in a fresh process (gtest re-runs this test alone in
// a child), since the other tests of this program load them.
bool libavformat_loaded() {
  return dl_iterate_phdr(
             [](dl_phdr_info* info, std::size_t, void*) {
               return std::strstr(info->dlpi_name, "libavformat.so") != nullptr ? 1 : 0;
             },
             nullptr) != 0;
}

TEST(Libav, LoadedOnlyWhenAFileNeedsIt) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        TempDir dir;
        const std::string y4m = dir.file("a.y4m");
        write_file(y4m, make_y4m(y4m_header(8, 4, "420jpeg"), {8, 4, 8, ChromaFormat::k420}, 2));
        auto a = open_video(y4m, std::nullopt);
        Picture pic;
        if (!a.ok() || !(*a)->read(pic).ok()) std::_Exit(3);
        if (libavformat_loaded()) std::_Exit(4);
        auto b = open_video((data_dir() / "ffv1_64x48_420p8.mkv").string(), std::nullopt);
        if (!b.ok() || !(*b)->read(pic).ok()) std::_Exit(5);
        std::_Exit(libavformat_loaded() ? 0 : 6);
      },
      testing::ExitedWithCode(0), "")
      << "exit 4: a Y4M file loaded libavformat; 5: the .mkv was not read; 6: it was read "
         "without libavformat";
}

TEST(Libav, Skip) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  const std::string path = (data_dir() / "ffv1_64x48_420p8.mkv").string();
  auto reader = open_ok(path);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(reader->skip(2).ok());
  Picture pic;
  auto got = reader->read(pic);
  ASSERT_TRUE(got.ok() && *got) << got.status().message();
  got = reader->read(pic);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_FALSE(*got);
  EXPECT_EQ(reader->skip(1).code(), Errc::kInvalidArgument);
}

TEST(Libav, UnsupportedPixelFormat) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  const std::string path = (data_dir() / "ffv1_16x16_bgr0.mkv").string();
  expect_open_error(path, std::nullopt, Errc::kUnsupported, "unsupported pixel format bgr0");
}

TEST(Libav, TruncatedFile) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  TempDir dir;
  std::ifstream in(data_dir() / "ffv1_64x48_420p8.mkv", std::ios::binary);
  Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(b.size(), 1000U);
  b.resize(b.size() - 600);  // cuts into the last frame
  const std::string path = dir.file("cut.mkv");
  write_file(path, b);
  auto r = open_video(path, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().message();
  Picture pic;
  Status last;
  for (int i = 0; i < 10; ++i) {
    auto got = (*r)->read(pic);
    if (!got.ok()) {
      last = got.status();
      break;
    }
    ASSERT_TRUE(*got) << "the cut file ended cleanly after " << i << " frames";
  }
  EXPECT_FALSE(last.ok());
  EXPECT_NE(last.message().find(path), std::string::npos) << last.message();
}

// FFV1 conceals a slice whose CRC does not match and says so only in its
// log (exit status 0 from `ffmpeg -i`): VQX must refuse the frames, in one
// message of its own, with nothing of FFmpeg's on stderr.
TEST(Libav, DamagedSliceIsAnErrorNotAConcealedScore) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  TempDir dir;
  std::ifstream in(data_dir() / "ffv1_64x48_420p8.mkv", std::ios::binary);
  Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Inside the second frame's slice data (its packet starts at byte 1478).
  constexpr std::size_t kOffset = 1478 + 300;
  ASSERT_GT(b.size(), kOffset);
  b[kOffset] ^= 0x5a;
  const std::string path = dir.file("damaged.mkv");
  write_file(path, b);

  testing::internal::CaptureStderr();
  Status failed;
  unsigned good_frames = 0;
  {
    auto r = open_video(path, std::nullopt);
    ASSERT_TRUE(r.ok()) << r.status().message();  // the first frame is intact
    Picture pic;
    for (int i = 0; i < 10 && failed.ok(); ++i) {
      auto got = (*r)->read(pic);
      if (!got.ok()) {
        failed = got.status();
      } else if (!*got) {
        break;
      } else {
        ++good_frames;
      }
    }
  }
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(failed.ok()) << "the damaged frame was read as if intact";
  EXPECT_LE(good_frames, 1U);
  EXPECT_EQ(failed.code(), Errc::kParse);
  EXPECT_NE(failed.message().find(path), std::string::npos) << failed.message();
  EXPECT_NE(failed.message().find("damaged"), std::string::npos) << failed.message();
  EXPECT_NE(failed.message().find("CRC mismatch"), std::string::npos) << failed.message();
  EXPECT_EQ(failed.message().find('\n'), std::string::npos) << failed.message();
  EXPECT_EQ(stderr_text, "");
}

}  // namespace
}  // namespace vqx

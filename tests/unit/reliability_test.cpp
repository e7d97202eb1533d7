// Hostile and unusual inputs outside the fuzz targets (docs/reliability.md):
// input through pipes (read once, never reopened) and model paths that never
// end.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "fifo.hpp"
#include "model/model.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;

std::string frame_bytes(const PictureFormat& fmt, unsigned f) {
  std::string b(fmt.packed_frame_bytes(), '\0');
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<char>((i * 7 + f * 13) & 0xff);
  return b;
}

void expect_frames(VideoReader& r, const PictureFormat& fmt, unsigned frames) {
  Picture pic;
  for (unsigned f = 0; f < frames; ++f) {
    auto got = r.read(pic);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(*got) << "frame " << f;
    const std::string want = frame_bytes(fmt, f);
    // 8-bit 4:2:0: compare the first and last luma samples and a chroma one.
    EXPECT_EQ(pic.plane(0).row<std::uint8_t>(0)[0], static_cast<std::uint8_t>(want[0]));
    EXPECT_EQ(pic.plane(0).row<std::uint8_t>(fmt.height - 1)[fmt.width - 1],
              static_cast<std::uint8_t>(want[std::size_t{fmt.width} * fmt.height - 1]));
    EXPECT_EQ(pic.plane(1).row<std::uint8_t>(0)[0],
              static_cast<std::uint8_t>(want[std::size_t{fmt.width} * fmt.height]));
  }
  auto end = r.read(pic);
  ASSERT_TRUE(end.ok()) << end.status().message();
  EXPECT_FALSE(*end);
}

// Before, open_video() read the magic bytes, closed the file and reopened
// it: a pipe lost its first 9 bytes ("not a Y4M file").
TEST(PipeInput, Y4mThroughAPipe) {
  const PictureFormat fmt{16, 8, 8, ChromaFormat::k420};
  std::string y4m = "YUV4MPEG2 W16 H8 F25:1 C420jpeg\n";
  for (unsigned f = 0; f < 3; ++f) y4m += "FRAME\n" + frame_bytes(fmt, f);
  Fifo fifo(y4m);
  auto r = open_video(fifo.path(), std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ((*r)->format(), fmt);
  expect_frames(**r, fmt, 3);
}

TEST(PipeInput, RawThroughAPipe) {
  const PictureFormat fmt{16, 8, 8, ChromaFormat::k420};
  std::string raw;
  for (unsigned f = 0; f < 3; ++f) raw += frame_bytes(fmt, f);
  Fifo fifo(raw);
  auto r = open_video(fifo.path(), RawVideoParams{16, 8, 8, ChromaFormat::k420});
  ASSERT_TRUE(r.ok()) << r.status().message();
  expect_frames(**r, fmt, 3);
}

TEST(PipeInput, OtherFormatsThroughAPipeAreRefusedClearly) {
  Fifo fifo(std::string(64, '\x1a'));
  auto r = open_video(fifo.path(), std::nullopt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::kUnsupported);
  EXPECT_EQ(r.status().message().rfind(fifo.path(), 0), 0U) << r.status().message();
  EXPECT_NE(r.status().message().find("pipe"), std::string::npos) << r.status().message();
}

// Before, a model path was read to its end before the size check: -m
// path=/dev/zero grew memory until the process was killed.
TEST(ModelFile, EndlessFileIsRefusedAtTheSizeLimit) {
  auto m = Model::from_file("/dev/zero");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), Errc::kLimit) << m.status().message();
  EXPECT_NE(m.status().message().find("/dev/zero"), std::string::npos);
}

}  // namespace
}  // namespace vqx

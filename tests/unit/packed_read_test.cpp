// The Y4M and raw readers' reads straight into a picture's rows
// (io/packed_reader.hpp, io/input_file.hpp): every row layout (rows that
// are contiguous, rows with padding), every sample width, from a regular
// file and through a pipe written in small pieces; the depth check of
// 9..15-bit samples in every chunk of a plane; the input file's buffer,
// its scattered reads, and interrupt() of a read waiting on a stalled pipe.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fifo.hpp"
#include "io/input_file.hpp"
#include "io/packed_reader.hpp"
#include "output_folder.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A sample value for plane p at (x, y) of frame f, over the depth's range.
std::uint32_t sample(unsigned p, unsigned x, unsigned y, unsigned f, unsigned bpc) {
  return ((p * 131U) + (x * 7U) + (y * 53U) + (f * 17U) + (x * y)) & ((1U << bpc) - 1U);
}

// Frames packed as Y4M payloads and raw files hold them (16-bit little-endian).
std::string packed_frame(const PictureFormat& fmt, unsigned f, bool alpha = false) {
  std::string b;
  const unsigned planes = fmt.plane_count() + (alpha ? 1U : 0U);
  for (unsigned p = 0; p < planes; ++p) {
    const unsigned w = p < fmt.plane_count() ? fmt.plane_width(p) : fmt.width;
    const unsigned h = p < fmt.plane_count() ? fmt.plane_height(p) : fmt.height;
    for (unsigned y = 0; y < h; ++y) {
      for (unsigned x = 0; x < w; ++x) {
        const std::uint32_t v = sample(p, x, y, f, fmt.bpc);
        b.push_back(static_cast<char>(v & 0xff));
        if (fmt.bpc > 8) b.push_back(static_cast<char>(v >> 8));
      }
    }
  }
  return b;
}

const char* colour_tag(const PictureFormat& fmt) {
  static const std::string tags[4][3] = {{"mono", "mono10", "mono16"},
                                         {"420", "420p10", "420p16"},
                                         {"422", "422p10", "422p16"},
                                         {"444", "444p10", "444p16"}};
  const int depth = fmt.bpc == 8 ? 0 : fmt.bpc == 10 ? 1 : 2;
  return tags[static_cast<int>(fmt.chroma)][depth].c_str();
}

std::string y4m(const PictureFormat& fmt, unsigned frames) {
  std::string s = "YUV4MPEG2 W" + std::to_string(fmt.width) + " H" + std::to_string(fmt.height) +
                  " F25:1 C" + colour_tag(fmt) + "\n";
  for (unsigned f = 0; f < frames; ++f) s += "FRAME\n" + packed_frame(fmt, f);
  return s;
}

using PackedRead = testing_util::OutputFolderTest;

// Every frame of `path` against sample(), then the end.
void expect_frames(const std::string& path, const std::optional<RawVideoParams>& raw,
                   const PictureFormat& fmt, unsigned frames) {
  auto reader = open_video(path, raw);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  ASSERT_EQ((*reader)->format(), fmt);
  Picture pic;
  for (unsigned f = 0; f < frames; ++f) {
    auto got = (*reader)->read(pic);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(*got) << "frame " << f;
    for (unsigned p = 0; p < fmt.plane_count(); ++p) {
      for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
        for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
          ASSERT_EQ(pic.plane(p).at(x, y), sample(p, x, y, f, fmt.bpc))
              << "frame " << f << " plane " << p << " x " << x << " y " << y;
        }
      }
    }
  }
  auto end = (*reader)->read(pic);
  ASSERT_TRUE(end.ok()) << end.status().message();
  EXPECT_FALSE(*end);
}

// Rows of widths whose rows are padded in the picture (1, 100, 176) and
// whose rows are contiguous (64, 192 bytes), at 8, 10 and 16 bits, from a
// file and through a FIFO, as Y4M and as raw.
TEST_F(PackedRead, EveryRowLayoutAndDepthFromAFileAndAPipe) {
  for (const unsigned width : {1U, 64U, 96U, 100U, 176U}) {
    for (const unsigned bpc : {8U, 10U, 16U}) {
      for (const ChromaFormat chroma :
           {ChromaFormat::k400, ChromaFormat::k420, ChromaFormat::k444}) {
        const PictureFormat fmt{width, 37, bpc, chroma};
        SCOPED_TRACE(std::to_string(width) + " " + std::to_string(bpc) + " " + to_string(chroma));
        const std::string y = y4m(fmt, 3);
        expect_frames(write("v.y4m", y), std::nullopt, fmt, 3);
        {
          const Fifo fifo(y);
          expect_frames(fifo.path(), std::nullopt, fmt, 3);
        }
        std::string raw;
        for (unsigned f = 0; f < 3; ++f) raw += packed_frame(fmt, f);
        const RawVideoParams params{width, 37, bpc, chroma};
        expect_frames(write("v.yuv", raw), params, fmt, 3);
        const Fifo fifo(raw);
        expect_frames(fifo.path(), params, fmt, 3);
      }
    }
  }
}

// A plane of 10-bit samples larger than the chunk the check reads at once
// (256 KiB): a sample above the depth is found in the first chunk of luma,
// in the last row of the last plane, and nowhere else.
TEST_F(PackedRead, SampleAboveTheDepthIsFoundInEveryChunk) {
  const PictureFormat fmt{1000, 300, 10, ChromaFormat::k420};
  const std::size_t luma = std::size_t{1000} * 300 * 2;
  const std::string good = packed_frame(fmt, 0);
  for (const std::size_t at : {std::size_t{0}, luma - 2, good.size() - 2}) {
    SCOPED_TRACE(at);
    std::string frame = good;
    frame[at + 1] = '\x04';  // 0x04xx: above 1023
    const std::string header = "YUV4MPEG2 W1000 H300 F25:1 C420p10\n";
    const std::string path =
        write("bad.y4m", header + "FRAME\n" + good + "FRAME\n" + frame + "FRAME\n" + good);
    for (const bool pipe : {false, true}) {
      std::optional<Fifo> fifo;
      if (pipe) fifo.emplace(header + "FRAME\n" + good + "FRAME\n" + frame + "FRAME\n" + good);
      const std::string source = pipe ? fifo->path() : path;
      auto reader = open_video(source, std::nullopt);
      ASSERT_TRUE(reader.ok()) << reader.status().message();
      Picture pic;
      auto first = (*reader)->read(pic);
      ASSERT_TRUE(first.ok() && *first) << first.status().message();
      auto second = (*reader)->read(pic);
      ASSERT_FALSE(second.ok());
      EXPECT_EQ(second.status().message(),
                source +
                    ": frame 1 has sample values above the 10-bit maximum 1023 (is the bit "
                    "depth right?)");
    }
  }
}

// A frame cut short through a pipe, in its chroma: the bytes that arrived
// are counted as before (one read of the whole payload).
TEST_F(PackedRead, FrameCutShortThroughAPipeCountsTheBytesThatArrived) {
  const PictureFormat fmt{100, 20, 10, ChromaFormat::k420};
  const std::string whole = y4m(fmt, 2);
  const std::size_t payload = fmt.packed_frame_bytes();
  const Fifo fifo(whole.substr(0, whole.size() - 300));
  auto reader = open_video(fifo.path(), std::nullopt);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  Picture pic;
  auto first = (*reader)->read(pic);
  ASSERT_TRUE(first.ok() && *first) << first.status().message();
  auto second = (*reader)->read(pic);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(), fifo.path() + ": frame 1 is truncated (got " +
                                           std::to_string(payload - 300) + " of " +
                                           std::to_string(payload) + " bytes)");
}

// 444alpha's alpha plane is passed over (a seek in a file, a read through
// a pipe), and skip() passes over whole frames the same way.
TEST_F(PackedRead, AlphaPlanesAndSkippedFramesArePassedOver) {
  const PictureFormat fmt{50, 10, 8, ChromaFormat::k444};
  std::string s = "YUV4MPEG2 W50 H10 F25:1 C444alpha\n";
  for (unsigned f = 0; f < 5; ++f) s += "FRAME\n" + packed_frame(fmt, f, /*alpha=*/true);
  const std::string path = write("a.y4m", s);
  for (const bool pipe : {false, true}) {
    SCOPED_TRACE(pipe ? "pipe" : "file");
    std::optional<Fifo> fifo;
    if (pipe) fifo.emplace(s);
    auto reader = open_video(pipe ? fifo->path() : path, std::nullopt);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    ASSERT_TRUE((*reader)->skip(2).ok());
    Picture pic;
    for (unsigned f = 2; f < 5; ++f) {
      auto got = (*reader)->read(pic);
      ASSERT_TRUE(got.ok() && *got) << got.status().message();
      EXPECT_EQ(pic.plane(2).at(49, 9), sample(2, 49, 9, f, 8));
      EXPECT_EQ(pic.plane(0).at(0, 0), sample(0, 0, 0, f, 8));
    }
    auto end = (*reader)->read(pic);
    ASSERT_TRUE(end.ok());
    EXPECT_FALSE(*end);
  }
  // Past the end: the same message from a file (seeks) and a pipe (reads).
  for (const bool pipe : {false, true}) {
    std::optional<Fifo> fifo;
    if (pipe) fifo.emplace(s);
    const std::string source = pipe ? fifo->path() : path;
    auto reader = open_video(source, std::nullopt);
    ASSERT_TRUE(reader.ok());
    const Status skipped = (*reader)->skip(7);
    EXPECT_EQ(skipped.message(), source + ": cannot skip 7 frames: the file has only 5");
  }
}

// --- the input file

// What a writer sends in pieces of every size, with pauses, arrives whole
// through peek(), getc(), read() and read_into() (empty entries included).
TEST_F(PackedRead, InputFileReadsEveryPieceOfAPipeInOrder) {
  std::string bytes(200000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 31) ^ (i >> 9));
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    std::size_t at = 0;
    for (std::size_t piece = 1; at < bytes.size(); piece = (piece * 7 + 3) % 20011) {
      const std::size_t n = std::min(piece + 1, bytes.size() - at);
      if (::write(fd, bytes.data() + at, n) != static_cast<ssize_t>(n)) break;
      at += n;
      if (piece % 5 == 0) std::this_thread::sleep_for(1ms);
    }
    ::close(fd);
  });
  auto opened = io_detail::InputFile::open(fifo.string());
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  io_detail::InputFile& in = *opened;
  EXPECT_EQ(in.size(), -1);
  EXPECT_EQ(in.peek(9), bytes.substr(0, 9));  // left unread
  std::string got(1, static_cast<char>(in.getc()));
  std::string three(3, '\0');
  ASSERT_EQ(in.read(three.data(), 3), 3U);
  got += three;
  std::vector<std::string> rows;
  for (std::size_t n = 0; rows.size() < 400; n = (n * 13 + 7) % 700) rows.emplace_back(n, '\0');
  std::vector<iovec> iov;
  std::size_t total = 0;
  for (auto& r : rows) {
    iov.push_back(iovec{r.data(), r.size()});
    total += r.size();
  }
  ASSERT_EQ(in.read_into(iov), total);
  for (const auto& r : rows) got += r;
  std::string rest(bytes.size(), '\0');
  const std::size_t tail = in.read(rest.data(), rest.size());
  got += rest.substr(0, tail);
  EXPECT_FALSE(in.error());
  writer.join();
  EXPECT_EQ(got.size(), bytes.size());
  EXPECT_TRUE(got == bytes);
}

// A read waiting on a pipe whose writer stalls (keeps it open, writes no
// more) returns once interrupt() is called from another thread, with what
// had arrived and an error; later reads fail at once. Without interrupt()
// the read would wait for ever (the test then ends the writer and fails).
TEST_F(PackedRead, InterruptEndsAReadWaitingOnAStalledPipe) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::promise<int> writer_fd;
  std::thread opener([&] { writer_fd.set_value(::open(fifo.c_str(), O_WRONLY)); });
  auto opened = io_detail::InputFile::open(fifo.string());
  opener.join();
  const int fd = writer_fd.get_future().get();
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  ASSERT_EQ(::write(fd, "0123456789", 10), 10);
  io_detail::InputFile& in = *opened;
  std::atomic<bool> returned{false};
  std::size_t got = 0;
  std::thread reader([&] {
    std::string buf(100000, '\0');
    got = in.read(buf.data(), buf.size());
    returned = true;
  });
  std::this_thread::sleep_for(200ms);
  EXPECT_FALSE(returned) << "the read did not wait for the writer";
  in.interrupt();
  const auto start = std::chrono::steady_clock::now();
  while (!returned && std::chrono::steady_clock::now() - start < 20s) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_TRUE(returned) << "interrupt() did not end the read";
  ::close(fd);  // ends a read that is still waiting
  reader.join();
  EXPECT_EQ(got, 10U);
  EXPECT_TRUE(in.error());
  EXPECT_EQ(in.read_error("p").message(), "p: read error: Operation canceled");
  char c = 0;
  EXPECT_EQ(in.read(&c, 1), 0U);
}

// A regular file: position() counts what the buffer holds as unread, and
// seek() goes back to any offset.
TEST_F(PackedRead, InputFilePositionAndSeekOfARegularFile) {
  std::string bytes(100000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
  const std::string path = write("f.bin", bytes);
  auto opened = io_detail::InputFile::open(path);
  ASSERT_TRUE(opened.ok());
  io_detail::InputFile& in = *opened;
  EXPECT_EQ(in.size(), 100000);
  EXPECT_EQ(in.peek(4), bytes.substr(0, 4));
  EXPECT_EQ(in.position(), 0);
  EXPECT_EQ(in.getc(), static_cast<unsigned char>(bytes[0]));
  EXPECT_EQ(in.position(), 1);
  std::string big(50000, '\0');
  ASSERT_EQ(in.read(big.data(), big.size()), big.size());
  EXPECT_EQ(big, bytes.substr(1, 50000));
  EXPECT_EQ(in.position(), 50001);
  ASSERT_TRUE(in.seek(99990));
  std::string end(100, '\0');
  EXPECT_EQ(in.read(end.data(), end.size()), 10U);
  EXPECT_EQ(end.substr(0, 10), bytes.substr(99990));
  EXPECT_FALSE(in.error());
  ASSERT_TRUE(in.seek(3));
  EXPECT_EQ(in.getc(), static_cast<unsigned char>(bytes[3]));
}

}  // namespace
}  // namespace vqx

namespace vqx {
namespace {

// Every frame of `path` read with read_planes(1): the luma against
// sample(), the chroma planes as the picture held them before (the value
// `kept`), then the end; a frame cut short in its chroma is still one.
void expect_luma_alone(const std::string& path, const std::optional<RawVideoParams>& raw,
                       const PictureFormat& fmt, unsigned frames) {
  auto reader = open_video(path, raw);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  (*reader)->read_planes(1);
  constexpr std::uint32_t kept = 5;
  Picture pic = Picture::make(fmt).value();
  for (unsigned p = 1; p < fmt.plane_count(); ++p) {
    Plane& plane = pic.plane(p);
    for (unsigned y = 0; y < plane.height(); ++y) {
      for (unsigned x = 0; x < plane.width(); ++x) {
        if (fmt.bpc > 8) {
          plane.row<std::uint16_t>(y)[x] = kept;
        } else {
          plane.row<std::uint8_t>(y)[x] = kept;
        }
      }
    }
  }
  for (unsigned f = 0; f < frames; ++f) {
    auto got = (*reader)->read(pic);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(*got) << "frame " << f;
    for (unsigned p = 0; p < fmt.plane_count(); ++p) {
      for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
        for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
          ASSERT_EQ(pic.plane(p).at(x, y), p == 0 ? sample(p, x, y, f, fmt.bpc) : kept)
              << "frame " << f << " plane " << p << " x " << x << " y " << y;
        }
      }
    }
  }
  auto end = (*reader)->read(pic);
  ASSERT_TRUE(end.ok()) << end.status().message();
  EXPECT_FALSE(*end);
}

// read_planes(1) reads the luma and passes over the chroma (a seek in a
// file, a read through a pipe), frame after frame, as Y4M and raw.
TEST_F(PackedRead, LumaAloneLeavesTheChromaAndReadsEveryFrame) {
  for (const PictureFormat fmt : {PictureFormat{100, 37, 8, ChromaFormat::k420},
                                  PictureFormat{64, 20, 10, ChromaFormat::k444}}) {
    SCOPED_TRACE(std::to_string(fmt.bpc) + " " + to_string(fmt.chroma));
    const std::string y = y4m(fmt, 3);
    expect_luma_alone(write("v.y4m", y), std::nullopt, fmt, 3);
    {
      const Fifo fifo(y);
      expect_luma_alone(fifo.path(), std::nullopt, fmt, 3);
    }
    std::string raw;
    for (unsigned f = 0; f < 3; ++f) raw += packed_frame(fmt, f);
    const RawVideoParams params{fmt.width, fmt.height, fmt.bpc, fmt.chroma};
    expect_luma_alone(write("v.yuv", raw), params, fmt, 3);
    const Fifo fifo(raw);
    expect_luma_alone(fifo.path(), params, fmt, 3);
  }
}

// A frame cut short in the chroma that is passed over is still truncated.
TEST_F(PackedRead, LumaAloneStillFindsAFrameCutShortInItsChroma) {
  const PictureFormat fmt{100, 20, 8, ChromaFormat::k420};
  const std::string whole = y4m(fmt, 2);
  const std::size_t payload = fmt.packed_frame_bytes();
  // Through a pipe: a regular file's frames are counted, and a cut found,
  // when it is opened.
  const Fifo fifo(whole.substr(0, whole.size() - 300));
  const std::string& path = fifo.path();
  auto reader = open_video(path, std::nullopt);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  (*reader)->read_planes(1);
  Picture pic;
  auto first = (*reader)->read(pic);
  ASSERT_TRUE(first.ok() && *first) << first.status().message();
  auto second = (*reader)->read(pic);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(), path + ": frame 1 is truncated (got " +
                                           std::to_string(payload - 300) + " of " +
                                           std::to_string(payload) + " bytes)");
}

// A picture read with its luma alone is scored by a context whose features
// read the luma alone, and refused, naming the reason, by one that reads
// the chroma (never scored with chroma left from another frame).
TEST_F(PackedRead, AContextThatReadsChromaRefusesAPictureReadWithItsLumaAlone) {
  const PictureFormat fmt{64, 32, 8, ChromaFormat::k420};
  const std::string path = write("v.y4m", y4m(fmt, 1));
  for (const bool chroma : {false, true}) {
    auto reader = open_video(path, std::nullopt);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    auto ctx = Context::create({.backend = Backend::kCpu});
    ASSERT_TRUE(ctx.ok());
    ASSERT_TRUE((*ctx)->use_feature(chroma ? "psnr" : "float_psnr").ok());
    (*reader)->read_planes(1);
    Picture ref;
    ASSERT_TRUE((*reader)->read(ref).value());
    Picture dist = Picture::make(fmt).value();
    const Status s = (*ctx)->read_pictures(std::move(ref), std::move(dist), 0);
    if (!chroma) {
      EXPECT_TRUE(s.ok()) << s.message();
      continue;
    }
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(),
              "the reference picture of frame 0 holds its luma alone (read with "
              "read_planes(1)), but a feature of this context reads its chroma");
  }
}

}  // namespace
}  // namespace vqx

namespace vqx {
namespace {

// What is passed over through a pipe goes through one scratch buffer of a
// fixed size, whatever the first pass was: after a read that passed over
// the chroma alone, skip() passes over whole frames (ASan: no overflow).
TEST_F(PackedRead, PassingOverMoreThanTheFirstTimeThroughAPipe) {
  const PictureFormat fmt{100, 20, 8, ChromaFormat::k420};
  const Fifo fifo(y4m(fmt, 4));
  auto reader = open_video(fifo.path(), std::nullopt);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  (*reader)->read_planes(1);
  Picture pic;
  ASSERT_TRUE((*reader)->read(pic).value());
  ASSERT_TRUE((*reader)->skip(2).ok());
  (*reader)->read_planes(0);
  ASSERT_TRUE((*reader)->read(pic).value());
  for (unsigned p = 0; p < 3; ++p) {
    EXPECT_EQ(std::as_const(pic).plane(p).at(3, 2), sample(p, 3, 2, 3, 8)) << "plane " << p;
  }
  EXPECT_FALSE((*reader)->read(pic).value());
}

}  // namespace
}  // namespace vqx

namespace vqx {
namespace {

io_detail::PackedFrameReader& packed(std::unique_ptr<VideoReader>& reader) {
  return dynamic_cast<io_detail::PackedFrameReader&>(*reader);
}

// Frames at fixed offsets (a Y4M file of bare FRAME headers, a raw file):
// read_fixed() reads frame frames_read() + k as read() reads it, every row
// layout and depth, the luma alone too, from several threads at once in
// any order; after skip(), offsets count from the frame skipped to. Pipes,
// and Y4M files whose headers carry parameters, have none.
TEST_F(PackedRead, FixedFramesAreReadAtTheirOffsetsFromSeveralThreads) {
  constexpr unsigned kFrames = 7;
  for (const PictureFormat fmt : {PictureFormat{100, 37, 8, ChromaFormat::k420},
                                  PictureFormat{64, 20, 10, ChromaFormat::k444},
                                  PictureFormat{96, 11, 16, ChromaFormat::k400}}) {
    std::string raw;
    for (unsigned f = 0; f < kFrames; ++f) raw += packed_frame(fmt, f);
    const RawVideoParams params{fmt.width, fmt.height, fmt.bpc, fmt.chroma};
    for (const bool is_raw : {false, true}) {
      for (const unsigned planes : {0U, 1U}) {
        SCOPED_TRACE(std::to_string(fmt.bpc) + " " + to_string(fmt.chroma) +
                     (is_raw ? " raw" : " y4m") + " planes " + std::to_string(planes));
        const std::string path = is_raw ? write("v.yuv", raw) : write("v.y4m", y4m(fmt, kFrames));
        auto reader = open_video(path, is_raw ? std::optional(params) : std::nullopt);
        ASSERT_TRUE(reader.ok()) << reader.status().message();
        (*reader)->read_planes(planes);
        EXPECT_EQ(packed(*reader).fixed_frames_left(), kFrames);
        ASSERT_TRUE((*reader)->skip(2).ok());
        const std::uint64_t left = packed(*reader).fixed_frames_left();
        ASSERT_EQ(left, kFrames - 2);
        std::vector<Picture> pics(left);
        std::vector<int> read(left, 0);
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < 3; ++t) {
          threads.emplace_back([&, t] {
            for (std::uint64_t k = left - 1 - t;; k -= 3) {
              read[k] = packed(*reader).read_fixed(k, pics[k]) ? 1 : 0;
              if (k < 3) break;
            }
          });
        }
        for (std::thread& th : threads) th.join();
        const unsigned filled = planes == 1 ? 1 : fmt.plane_count();
        for (std::uint64_t k = 0; k < left; ++k) {
          ASSERT_EQ(read[k], 1) << "frame " << k;
          for (unsigned p = 0; p < filled; ++p) {
            for (unsigned y = 0; y < fmt.plane_height(p); y += 3) {
              for (unsigned x = 0; x < fmt.plane_width(p); x += 5) {
                ASSERT_EQ(std::as_const(pics[k]).plane(p).at(x, y),
                          sample(p, x, y, 2 + static_cast<unsigned>(k), fmt.bpc))
                    << "frame " << k << " plane " << p << " x " << x << " y " << y;
              }
            }
          }
        }
        Picture past;
        EXPECT_FALSE(packed(*reader).read_fixed(left, past));
        // Nothing moved: read() reads on from the frame skipped to.
        Picture next;
        ASSERT_TRUE((*reader)->read(next).value());
        EXPECT_EQ(std::as_const(next).plane(0).at(1, 1), sample(0, 1, 1, 2, fmt.bpc));
        ASSERT_TRUE(packed(*reader).skip_fixed(2).ok());
        EXPECT_EQ((*reader)->frames_read(), 5U);
        EXPECT_EQ(packed(*reader).fixed_frames_left(), 2U);
        ASSERT_TRUE((*reader)->read(next).value());
        EXPECT_EQ(std::as_const(next).plane(0).at(3, 2), sample(0, 3, 2, 5, fmt.bpc));
      }
    }
  }
  const PictureFormat fmt{48, 8, 8, ChromaFormat::k420};
  const Fifo fifo(y4m(fmt, 3));
  auto piped = open_video(fifo.path(), std::nullopt);
  ASSERT_TRUE(piped.ok());
  EXPECT_EQ(packed(*piped).fixed_frames_left(), 0U);
  std::string tagged = "YUV4MPEG2 W48 H8 F25:1 C420\n";
  for (unsigned f = 0; f < 3; ++f) tagged += "FRAME Ip\n" + packed_frame(fmt, f);
  auto walked = open_video(write("tagged.y4m", tagged), std::nullopt);
  ASSERT_TRUE(walked.ok()) << walked.status().message();
  EXPECT_EQ(packed(*walked).fixed_frames_left(), 0U);
}

// What read_fixed() does not read as a frame at its offset it leaves to
// read(), which says what it is: a damaged FRAME header, a header with
// parameters (the frames after it then sit elsewhere), a sample above the
// depth. The frames around it are read at their offsets.
TEST_F(PackedRead, ReadFixedLeavesToReadWhatIsNotAFrameAtItsOffset) {
  const PictureFormat fmt{40, 6, 10, ChromaFormat::k420};
  const std::string header = "YUV4MPEG2 W40 H6 F25:1 C420p10\n";
  std::vector<std::string> frames;
  for (unsigned f = 0; f < 5; ++f) frames.push_back("FRAME\n" + packed_frame(fmt, f));
  struct Case {
    std::string name;
    unsigned at;  // the frame read() is to read
    std::string message;
  };
  const std::vector<Case> cases = {
      {"a damaged header", 2, "frame 2: expected a FRAME header, found 'FRAMX' (loss of framing)"},
      {"a header with parameters", 1,
       "frame 3 has sample values above the 10-bit maximum 1023 (is the bit depth right?)"},
      {"a sample above the depth", 3,
       "frame 3 has sample values above the 10-bit maximum 1023 (is the bit depth right?)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> fs = frames;
    if (c.at == 2) fs[2][4] = 'X';
    if (c.at == 1) {
      // Three bytes more here, three fewer in frame 3: the file's size and
      // its first and last headers are those of fixed frames.
      fs[1] = "FRAME Ip\n" + fs[1].substr(6);
      fs[3].resize(fs[3].size() - 3);
    }
    if (c.at == 3) fs[3][fs[3].size() - 1] = '\x7f';
    std::string bytes = header;
    for (const std::string& f : fs) bytes += f;
    const std::string path = write("v.y4m", bytes);
    auto reader = open_video(path, std::nullopt);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    ASSERT_EQ(packed(*reader).fixed_frames_left(), 5U);
    Picture pic;
    for (unsigned k = 0; k < 5; ++k) {
      // After the header with parameters, frame 4 is at its offset again.
      const bool shifted = c.at == 1 && k >= 1 && k <= 3;
      EXPECT_EQ(packed(*reader).read_fixed(k, pic), k != c.at && !shifted) << k;
    }
    ASSERT_TRUE(packed(*reader).skip_fixed(c.at).ok());
    auto got = (*reader)->read(pic);
    if (c.at == 1) {
      // read() reads the frame with parameters and the next; the frame cut
      // short then takes the first bytes of the last header ("FRA") as the
      // high bytes of its last samples.
      ASSERT_TRUE(got.ok() && *got) << got.status().message();
      ASSERT_TRUE((*reader)->read(pic).value());
      got = (*reader)->read(pic);
    }
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().message(), path + ": " + c.message);
  }
}

}  // namespace
}  // namespace vqx

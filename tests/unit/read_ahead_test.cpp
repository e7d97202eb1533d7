// The read-ahead (vqx/read_ahead.hpp): whatever the depth and the number of
// readers, the same pairs, the same end and the same first error at the
// same frame as reading the two videos in turn; stopping joins the threads
// promptly, also while a reader waits on a stalled pipe; pictures come from
// the given source (a context's pool, used from the readers' threads while
// the context scores); the automatic settings. Part of the TSan run
// (scripts/test.sh).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/picture_internals.hpp"
#include "fifo.hpp"
#include "io/read_lane.hpp"
#include "output_folder.hpp"
#include "vqx/read_ahead.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr unsigned kDepths[] = {0, 1, 2, 3, 4, 8};

// Depths and readers: one thread per video (stream lanes), and several
// reading files at their offsets (offset lanes).
const ReadAhead::Settings kSettings[] = {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {8, 1},
                                         {2, 2}, {3, 2}, {4, 3}, {8, 4}, {1, 4}};

std::string frame_bytes(const PictureFormat& fmt, unsigned f, unsigned salt) {
  std::string b;
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
      for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
        const std::uint32_t v =
            ((x * 3U) + (y * 5U) + (f * 11U) + (p * 41U) + salt) & ((1U << fmt.bpc) - 1U);
        b.push_back(static_cast<char>(v & 0xff));
        if (fmt.bpc > 8) b.push_back(static_cast<char>(v >> 8));
      }
    }
  }
  return b;
}

// A Y4M of `frames` frames; with `bad_frame` set, that frame has a sample
// above the depth (a read error the reader finds when it reaches it).
std::string y4m(const PictureFormat& fmt, unsigned frames, unsigned salt,
                std::optional<unsigned> bad_frame = std::nullopt) {
  std::string s = "YUV4MPEG2 W" + std::to_string(fmt.width) + " H" + std::to_string(fmt.height) +
                  " F25:1 C" + (fmt.bpc == 8 ? "420" : "420p10") + "\n";
  for (unsigned f = 0; f < frames; ++f) {
    std::string payload = frame_bytes(fmt, f, salt);
    if (bad_frame && *bad_frame == f) payload[payload.size() - 1] = '\x7f';
    s += "FRAME\n" + payload;
  }
  return s;
}

std::uint64_t checksum(const Picture& pic) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned p = 0; p < pic.plane_count(); ++p) {
    for (unsigned y = 0; y < pic.plane(p).height(); ++y) {
      for (unsigned x = 0; x < pic.plane(p).width(); ++x) {
        h = (h ^ pic.plane(p).at(x, y)) * 1099511628211ULL;
      }
    }
  }
  return h;
}

// What a stream gave: a checksum per pair, then how it ended.
struct Transcript {
  std::vector<std::uint64_t> pairs;
  std::string end;  // "end", or the error's message
  bool operator==(const Transcript&) const = default;
};

PictureSource new_pictures() {
  return [](const PictureFormat& f) { return Picture::make(f); };
}

Transcript read_all(const std::string& ref, const std::string& dist, ReadAhead::Settings settings,
                    PictureSource pictures = new_pictures()) {
  Transcript t;
  auto r = open_video(ref, std::nullopt);
  auto d = open_video(dist, std::nullopt);
  if (!r.ok() || !d.ok()) {
    ADD_FAILURE() << r.status().message() << d.status().message();
    return t;
  }
  auto pairs = ReadAhead::start(**r, **d, settings, std::move(pictures));
  if (!pairs.ok()) {
    ADD_FAILURE() << pairs.status().message();
    return t;
  }
  EXPECT_EQ((*pairs)->depth(), settings.depth);
  // These are files of bare FRAME headers: read at their offsets by
  // `readers` threads (at most `depth`).
  const unsigned readers = settings.depth == 0 ? 0 : std::min(settings.readers, settings.depth);
  EXPECT_EQ((*pairs)->ref_readers(), readers);
  EXPECT_EQ((*pairs)->dist_readers(), readers);
  Picture a;
  Picture b;
  for (;;) {
    auto got = (*pairs)->next(a, b);
    if (!got.ok()) {
      t.end = got.status().message();
      break;
    }
    if (!*got) {
      t.end = "end";
      break;
    }
    t.pairs.push_back((checksum(a) * 31) + checksum(b));
  }
  EXPECT_EQ((*pairs)->pairs(), t.pairs.size());
  // The end stays the end, the error the error.
  auto again = (*pairs)->next(a, b);
  EXPECT_EQ(again.ok() ? (*again ? "a frame" : "end") : again.status().message(), t.end);
  return t;
}

class ReadAheadTest : public testing_util::OutputFolderTest {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);
    OutputFolderTest::SetUp();
  }
};

const PictureFormat k8{48, 20, 8, ChromaFormat::k420};
const PictureFormat k10{48, 20, 10, ChromaFormat::k420};

TEST_F(ReadAheadTest, EveryDepthGivesTheStreamOfTheSynchronousLoop) {
  struct Case {
    std::string name;
    std::string ref;
    std::string dist;
    std::size_t pairs;
    std::string end;  // with REF and DIST for the paths
  };
  const std::string ref6 = write("ref6.y4m", y4m(k8, 6, 0));
  const std::string dist6 = write("dist6.y4m", y4m(k8, 6, 9));
  const std::string dist4 = write("dist4.y4m", y4m(k8, 4, 9));
  const std::string ref4 = write("ref4.y4m", y4m(k8, 4, 0));
  const std::string ref_bad4 = write("ref_bad4.y4m", y4m(k10, 6, 0, 4));
  const std::string dist_bad2 = write("dist_bad2.y4m", y4m(k10, 6, 9, 2));
  const std::string dist_bad4 = write("dist_bad4.y4m", y4m(k10, 6, 9, 4));
  const std::string dist10 = write("dist10.y4m", y4m(k10, 6, 9));
  const std::string above =
      " has sample values above the 10-bit maximum 1023 (is the bit depth right?)";
  // Frames that are not where fixed offsets put them, in files that look
  // like files of fixed frames when opened (their size, their first and
  // last headers): a damaged header at frame 3; a header with parameters
  // at frame 1 and three bytes fewer in frame 2 (read() reads frames 1 and
  // 2, the latter ending in "FRA" of the next header, and finds the rest
  // of that header where a header should be).
  std::string bytes = y4m(k8, 6, 9);
  const std::size_t frame = 6 + k8.packed_frame_bytes();
  const std::size_t first = bytes.find('\n') + 1;
  bytes[first + (3 * frame) + 4] = 'X';
  const std::string dist_framx3 = write("dist_framx3.y4m", bytes);
  bytes = y4m(k8, 6, 9);
  bytes.erase(first + (3 * frame) - 3, 3);
  bytes.replace(first + frame, 6, "FRAME Ip\n");
  const std::string dist_tagged1 = write("dist_tagged1.y4m", bytes);
  const std::vector<Case> cases = {
      {"same length", ref6, dist6, 6, "end"},
      {"distorted shorter", ref6, dist4, 4, dist4 + " ended after 4 frames, before " + ref6},
      {"reference shorter", ref4, dist6, 4, ref4 + " ended after 4 frames, before " + dist6},
      {"reference error", ref_bad4, dist10, 4, ref_bad4 + ": frame 4" + above},
      {"the earlier error wins", ref_bad4, dist_bad2, 2, dist_bad2 + ": frame 2" + above},
      {"the reference's first at one frame", ref_bad4, dist_bad4, 4,
       ref_bad4 + ": frame 4" + above},
      {"a damaged header", ref6, dist_framx3, 3,
       dist_framx3 + ": frame 3: expected a FRAME header, found 'FRAMX' (loss of framing)"},
      {"a header with parameters", ref6, dist_tagged1, 3,
       dist_tagged1 + ": frame 3: expected a FRAME header, found 'ME\\n*-' (loss of framing)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Transcript sync = read_all(c.ref, c.dist, {0, 1});
    EXPECT_EQ(sync.pairs.size(), c.pairs);
    EXPECT_EQ(sync.end, c.end);
    for (const ReadAhead::Settings& settings : kSettings) {
      SCOPED_TRACE(std::to_string(settings.depth) + " " + std::to_string(settings.readers));
      EXPECT_EQ(read_all(c.ref, c.dist, settings), sync);
    }
  }
}

// The source failing (memory running out) at the distorted video's fourth
// picture: the error at that frame, for every depth. The source is called
// on the readers' threads; it is told the videos apart by their formats.
TEST_F(ReadAheadTest, APictureSourceErrorComesAtItsFrame) {
  const std::string ref = write("ref.y4m", y4m(k8, 6, 0));
  const std::string dist = write("dist.y4m", y4m(k10, 6, 9));
  for (const unsigned depth : kDepths) {
    SCOPED_TRACE(depth);
    auto calls = std::make_shared<std::atomic<unsigned>>(0);
    const Transcript t = read_all(ref, dist, {depth, 1}, [calls](const PictureFormat& f) {
      if (f.bpc == 10 && calls->fetch_add(1) == 3) {
        return Expected<Picture>(Error(Errc::kLimit, "out of memory allocating a picture"));
      }
      return Picture::make(f);
    });
    EXPECT_EQ(t.pairs.size(), 3U);
    EXPECT_EQ(t.end, "out of memory allocating a picture");
  }
  // Several readers call the source in any order: one that never gives the
  // distorted video a picture ends the stream at its first frame.
  for (const ReadAhead::Settings& settings : kSettings) {
    SCOPED_TRACE(std::to_string(settings.depth) + " " + std::to_string(settings.readers));
    const Transcript t = read_all(ref, dist, settings, [](const PictureFormat& f) {
      if (f.bpc == 10) {
        return Expected<Picture>(Error(Errc::kLimit, "out of memory allocating a picture"));
      }
      return Picture::make(f);
    });
    EXPECT_EQ(t.pairs.size(), 0U);
    EXPECT_EQ(t.end, "out of memory allocating a picture");
  }
}

// Stopping early (the CLI's --frame_cnt, an error in scoring) while a reader
// waits on a stalled pipe: stop() wakes it and joins both threads at once.
// Without VideoReader::interrupt() it would wait for the writer for ever
// (the test then closes the pipe so that it can end, and fails).
TEST_F(ReadAheadTest, StopJoinsAReaderWaitingOnAStalledPipe) {
  const fs::path fifo = dir_ / "ref.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string dist = write("dist.y4m", y4m(k8, 50, 9));
  // The writer opens the FIFO and sends the header (open_video() waits
  // for both), then three frames, then nothing more: it keeps the pipe open.
  const std::string header = y4m(k8, 0, 0);
  std::promise<int> writer;
  std::thread opener([&] {
    const int w = ::open(fifo.c_str(), O_WRONLY);
    if (w >= 0 && ::write(w, header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
      ADD_FAILURE() << "cannot write the header";
    }
    writer.set_value(w);
  });
  auto r = open_video(fifo.string(), std::nullopt);
  opener.join();
  const int fd = writer.get_future().get();
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::string frames = y4m(k8, 3, 0).substr(header.size());
  ASSERT_EQ(::write(fd, frames.data(), frames.size()), static_cast<ssize_t>(frames.size()));
  auto d = open_video(dist, std::nullopt);
  ASSERT_TRUE(d.ok());
  auto pairs = ReadAhead::start(**r, **d, 4, new_pictures());
  ASSERT_TRUE(pairs.ok());
  Picture a;
  Picture b;
  for (int i = 0; i < 3; ++i) {
    auto got = (*pairs)->next(a, b);
    ASSERT_TRUE(got.ok() && *got) << got.status().message();
  }
  auto stopped = std::async(std::launch::async, [&] { (*pairs)->stop(); });
  const bool prompt = stopped.wait_for(20s) == std::future_status::ready;
  EXPECT_TRUE(prompt) << "stop() did not return while the reader waited on the pipe";
  ::close(fd);
  stopped.wait();
  auto after = (*pairs)->next(a, b);
  EXPECT_FALSE(after.ok());
}

// Destroyed after a few pairs while both videos' readers are ahead (full
// queues), one or several threads each: the threads are joined, the queued
// pictures freed.
TEST_F(ReadAheadTest, DestroyedWhileTheReadersAreAhead) {
  const std::string ref = write("ref.y4m", y4m(k8, 40, 0));
  const std::string dist = write("dist.y4m", y4m(k8, 40, 9));
  for (const unsigned taken : {0U, 1U, 5U}) {
    for (const unsigned readers : {1U, 3U}) {
      auto r = open_video(ref, std::nullopt);
      auto d = open_video(dist, std::nullopt);
      ASSERT_TRUE(r.ok() && d.ok());
      auto pairs = ReadAhead::start(**r, **d, {3, readers}, new_pictures());
      ASSERT_TRUE(pairs.ok());
      Picture a;
      Picture b;
      for (unsigned i = 0; i < taken; ++i) ASSERT_TRUE((*pairs)->next(a, b).ok());
      std::this_thread::sleep_for(20ms);       // the queues fill
      pairs = Error(Errc::kInternal, "gone");  // destroys the ReadAhead
    }
  }
}

// The context's pool as the source: fetch_picture() on the readers' threads
// while read_pictures() scores on this one, for a 4:0:0 input whose frames
// are widened to 4:2:0 (the pool's neutral chroma is shared by both sides).
// Every depth, number of readers and thread count gives the scores of the
// synchronous loop.
TEST_F(ReadAheadTest, PicturesFromAContextThatScoresMeanwhile) {
  const PictureFormat gray{64, 48, 8, ChromaFormat::k400};
  std::string ref_bytes = "YUV4MPEG2 W64 H48 F25:1 Cmono\n";
  std::string dist_bytes = ref_bytes;
  for (unsigned f = 0; f < 12; ++f) {
    ref_bytes += "FRAME\n" + frame_bytes(gray, f, 0);
    dist_bytes += "FRAME\n" + frame_bytes(gray, f * 3, 5);
  }
  const std::string ref = write("ref.y4m", ref_bytes);
  const std::string dist = write("dist.y4m", dist_bytes);
  const auto scores = [&](ReadAhead::Settings settings, unsigned threads) {
    std::vector<double> out;
    auto ctx = Context::create({.threads = threads, .backend = Backend::kCpu});
    EXPECT_TRUE(ctx.ok());
    if (!ctx.ok()) return out;
    EXPECT_TRUE((*ctx)->use_feature("psnr").ok());
    EXPECT_TRUE((*ctx)->use_feature("motion").ok());
    auto r = open_video(ref, std::nullopt);
    auto d = open_video(dist, std::nullopt);
    EXPECT_TRUE(r.ok() && d.ok());
    if (!r.ok() || !d.ok()) return out;
    Context& c = **ctx;
    auto pairs = ReadAhead::start(**r, **d, settings,
                                  [&c](const PictureFormat& f) { return c.fetch_picture(f); });
    EXPECT_TRUE(pairs.ok());
    Picture a;
    Picture b;
    unsigned i = 0;
    for (;; ++i) {
      auto got = (*pairs)->next(a, b);
      EXPECT_TRUE(got.ok()) << got.status().message();
      if (!got.ok() || !*got) break;
      Status s = c.read_pictures(std::move(a), std::move(b), i);
      EXPECT_TRUE(s.ok()) << s.message();
    }
    (*pairs)->stop();
    EXPECT_EQ(i, 12U);
    EXPECT_TRUE(c.flush().ok());
    for (const auto& name : c.metric_names()) {
      for (unsigned f = 0; f < 12; ++f) {
        auto v = c.score_at_index(name, f);
        out.push_back(v.ok() ? *v : -1.0);
      }
    }
    return out;
  };
  const std::vector<double> sync = scores({0, 1}, 0);
  ASSERT_GE(sync.size(), 12U * 4);
  for (const unsigned threads : {0U, 1U, 2U, 3U}) {
    for (const ReadAhead::Settings settings :
         {ReadAhead::Settings{0, 1}, ReadAhead::Settings{1, 1}, ReadAhead::Settings{2, 1},
          ReadAhead::Settings{4, 1}, ReadAhead::Settings{4, 3}}) {
      SCOPED_TRACE(std::to_string(settings.depth) + " " + std::to_string(settings.readers) + " " +
                   std::to_string(threads));
      const std::vector<double> got = scores(settings, threads);
      ASSERT_EQ(got.size(), sync.size());
      EXPECT_EQ(std::memcmp(got.data(), sync.data(), got.size() * sizeof(double)), 0);
    }
  }
}

// A FIFO is read by one thread, frame after frame, beside a file read by
// several at its frames' offsets: the stream of the two files.
TEST_F(ReadAheadTest, APipeIsReadByOneThreadBesideAFileReadBySeveral) {
  const std::string ref_bytes = y4m(k8, 9, 0);
  const std::string ref = write("ref.y4m", ref_bytes);
  const std::string dist = write("dist.y4m", y4m(k8, 9, 9));
  const Transcript files = read_all(ref, dist, {0, 1});
  ASSERT_EQ(files.pairs.size(), 9U);
  const Fifo fifo(ref_bytes);
  auto r = open_video(fifo.path(), std::nullopt);
  auto d = open_video(dist, std::nullopt);
  ASSERT_TRUE(r.ok() && d.ok());
  auto pairs = ReadAhead::start(**r, **d, {4, 3}, new_pictures());
  ASSERT_TRUE(pairs.ok()) << pairs.status().message();
  EXPECT_EQ((*pairs)->ref_readers(), 1U);
  EXPECT_EQ((*pairs)->dist_readers(), 3U);
  Transcript t;
  Picture a;
  Picture b;
  for (;;) {
    auto got = (*pairs)->next(a, b);
    ASSERT_TRUE(got.ok()) << got.status().message();
    if (!*got) break;
    t.pairs.push_back((checksum(a) * 31) + checksum(b));
  }
  t.end = "end";
  EXPECT_EQ(t, files);
}

// The automatic settings (the CLI's --read_ahead auto, --read_threads
// auto). Depth: a GPU's 4; on the CPU one frame when a core is left for
// each video's reader besides the scoring threads, else none. Readers: one
// per two cores left besides the scoring, for frames of 1 MiB and more,
// at most 4 and the depth.
TEST(ReadAheadAuto, DepthAndReadersFollowTheCoresTheScoringLeaves) {
  const PictureFormat k4k{3840, 2160, 8, ChromaFormat::k420};
  const PictureFormat k1080{1920, 1080, 8, ChromaFormat::k420};
  const PictureFormat k720{1280, 720, 8, ChromaFormat::k420};
  const auto load = [](unsigned cores, unsigned threads, bool gpu, const PictureFormat& f,
                       unsigned planes) {
    return ReadAhead::Load{
        .cores = cores, .scoring_threads = threads, .gpu = gpu, .format = f, .planes_read = planes};
  };
  // The CPU: the 2-core machine never reads ahead; 16 cores do while at
  // least two are left.
  EXPECT_EQ(ReadAhead::auto_depth(load(2, 0, false, k1080, 1)), 0U);
  EXPECT_EQ(ReadAhead::auto_depth(load(2, 1, false, k1080, 1)), 0U);
  EXPECT_EQ(ReadAhead::auto_depth(load(2, 2, false, k1080, 1)), 0U);
  EXPECT_EQ(ReadAhead::auto_depth(load(3, 0, false, k1080, 1)), 1U);
  EXPECT_EQ(ReadAhead::auto_depth(load(16, 14, false, k1080, 1)), 1U);
  EXPECT_EQ(ReadAhead::auto_depth(load(16, 15, false, k1080, 1)), 0U);
  EXPECT_EQ(ReadAhead::auto_depth(load(16, 16, false, k4k, 1)), 0U);
  // A GPU.
  EXPECT_EQ(ReadAhead::auto_depth(load(2, 0, true, k4k, 1)), 4U);
  EXPECT_EQ(ReadAhead::auto_depth(load(16, 8, true, k4k, 1)), 4U);
  // Readers: 4K luma (8.3 MB a frame) with a GPU on 16 cores, 6 and 4.
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 8, true, k4k, 1), 4), 4U);
  EXPECT_EQ(ReadAhead::auto_readers(load(6, 8, true, k4k, 1), 4), 2U);
  EXPECT_EQ(ReadAhead::auto_readers(load(4, 8, true, k4k, 1), 4), 1U);
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 8, true, k4k, 1), 2), 2U);  // at most the depth
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 8, true, k4k, 1), 1), 1U);
  // 1080p: its luma (2.1 MB) and 720p's frame of three planes (1.4 MB)
  // are large; 720p's luma (0.9 MB) is not.
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 0, true, k1080, 1), 4), 4U);
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 0, true, k720, 3), 4), 4U);
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 0, true, k720, 1), 4), 1U);
  // The CPU: the cores its scoring threads leave.
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 8, false, k4k, 1), 8), 4U);
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 12, false, k4k, 1), 8), 2U);
  EXPECT_EQ(ReadAhead::auto_readers(load(16, 16, false, k4k, 1), 8), 1U);
  EXPECT_EQ(ReadAhead::auto_readers(load(2, 0, false, k4k, 1), 4), 1U);
}

}  // namespace
}  // namespace vqx

namespace vqx {
namespace {

// A pipe into libav cannot be interrupted (its reads block in libav): the
// read-ahead then starts no thread (stop() would wait on a stalled pipe
// for ever) and reads in turn; a regular file into libav keeps its depth.
TEST_F(ReadAheadTest, APipeIntoLibavIsReadInTurn) {
  if (!libav_available()) GTEST_SKIP() << "built without libav";
  const std::string file = write("ref.y4m", y4m(k8, 3, 0));
  const fs::path fifo = dir_ / "dist.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string bytes = y4m(k8, 3, 0);
  std::thread writer([&] {
    const int w = ::open(fifo.c_str(), O_WRONLY);
    if (w < 0) return;
    (void)!::write(w, bytes.data(), bytes.size());
    ::close(w);
  });
  auto piped = open_libav(fifo.string());
  ASSERT_TRUE(piped.ok()) << piped.status().message();
  auto regular = open_libav(file);
  ASSERT_TRUE(regular.ok()) << regular.status().message();
  EXPECT_FALSE((*piped)->interruptible());
  EXPECT_TRUE((*regular)->interruptible());
  {
    auto pairs = ReadAhead::start(**regular, **piped, 4, new_pictures());
    ASSERT_TRUE(pairs.ok());
    EXPECT_EQ((*pairs)->depth(), 0U);
    Picture a;
    Picture b;
    for (unsigned i = 0; i < 3; ++i) ASSERT_TRUE((*pairs)->next(a, b).value()) << i;
    EXPECT_FALSE((*pairs)->next(a, b).value());
  }
  writer.join();
  auto again = open_libav(file);
  ASSERT_TRUE(again.ok());
  auto y = open_video(file, std::nullopt);
  ASSERT_TRUE(y.ok());
  auto both = ReadAhead::start(**again, **y, 4, new_pictures());
  ASSERT_TRUE(both.ok());
  EXPECT_EQ((*both)->depth(), 4U);
}

// Planes from aligned_alloc, counted: how many are still out.
class CountedMemory final : public PlaneMemory {
 public:
  void* allocate(std::size_t bytes) const override {
    ++out_;
    return std::aligned_alloc(64, bytes);
  }
  void release(void* p) const override {
    --out_;
    std::free(p);
  }
  [[nodiscard]] int out() const { return out_; }

 private:
  mutable std::atomic<int> out_{0};
};

// The offset lane reaching a frame that read() is to read (a damaged header
// at frame 3) while another thread still reads frame 4, claimed before
// frame 3's read ended: take() hands out frame 3's error, and frame 4 is
// read into its own slot and freed with the lane. (take() used to drop
// frame 3's slot first, and the late thread wrote frame 4 one past the end
// of the lane's queue: a crash under TSan, else a picture never freed.)
TEST_F(ReadAheadTest, AFrameStillBeingReadWhenReadOnTakesOverKeepsItsSlot) {
  std::string bytes = y4m(k8, 6, 9);
  const std::size_t frame = 6 + k8.packed_frame_bytes();
  bytes[bytes.find('\n') + 1 + (3 * frame) + 4] = 'X';
  const std::string path = write("framx3.y4m", bytes);
  auto video = open_video(path, std::nullopt);
  ASSERT_TRUE(video.ok()) << video.status().message();
  auto* packed = dynamic_cast<io_detail::PackedFrameReader*>(video->get());
  ASSERT_NE(packed, nullptr);
  ASSERT_EQ(packed->fixed_frames_left(), 6U);  // it looks like 6 fixed frames
  static const CountedMemory memory;
  const PictureSource pictures = [](const PictureFormat& f) {
    return detail::PictureInternals::make_in(f, memory);
  };
  std::mutex m;
  std::condition_variable cv;
  bool reading_4 = false;
  // Frame 3's read waits until another thread has begun frame 4, which
  // then takes its time: frame 3's error reaches take() first.
  auto before_read = [&](std::uint64_t k) {
    if (k == 3) {
      std::unique_lock lock(m);
      cv.wait_for(lock, 5s, [&] { return reading_4; });
    } else if (k == 4) {
      {
        const std::lock_guard lock(m);
        reading_4 = true;
      }
      cv.notify_all();
      std::this_thread::sleep_for(200ms);
    }
  };
  {
    auto lane = io_detail::start_offset_lane(*packed, pictures, 4, 2, before_read);
    for (unsigned k = 0; k < 3; ++k) {
      io_detail::LaneItem item = lane->take();
      ASSERT_TRUE(item.status.ok() && item.frame) << "frame " << k << ": " << item.status.message();
    }
    const io_detail::LaneItem at3 = lane->take();
    EXPECT_FALSE(at3.status.ok());
    EXPECT_NE(at3.status.message().find("frame 3: expected a FRAME header"), std::string::npos)
        << at3.status.message();
    {
      const std::lock_guard lock(m);
      EXPECT_TRUE(reading_4) << "frame 4 was never being read: the case did not happen";
    }
    lane->stop();
  }
  EXPECT_EQ(memory.out(), 0) << "planes of pictures the lane read were never freed";
}

}  // namespace
}  // namespace vqx

// Several -d in one run (the batch), --scale, --dist-offset and --sync, as
// a user runs them: each batch clip's output is the output of a run of that
// clip alone; --scale gives the samples of FFmpeg's scale filter; --sync
// finds a clip's dropped frames. The clips made here come from FFmpeg (the
// `ffmpeg` command, which scripts/setup.sh installs).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "vqx/scaled_video.hpp"
#include "vqx/video_reader.hpp"

#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
const std::string kRef = (kSubset / "P9_tiny_176x144_420p8.y4m").string();
const std::string kDist = (kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string();
// 576x324, its first 5 frames (the corpus has all 48).
const std::string kP1Ref = (kSubset / "P1_pan_576x324_420p8.mkv").string();

fs::path corpus() {
  const char* env = std::getenv("VQX_CORPUS");
  return env != nullptr ? fs::path(env) : fs::path(VQX_CORPUS_DIR);
}

using vqx::cli_test::CliRun;
using vqx::cli_test::slurp;

// A JSON report without its timing line ("fps": the only field that
// differs between two runs of the same pair).
std::string without_fps(const std::string& json) {
  std::istringstream in(json);
  std::string line;
  std::string kept;
  while (std::getline(in, line)) {
    if (line.find("\"fps\":") == std::string::npos) kept += line + "\n";
  }
  return kept;
}

// Reads both videos to their ends and expects every sample of every plane
// equal; returns the frames compared.
unsigned same_frames(vqx::VideoReader& ours, vqx::VideoReader& theirs) {
  vqx::Picture a;
  vqx::Picture b;
  unsigned frames = 0;
  for (;; ++frames) {
    const bool got_a = ours.read(a).value();
    const bool got_b = theirs.read(b).value();
    EXPECT_EQ(got_a, got_b) << "frame " << frames;
    if (!got_a || !got_b) break;
    for (unsigned p = 0; p < a.plane_count(); ++p) {
      const vqx::Plane& pa = std::as_const(a).plane(p);
      const vqx::Plane& pb = std::as_const(b).plane(p);
      for (unsigned y = 0; y < pa.height(); ++y) {
        if (std::memcmp(pa.row<std::uint8_t>(y), pb.row<std::uint8_t>(y),
                        std::size_t{pa.width()} * pa.bytes_per_sample()) != 0) {
          ADD_FAILURE() << "frame " << frames << " plane " << p << " row " << y << " differs";
          return frames;
        }
      }
    }
  }
  return frames;
}

// The frames whose luma is the same when `rung` is scaled to `up`'s size
// reading the luma alone (read_planes(1)) as when `up` is read whole.
unsigned same_lumas(const std::string& rung, const std::string& up, const std::string& filter) {
  auto theirs = vqx::open_video(up, std::nullopt);
  EXPECT_TRUE(theirs.ok()) << theirs.status().message();
  if (!theirs.ok()) return 0;
  auto ours = vqx::open_scaled(
      vqx::open_video(rung, std::nullopt).value(), (*theirs)->format().width,
      (*theirs)->format().height,
      filter.empty() ? vqx::ScaleFilter::kBicubic : vqx::parse_scale_filter(filter).value());
  EXPECT_TRUE(ours.ok()) << ours.status().message();
  if (!ours.ok()) return 0;
  (*ours)->read_planes(1);
  vqx::Picture a;
  vqx::Picture b;
  unsigned frames = 0;
  for (;; ++frames) {
    const bool got_a = (*ours)->read(a).value();
    const bool got_b = (*theirs)->read(b).value();
    EXPECT_EQ(got_a, got_b) << "frame " << frames;
    if (!got_a || !got_b) break;
    const vqx::Plane& pa = std::as_const(a).plane(0);
    const vqx::Plane& pb = std::as_const(b).plane(0);
    for (unsigned y = 0; y < pa.height(); ++y) {
      if (std::memcmp(pa.row<std::uint8_t>(y), pb.row<std::uint8_t>(y),
                      std::size_t{pa.width()} * pa.bytes_per_sample()) != 0) {
        ADD_FAILURE() << "frame " << frames << " luma row " << y << " differs";
        return frames;
      }
    }
  }
  return frames;
}

class BatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vqx_batch_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun run(const std::string& command) { return vqx::cli_test::run_command(command, dir_); }
  CliRun vqx(const std::string& args) { return vqx::cli_test::run_vqx(args, dir_); }

  // Runs ffmpeg (scripts/setup.sh installs it; a failure is a test failure).
  void ffmpeg(const std::string& args) {
    const CliRun r = run("ffmpeg -nostdin -v error -y " + args);
    ASSERT_EQ(r.code, 0) << "ffmpeg " << args << ": " << r.err
                         << " (ffmpeg is installed by scripts/setup.sh)";
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(BatchTest, EachClipGetsTheOutputOfItsOwnRun) {
  const std::string copy = path("copy.y4m");
  fs::copy_file(kDist, copy);
  fs::create_directories(dir_ / "out");
  const CliRun b = vqx("-r " + kRef + " -d " + kDist + " -d " + kRef + " -d " + copy +
                       " --json -o " + path("out") + "/");
  ASSERT_EQ(b.code, 0) << b.err;
  const std::vector<std::pair<std::string, std::string>> clips = {
      {kDist, "P9_tiny_176x144_420p8__x264-crf45"},
      {kRef, "P9_tiny_176x144_420p8"},
      {copy, "copy"}};
  std::string expected_table;
  for (const auto& [clip, name] : clips) {
    const CliRun one = vqx("-r " + kRef + " -d " + clip + " --json -o " + path("one.json"));
    ASSERT_EQ(one.code, 0) << one.err;
    const std::string batch_json = slurp(dir_ / "out" / (name + ".json"));
    ASSERT_FALSE(batch_json.empty()) << name;
    EXPECT_EQ(without_fps(batch_json), without_fps(slurp(path("one.json")))) << clip;
    // The table's row carries the pooled score the run alone prints.
    ASSERT_EQ(one.out.rfind("vmaf: ", 0), 0U) << one.out;
    const std::string score = one.out.substr(6, one.out.size() - 7);  // "16.140803"
    const std::size_t row = b.out.find(clip + " ");
    ASSERT_NE(row, std::string::npos) << b.out;
    EXPECT_EQ(b.out.find(score, row), b.out.find('\n', row) - score.size()) << b.out;
  }
  EXPECT_EQ(b.out.substr(0, 4), "clip");
  EXPECT_NE(b.out.find("vmaf"), std::string::npos);
}

// Every video read ahead on a thread of its own and two scoring threads
// per context: the same reports as read in turn with none (TSan runs this).
TEST_F(BatchTest, ReadAheadAndThreadsGiveTheSameReports) {
  fs::create_directories(dir_ / "a");
  fs::create_directories(dir_ / "b");
  const std::string clips = " -d " + kDist + " -d " + kRef + " -d " + kP1Ref + " --json -o ";
  const CliRun a = vqx("-r " + kRef + clips + path("a") + "/ --read_ahead 0 --threads 0");
  const CliRun b = vqx("-r " + kRef + clips + path("b") + "/ --read_ahead 3 --threads 2");
  EXPECT_EQ(a.code, 1);  // kP1Ref: another size
  EXPECT_EQ(b.code, 1);
  EXPECT_EQ(a.out, b.out);
  for (const char* name :
       {"P9_tiny_176x144_420p8__x264-crf45.json", "P9_tiny_176x144_420p8.json"}) {
    const std::string ours = slurp(dir_ / "a" / name);
    ASSERT_FALSE(ours.empty()) << name;
    EXPECT_EQ(without_fps(ours), without_fps(slurp(dir_ / "b" / name))) << name;
  }
}

TEST_F(BatchTest, AFailingClipIsNamedAndTheOthersAreWritten) {
  const std::string missing = path("missing.y4m");
  const CliRun b = vqx("-r " + kRef + " -d " + missing + " -d " + kDist + " -d " + kP1Ref +
                       " --json -o '" + path("{name}.json") + "'");
  EXPECT_EQ(b.code, 1);
  EXPECT_NE(b.err.find(missing), std::string::npos) << b.err;
  // A size that differs: the message names the clip and suggests --scale.
  EXPECT_NE(b.err.find(kP1Ref), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("--scale"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("2 of 3"), std::string::npos) << b.err;
  const CliRun one = vqx("-r " + kRef + " -d " + kDist + " --json -o " + path("one.json"));
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_EQ(without_fps(slurp(path("P9_tiny_176x144_420p8__x264-crf45.json"))),
            without_fps(slurp(path("one.json"))));
  EXPECT_FALSE(fs::exists(path("missing.json")));
  EXPECT_FALSE(fs::exists(path("P1_pan_576x324_420p8.json")));
  EXPECT_NE(b.out.find("failed"), std::string::npos) << b.out;
}

TEST_F(BatchTest, OutputsNeedAFolderOrAPatternWithDistinctNames) {
  const CliRun file = vqx("-r " + kRef + " -d " + kDist + " -d " + kRef + " -o " + path("a.xml"));
  EXPECT_EQ(file.code, 1);
  EXPECT_NE(file.err.find("{name}"), std::string::npos) << file.err;
  const CliRun out = vqx("-r " + kRef + " -d " + kDist + " -d " + kRef + " -o -");
  EXPECT_EQ(out.code, 1);
  EXPECT_NE(out.err.find("folder"), std::string::npos) << out.err;
  const CliRun same = vqx("-r " + kRef + " -d " + kDist + " -d " + kDist + " -o " + path("") + "/");
  EXPECT_EQ(same.code, 1);
  EXPECT_NE(same.err.find("would both write"), std::string::npos) << same.err;
  EXPECT_FALSE(fs::exists(path("a.xml")));
}

// A batch with an offset per clip: the shared reference is passed over for
// the clip with a positive offset; each clip's output is its own run's.
TEST_F(BatchTest, OffsetsPerClipGiveTheRunsAlone) {
  fs::create_directories(dir_ / "o");
  const CliRun b =
      vqx("-r " + kRef + " -d " + kDist + " -d " + kRef +
          " --dist-offset=2 --dist-offset=-3 --frame_cnt 5 --json -o " + path("o") + "/");
  ASSERT_EQ(b.code, 0) << b.err;
  const CliRun a = vqx("-r " + kRef + " -d " + kDist +
                       " --frame_skip_ref 2 --frame_cnt 5 --json -o " + path("a.json"));
  ASSERT_EQ(a.code, 0) << a.err;
  const CliRun c = vqx("-r " + kRef + " -d " + kRef + " --dist-offset -3 --frame_cnt 5 --json -o " +
                       path("c.json"));
  ASSERT_EQ(c.code, 0) << c.err;
  const CliRun c2 = vqx("-r " + kRef + " -d " + kRef +
                        " --frame_skip_dist 3 --frame_cnt 5 --json -o " + path("c2.json"));
  ASSERT_EQ(c2.code, 0) << c2.err;
  EXPECT_EQ(without_fps(slurp(dir_ / "o" / "P9_tiny_176x144_420p8__x264-crf45.json")),
            without_fps(slurp(path("a.json"))));
  EXPECT_EQ(without_fps(slurp(dir_ / "o" / "P9_tiny_176x144_420p8.json")),
            without_fps(slurp(path("c.json"))));
  EXPECT_EQ(without_fps(slurp(path("c.json"))), without_fps(slurp(path("c2.json"))));
  const CliRun bad = vqx("-r " + kRef + " -d " + kDist + " -d " + kRef +
                         " --dist-offset 1 --dist-offset 2 --dist-offset 3");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("--dist-offset"), std::string::npos) << bad.err;
}

// An encoding ladder's rung: the reference encoded at 288x162 (as the
// corpus's P1b before its upscale), scored with --scale, against FFmpeg's
// own scale filter upscaling it and the result scored: the same samples,
// so the same report. Bicubic (the default) and lanczos.
TEST_F(BatchTest, ScaleGivesTheSamplesOfFfmpegsScaleFilter) {
  const fs::path corpus_ref = corpus() / "ref" / "P1_pan_576x324_420p8.mkv";
  const std::string ref = fs::exists(corpus_ref) ? corpus_ref.string() : kP1Ref;
  const std::string rung = path("rung_288x162.mp4");
  ffmpeg("-i " + ref + " -frames:v 8 -vf scale=288:162 -c:v libx264 -preset medium -crf 23 " +
         "-threads 1 " + rung);
  if (HasFatalFailure()) return;
  for (const std::string filter : {"", "lanczos"}) {
    SCOPED_TRACE(filter.empty() ? "default (bicubic)" : filter);
    const std::string up = path("up" + filter + ".y4m");
    ffmpeg("-i " + rung + " -vf scale=576:324" + (filter.empty() ? "" : ":flags=" + filter) +
           " -f yuv4mpegpipe " + up);
    if (HasFatalFailure()) return;
    // Sample for sample, through the library.
    auto ours = vqx::open_scaled(
        vqx::open_video(rung, std::nullopt).value(), 576, 324,
        filter.empty() ? vqx::ScaleFilter::kBicubic : vqx::parse_scale_filter(filter).value());
    ASSERT_TRUE(ours.ok()) << ours.status().message();
    auto theirs = vqx::open_video(up, std::nullopt);
    ASSERT_TRUE(theirs.ok()) << theirs.status().message();
    const unsigned frames = same_frames(**ours, **theirs);
    EXPECT_EQ(frames, fs::exists(corpus_ref) ? 8U : 5U);
    // The luma alone (read_planes(1), as for VMAF): scaled by itself, the
    // same samples.
    EXPECT_EQ(same_lumas(rung, up, filter), frames);
    // And through the CLI: the reports are equal.
    const std::string scale = filter.empty() ? "--scale" : "--scale --scale-filter " + filter;
    const CliRun s =
        vqx("-r " + ref + " -d " + rung + " " + scale + " --frame_cnt " + std::to_string(frames) +
            " --feature psnr --precision max --json -o " + path("s.json"));
    ASSERT_EQ(s.code, 0) << s.err;
    const CliRun f = vqx("-r " + ref + " -d " + up + " --frame_cnt " + std::to_string(frames) +
                         " --feature psnr --precision max --json -o " + path("f.json"));
    ASSERT_EQ(f.code, 0) << f.err;
    EXPECT_EQ(without_fps(slurp(path("s.json"))), without_fps(slurp(path("f.json"))));
  }
  // 10-bit (yuv420p10le, samples of two bytes), sample for sample.
  const std::string rung10 = path("rung10.mkv");
  ffmpeg("-i " + ref + " -frames:v 3 -vf scale=288:162 -pix_fmt yuv420p10le -c:v ffv1 " + rung10);
  if (HasFatalFailure()) return;
  const std::string up10 = path("up10.y4m");
  ffmpeg("-i " + rung10 + " -vf scale=576:324 -strict -1 -f yuv4mpegpipe " + up10);
  if (HasFatalFailure()) return;
  auto ours10 = vqx::open_scaled(vqx::open_video(rung10, std::nullopt).value(), 576, 324);
  ASSERT_TRUE(ours10.ok()) << ours10.status().message();
  auto theirs10 = vqx::open_video(up10, std::nullopt);
  ASSERT_TRUE(theirs10.ok()) << theirs10.status().message();
  ASSERT_EQ((*theirs10)->format().bpc, 10U);
  EXPECT_EQ(same_frames(**ours10, **theirs10), 3U);
  EXPECT_EQ(same_lumas(rung10, up10, ""), 3U);
  // Without --scale the rung is refused, and the message suggests it.
  const CliRun no = vqx("-r " + ref + " -d " + rung);
  EXPECT_EQ(no.code, 1);
  EXPECT_NE(no.err.find("give --scale"), std::string::npos) << no.err;
  const CliRun bad = vqx("-r " + ref + " -d " + rung + " --scale --scale-filter cubic");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("bicubic"), std::string::npos) << bad.err;
}

// The corpus's P1a distorted clip without its first 3 frames: --sync finds
// offset 3 and scores it as the aligned pair (--dist-offset 3, which is
// --frame_skip_ref 3 here).
TEST_F(BatchTest, SyncFindsThreeDroppedFrames) {
  const fs::path ref = corpus() / "ref" / "P1_pan_576x324_420p8.mkv";
  const fs::path dist = corpus() / "dist" / "P1a_pan_576x324_420p8__x264-crf36.mkv";
  if (!fs::exists(ref) || !fs::exists(dist)) {
    GTEST_SKIP() << "the corpus is absent (" << corpus() << "; VQX_CORPUS)";
  }
  const std::string dropped = path("dropped3.y4m");
  ffmpeg("-i " + dist.string() + " -vf 'select=gte(n\\,3)' -frames:v 12 -f yuv4mpegpipe " +
         dropped);
  if (HasFatalFailure()) return;
  const std::string common = " --frame_cnt 12 --json -o ";
  const CliRun s =
      vqx("-r " + ref.string() + " -d " + dropped + " --sync" + common + path("s.json"));
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.err.find("--sync: offset 3 "), std::string::npos) << s.err;
  const CliRun o =
      vqx("-r " + ref.string() + " -d " + dropped + " --dist-offset 3" + common + path("o.json"));
  ASSERT_EQ(o.code, 0) << o.err;
  const CliRun k = vqx("-r " + ref.string() + " -d " + dropped + " --frame_skip_ref 3" + common +
                       path("k.json"));
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(without_fps(slurp(path("s.json"))), without_fps(slurp(path("k.json"))));
  EXPECT_EQ(without_fps(slurp(path("o.json"))), without_fps(slurp(path("k.json"))));
  // In a batch beside the clip itself (offset 0), each finds its own.
  fs::create_directories(dir_ / "b");
  const CliRun b = vqx("-r " + ref.string() + " -d " + dropped + " -d " + dist.string() +
                       " --sync --frame_cnt 12 --json -o " + path("b") + "/");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.err.find("dropped3.y4m: --sync: offset 3 "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("crf36.mkv: --sync: offset 0 "), std::string::npos) << b.err;
  EXPECT_EQ(without_fps(slurp(dir_ / "b" / "dropped3.json")), without_fps(slurp(path("k.json"))));
  // The other way round, the distorted clip has 3 frames before the
  // reference's first: offset -3.
  const CliRun neg = vqx("-r " + dropped + " -d " + dist.string() + " --sync --frame_cnt 9 -q");
  ASSERT_EQ(neg.code, 0) << neg.err;
  const CliRun shown = vqx("-r " + dropped + " -d " + dist.string() + " --sync --frame_cnt 9");
  EXPECT_NE(shown.err.find("--sync: offset -3 "), std::string::npos) << shown.err;
  // --sync and a given offset contradict each other.
  const CliRun both = vqx("-r " + ref.string() + " -d " + dropped + " --sync --dist-offset 3");
  EXPECT_EQ(both.code, 1);
}

}  // namespace

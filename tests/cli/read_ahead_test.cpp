// The vqx command's input pipeline (vqx/read_ahead.hpp, --read_ahead,
// --read_threads): the report is the same, to the last digit, for every
// read-ahead depth, number of reading threads and thread count, from files,
// pipes and FIFOs; a read error on a reader's thread ends the run with that
// reader's message and no output; a run that stops while a reader waits on
// a stalled pipe ends at once. Part of the TSan run (scripts/test.sh).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
const std::string kRef = (kSubset / "P9_tiny_176x144_420p8.y4m").string();
const std::string kDist = (kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string();
constexpr std::size_t kP9Frame = 176 * 144 * 3 / 2;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct ShellRun {
  int code = -1;
  std::string err;
};

class CliReadAhead : public ::testing::Test {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);
    dir_ = fs::temp_directory_path() /
           ("vqx_cli_read_ahead_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a shell command line whose first word is the vqx command.
  ShellRun sh(const std::string& cmd) {
    const fs::path err = dir_ / "stderr.txt";
    const int status = std::system(("(" + cmd + ") >/dev/null 2>" + err.string()).c_str());
    ShellRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.err = slurp(err);
    return r;
  }

  // The full-precision JSON report of a run, without its timing.
  nlohmann::json report(const std::string& inputs, const std::string& options,
                        const std::string& before = "") {
    const fs::path out = dir_ / "out.json";
    fs::remove(out);
    const ShellRun r = sh(before + std::string(VQX_CLI) + " " + inputs + " " + options +
                          " --json --precision max -q -o " + out.string());
    EXPECT_EQ(r.code, 0) << inputs << " " << options << ": " << r.err;
    if (r.code != 0) return {};
    auto j = nlohmann::json::parse(slurp(out));
    j.erase("fps");
    return j;
  }

  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }

  // The P9 frames as raw 4:2:0 (the Y4M headers stripped).
  std::string raw_of(const std::string& y4m, const std::string& name) {
    const std::string s = slurp(y4m);
    std::string raw;
    std::size_t pos = s.find('\n') + 1;
    while (pos < s.size()) {
      pos = s.find('\n', pos) + 1;
      raw += s.substr(pos, kP9Frame);
      pos += kP9Frame;
    }
    return write(name, raw);
  }

  fs::path dir_;
};

// Every depth (0: the synchronous loop), number of reading threads (2 and
// more: frames read at their offsets; auto) and thread count gives the
// same report, for the default model with a temporal feature and a
// feature of every kind of arithmetic, from Y4M and raw input.
TEST_F(CliReadAhead, ReportIsIdenticalForEveryDepthAndThreadCount) {
  const std::string y4m_inputs = "-r " + kRef + " -d " + kDist;
  const std::string raw_inputs = "-r " + raw_of(kRef, "ref.yuv") + " -d " +
                                 raw_of(kDist, "dist.yuv") + " -w 176 -h 144 -p 420 -b 8";
  const std::string features = " --feature psnr --feature float_ssim --feature motion";
  for (const std::string& inputs : {y4m_inputs, raw_inputs}) {
    SCOPED_TRACE(inputs);
    const nlohmann::json sync = report(inputs, "--read_ahead 0 --threads 0" + features);
    ASSERT_FALSE(sync.is_null());
    ASSERT_EQ(sync.at("frames").size(), 10U);
    // The numbers are the reference's (the golden of the bundled pair).
    const auto golden = nlohmann::json::parse(slurp(kSubset / "P9.models.json"));
    EXPECT_EQ(sync["frames"][7]["metrics"]["integer_adm2"].get<double>(),
              golden["frames"][7]["metrics"]["integer_adm2"].get<double>());
    for (const std::string reading :
         {"", "--read_ahead 1", "--read_ahead 4", "--read_ahead 64", "--read_ahead auto",
          "--read_ahead 2 --read_threads 2", "--read_ahead 4 --read_threads 3",
          "--read_ahead 64 --read_threads 16", "--read_threads 4"}) {
      for (const unsigned threads : {0U, 2U, 5U}) {
        const std::string options = reading + " --threads " + std::to_string(threads);
        SCOPED_TRACE(options);
        EXPECT_EQ(report(inputs, options + features), sync);
      }
    }
  }
}

// A pipe on standard input and a FIFO, Y4M and raw, with and without the
// read-ahead: the report of the files (nothing seeks on a pipe).
TEST_F(CliReadAhead, PipesAndFifosScoreLikeTheFiles) {
  const nlohmann::json files = report("-r " + kRef + " -d " + kDist, "");
  ASSERT_FALSE(files.is_null());
  const fs::path fifo = dir_ / "dist.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string ref_raw = raw_of(kRef, "ref.yuv");
  const std::string dist_raw = raw_of(kDist, "dist.yuv");
  const nlohmann::json raw_files =
      report("-r " + ref_raw + " -d " + dist_raw + " -w 176 -h 144 -p 420 -b 8", "");
  ASSERT_FALSE(raw_files.is_null());
  for (const std::string reading : {"--read_ahead 0", "--read_ahead 4", "--read_threads 3"}) {
    SCOPED_TRACE(reading);
    // The FIFO's writer runs in the background: vqx opens it for reading.
    const std::string feed_fifo = "cat " + kDist + " >" + fifo.string() + " & cat " + kRef + " | ";
    EXPECT_EQ(report("-r /dev/stdin -d " + fifo.string(), reading, feed_fifo), files);
    const std::string feed_raw =
        "cat " + dist_raw + " >" + fifo.string() + " & cat " + ref_raw + " | ";
    EXPECT_EQ(report("-r /dev/stdin -d " + fifo.string() + " -w 176 -h 144 -p 420 -b 8", reading,
                     feed_raw),
              raw_files);
  }
}

// A read error on a reader's thread (a pipe's, found when the reader
// reaches the frame, not when the file is opened; a file's, read at its
// frames' offsets by several threads): the run ends with the reader's own
// message, exit status 1, and no output file; the same with the read-ahead
// off.
TEST_F(CliReadAhead, AReadErrorInAReaderThreadEndsTheRunWithItsMessage) {
  // Y4M whose sixth FRAME header is broken.
  std::string y4m = slurp(kRef);
  std::size_t at = 0;
  for (int i = 0; i < 6; ++i) at = y4m.find("FRAME", at + 1);
  y4m[at + 4] = 'X';
  const std::string broken = write("broken.y4m", y4m);
  // Raw cut in the middle of its fourth frame.
  const std::string raw = slurp(raw_of(kRef, "ref.yuv"));
  const std::string cut = write("cut.yuv", raw.substr(0, (3 * kP9Frame) + 1000));
  struct Case {
    std::string feed;
    std::string inputs;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"cat " + broken + " 2>/dev/null | ", "-r " + kRef + " -d /dev/stdin",
       "vqx: /dev/stdin: frame 5: expected a FRAME header, found 'FRAMX' (loss of framing)\n"},
      {"cat " + cut + " 2>/dev/null | ",
       "-r /dev/stdin -d " + raw_of(kDist, "dist.yuv") + " -w 176 -h 144 -p 420 -b 8",
       "vqx: /dev/stdin: frame 3 is truncated (got 1000 of 38016 bytes)\n"},
      // As a file, its size and its first and last headers are those of
      // frames at fixed offsets.
      {"", "-r " + kRef + " -d " + broken,
       "vqx: " + broken + ": frame 5: expected a FRAME header, found 'FRAMX' (loss of framing)\n"},
  };
  for (const Case& c : cases) {
    for (const std::string reading :
         {"--read_ahead 0", "--read_ahead 4", "--read_ahead 4 --read_threads 3"}) {
      SCOPED_TRACE(c.inputs + " " + reading);
      const fs::path out = dir_ / "out.json";
      const ShellRun r = sh(c.feed + VQX_CLI + " " + c.inputs + " " + reading +
                            " --threads 2 --json -o " + out.string());
      EXPECT_EQ(r.code, 1) << r.err;
      EXPECT_EQ(r.err, c.message);
      EXPECT_FALSE(fs::exists(out));
      for (const auto& e : fs::directory_iterator(dir_)) {
        EXPECT_EQ(e.path().filename().string().find("out.json"), std::string::npos) << e.path();
      }
    }
  }
}

// --frame_cnt reached while the reference's reader, a frame ahead, waits on
// a FIFO whose writer stalls (open, silent, after the two frames asked
// for): the run finishes and exits at once. Without the reader's interrupt
// it would wait for the writer for ever (here: until the test gives up,
// closes the FIFO and fails). The scoring is synchronous (--threads 0), so
// that the reader, which goes on reading as soon as it has queued the
// second frame, waits on the pipe before the run has scored that frame;
// the depth is given (auto reads in turn on a machine of two cores).
TEST_F(CliReadAhead, FrameCountReachedWhileAReaderWaitsOnAStalledPipe) {
  const fs::path fifo = dir_ / "ref.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path out = dir_ / "out.json";
  const fs::path err = dir_ / "stderr.txt";
  std::vector<std::string> args = {VQX_CLI,       "-r",     fifo.string(), "-d", kDist,
                                   "--frame_cnt", "2",      "--threads",   "0",  "--read_ahead",
                                   "4",           "--json", "-q",          "-o", out.string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&fa);
  const int feed = ::open(fifo.c_str(), O_WRONLY);  // waits for vqx to open it
  ASSERT_GE(feed, 0);
  // The header and two of the ten frames, then silence. (A vqx that ended
  // early and closed the FIFO would make the write fail.)
  const std::string y4m = slurp(kRef);
  std::size_t end = 0;
  for (int i = 0; i < 3; ++i) end = y4m.find("FRAME", end + 1);
  std::thread writer([&] { [[maybe_unused]] const ssize_t n = ::write(feed, y4m.data(), end); });
  int status = 0;
  bool ended = false;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < 60s) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      ended = true;
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  writer.join();  // done: vqx read every byte, or closed the FIFO by ending
  ::close(feed);
  if (!ended) ::waitpid(pid, &status, 0);
  EXPECT_TRUE(ended) << "vqx did not end while its reader waited on the stalled FIFO";
  ASSERT_TRUE(WIFEXITED(status)) << slurp(err);
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(err);
  const auto j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j.at("frames").size(), 2U);
}

// --read_ahead and --read_threads take auto or a number in their range;
// anything else is an error naming the option.
TEST_F(CliReadAhead, ReadingOptionsTakeAutoOrANumberInRange) {
  const std::string inputs = "-r " + kRef + " -d " + kDist;
  EXPECT_FALSE(report(inputs, "--read_ahead auto --read_threads auto").is_null());
  struct Bad {
    std::string option;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {"--read_ahead 65", "vqx: --read_ahead 65: expected auto or a number from 0 to 64\n"},
      {"--read_ahead -1", "vqx: --read_ahead -1: expected auto or a number from 0 to 64\n"},
      {"--read_ahead Auto", "vqx: --read_ahead Auto: expected auto or a number from 0 to 64\n"},
      {"--read_threads 0", "vqx: --read_threads 0: expected auto or a number from 1 to 16\n"},
      {"--read_threads 17", "vqx: --read_threads 17: expected auto or a number from 1 to 16\n"},
      {"--read_threads ''", "vqx: --read_threads: the value is empty\n"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.option);
    const ShellRun r = sh(std::string(VQX_CLI) + " " + inputs + " " + b.option + " -q");
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, b.message);
  }
}

}  // namespace

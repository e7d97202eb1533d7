// Interrupted and unusual runs of the vqx command (docs/reliability.md):
// SIGINT or SIGTERM in the middle of a long run leaves no output file and no
// temporary file, with a non-zero exit status; input through a pipe scores
// like the file itself.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// How far the process has read into `file` (the largest position of its
// descriptors open on it, from /proc/<pid>/fdinfo), -1 if it has none open.
long long read_position(pid_t pid, const fs::path& file) {
  long long best = -1;
  std::error_code ec;
  const fs::path fds = "/proc/" + std::to_string(pid) + "/fd";
  for (const auto& e : fs::directory_iterator(fds, ec)) {
    std::error_code ec2;
    if (fs::read_symlink(e.path(), ec2) != file) continue;
    std::ifstream info("/proc/" + std::to_string(pid) + "/fdinfo/" + e.path().filename().string());
    std::string key;
    long long value = 0;
    while (info >> key >> value) {
      if (key == "pos:") best = std::max(best, value);
    }
  }
  return best;
}

class CliReliability : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vqx_interrupt_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A raw 4:2:0 video of `frames` frames of 64x64 that takes no disk space
  // (a sparse file of zeros): long enough that no run can finish it.
  std::string long_raw_video(unsigned long long frames) {
    const fs::path p = dir_ / "long.yuv";
    { std::ofstream touch(p); }
    fs::resize_file(p, frames * (64 * 64 * 3 / 2));
    return p.string();
  }

  // Starts vqx on the long video, waits until it has read `min_bytes` of it
  // (it is in its frame loop), sends `sig`, and returns the wait status.
  int run_and_signal(int sig, const std::string& out, long long min_bytes, std::string& err) {
    const std::string video = long_raw_video(1'000'000);
    std::vector<std::string> args = {VQX_CLI, "-r",  video, "-d", video, "-w",      "64",
                                     "-h",    "64",  "-p",  "420", "-b", "8",       "--json",
                                     "-o",    out,   "-q",  "--threads", "2"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const std::string err_path = (dir_ / "stderr.txt").string();
    posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    EXPECT_EQ(rc, 0);
    if (rc != 0) return -1;

    // Wait (at most 60 s) until it is scoring frames.
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    bool exited = false;
    while (std::chrono::steady_clock::now() - start < 60s) {
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        exited = true;
        break;
      }
      if (read_position(pid, video) >= min_bytes) break;
      std::this_thread::sleep_for(20ms);
    }
    EXPECT_FALSE(exited) << "vqx ended before the signal: " << slurp(err_path);
    if (!exited) {
      ::kill(pid, sig);
      // It must stop within a frame or two; allow a slow (sanitizer) build 60 s.
      const auto signalled = std::chrono::steady_clock::now();
      while (::waitpid(pid, &status, WNOHANG) != pid) {
        if (std::chrono::steady_clock::now() - signalled > 60s) {
          ::kill(pid, SIGKILL);
          ::waitpid(pid, &status, 0);
          ADD_FAILURE() << "vqx did not stop within 60 s of the signal";
          break;
        }
        std::this_thread::sleep_for(10ms);
      }
    }
    err = slurp(err_path);
    return status;
  }

  // Nothing in the folder but the input and stderr: no output, no temp file.
  void expect_no_output() {
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      EXPECT_TRUE(name == "long.yuv" || name == "stderr.txt") << "left behind: " << name;
    }
  }

  fs::path dir_;
};

constexpr long long kFrameBytes = 64 * 64 * 3 / 2;

TEST_F(CliReliability, SigintStopsWithoutWritingAnything) {
  std::string err;
  const int status = run_and_signal(SIGINT, (dir_ / "out.json").string(), 50 * kFrameBytes, err);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status) << ": " << err;
  EXPECT_EQ(WEXITSTATUS(status), 1) << err;
  EXPECT_NE(err.find("interrupted"), std::string::npos) << err;
  EXPECT_NE(err.find("no output written"), std::string::npos) << err;
  expect_no_output();
}

TEST_F(CliReliability, SigtermStopsWithoutWritingAnything) {
  std::string err;
  const int status = run_and_signal(SIGTERM, (dir_ / "out.json").string(), 50 * kFrameBytes, err);
  EXPECT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) << err;
  expect_no_output();
}

// Memory running out (an address-space limit, as a farm's container sets)
// gives an error, never an abort: before, std::bad_alloc thrown on a worker
// thread (an extractor's buffers) ended the process with SIGABRT. Limits
// from tight to comfortable, so that the allocations fail at different
// places; each run either scores or says "out of memory".
TEST_F(CliReliability, OutOfMemoryIsAnErrorNotACrash) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve more address space than the limits tried";
#else
  const fs::path video = dir_ / "uhd.yuv";
  { std::ofstream touch(video); }
  fs::resize_file(video, 4ULL * 3840 * 2160 * 3 / 2);  // sparse: no disk space
  for (const int mib : {200, 300, 400, 600}) {
    const std::string err = (dir_ / "stderr.txt").string();
    const std::string cmd = "ulimit -v " + std::to_string(mib * 1024) + "; " + VQX_CLI + " -r " +
                            video.string() + " -d " + video.string() +
                            " -w 3840 -h 2160 -p 420 -b 8 -q --threads 4 --frame_cnt 3 2>" + err;
    const int status = std::system(cmd.c_str());
    const std::string text = slurp(err);
    ASSERT_TRUE(WIFEXITED(status)) << mib << " MiB: killed by a signal: " << text;
    ASSERT_TRUE(WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1) << mib << " MiB: " << text;
    if (WEXITSTATUS(status) == 1) {
      EXPECT_NE(text.find("out of memory"), std::string::npos) << mib << " MiB: " << text;
      EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    }
  }
#endif
}

// A full disk (/dev/full: every write fails with ENOSPC) and a missing
// folder are one-line errors naming the output.
TEST_F(CliReliability, OutputThatCannotBeWrittenIsAnError) {
  const std::string err = (dir_ / "stderr.txt").string();
  for (const std::string& out :
       {std::string("/dev/full"), (dir_ / "no" / "such" / "o.json").string()}) {
    const std::string cmd = std::string(VQX_CLI) + " -r " + kRef + " -d " + kDist +
                            " -q --json -o " + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    const std::string text = slurp(err);
    ASSERT_TRUE(WIFEXITED(status)) << text;
    EXPECT_EQ(WEXITSTATUS(status), 1) << text;
    EXPECT_EQ(text.rfind("vqx: " + out + ": ", 0), 0U) << text;
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
  }
  EXPECT_FALSE(fs::exists(dir_ / "no"));
}

// An output that cannot be written is found before the run, with the
// system's reason (issue 11, item 11): before, a missing folder was found
// after scoring every frame (here 100000, 30 s).
TEST_F(CliReliability, OutputThatCannotBeWrittenIsFoundBeforeTheRun) {
  const std::string video = long_raw_video(100000);
  const std::string raw = " -w 64 -h 64 -p 420 -b 8 -q --json -o ";
  const std::string err = (dir_ / "stderr.txt").string();
  struct Case {
    std::string output;
    std::string reason;
    std::string redirect;
  };
  const std::vector<Case> cases = {
      {(dir_ / "no" / "such" / "o.json").string(),
       "cannot create: No such file or directory (the folder " + (dir_ / "no" / "such").string() +
           " does not exist)",
       ""},
      {dir_.string(), "cannot write: it is a directory", ""},
      {"/proc/version/o.json", "cannot create: Not a directory", ""},
      {"/dev/stdin", "cannot write: it is open only for reading", " </dev/null"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.output);
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system((std::string(VQX_CLI) + " -r " + video + " -d " + video + raw +
                                    c.output + c.redirect + " 2>" + err)
                                       .c_str());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string text = slurp(err);
    ASSERT_TRUE(WIFEXITED(status)) << text;
    EXPECT_EQ(WEXITSTATUS(status), 1) << text;
    EXPECT_EQ(text, "vqx: " + c.output + ": " + c.reason + "\n");
    EXPECT_LT(seconds, 10.0) << "the run was scored before the output was checked";
  }
  EXPECT_FALSE(fs::exists(dir_ / "no"));
  expect_no_output();
}

// The reference's `vmaf -r <(ffmpeg ... -f yuv4mpegpipe -)` works with vqx:
// a Y4M from a pipe scores as the file does.
TEST_F(CliReliability, Y4mFromAPipeScoresLikeTheFile) {
  auto run = [&](const std::string& cmd) {
    const std::string out = (dir_ / "stdout.txt").string();
    const int status = std::system((cmd + " >" + out + " 2>&1").c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << slurp(out);
    return slurp(out);
  };
  const std::string cli = VQX_CLI;
  const std::string from_file = run(cli + " -r " + kRef + " -d " + kDist);
  const std::string from_pipe = run("cat " + kRef + " | " + cli + " -r /dev/stdin -d " + kDist);
  EXPECT_NE(from_file.find("vmaf: "), std::string::npos) << from_file;
  EXPECT_EQ(from_file, from_pipe);
}

}  // namespace

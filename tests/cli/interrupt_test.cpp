// Interrupted and unusual runs of the vqx command (docs/reliability.md):
// SIGINT or SIGTERM in the middle of a long run leaves no output file and no
// temporary file, with a non-zero exit status; input through a pipe scores
// like the file itself.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
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
    std::vector<std::string> args = {VQX_CLI, "-r", video, "-d",        video, "-w", "64",
                                     "-h",    "64", "-p",  "420",       "-b",  "8",  "--json",
                                     "-o",    out,  "-q",  "--threads", "2"};
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

// --- every file a run creates is removed on every failure and signal, and
// --- a file already at the output path survives (issue 11, item 7)

// The run's files: a pre-existing output that must survive, and CAMBI
// heatmaps into a folder the run creates (256x64: CAMBI's minimum width).
const std::string kOldOutput = "the old result\n";

std::vector<std::string> heatmap_run_args(const std::string& ref, const std::string& dist,
                                          const fs::path& dir) {
  return {VQX_CLI,  "-r",        ref,
          "-d",     dist,        "-w",
          "256",    "-h",        "64",
          "-p",     "420",       "-b",
          "8",      "--feature", "cambi=heatmaps_path=" + (dir / "heat" / "maps").string(),
          "--json", "-o",        (dir / "out.json").string(),
          "-q",     "--threads", "2"};
}

pid_t spawn(const std::vector<std::string>& args, const fs::path& err) {
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  EXPECT_EQ(rc, 0);
  return rc == 0 ? pid : -1;
}

// Waits (at most 60 s) for `pid` to end; its wait status, or -1.
int wait_for(pid_t pid) {
  int status = 0;
  const auto start = std::chrono::steady_clock::now();
  while (::waitpid(pid, &status, WNOHANG) != pid) {
    if (std::chrono::steady_clock::now() - start > 60s) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "vqx did not end within 60 s";
      return -1;
    }
    std::this_thread::sleep_for(10ms);
  }
  return status;
}

// Whether `pid` is stuck on the FIFO `file` that `feed` writes, when
// nothing more will be written there: every byte written has been read
// (FIONREAD on the write end), a thread of the process sleeps in a read of
// the FIFO or in a poll (/proc/<pid>/task/*/syscall), and no thread has work
// (every one asleep, three times 10 ms apart). The reader threads of the
// read-ahead (vqx/read_ahead.hpp) wait for a pipe in poll(), with a
// descriptor that wakes them when the run stops; the main thread, once it
// has scored the frames they read, waits for them.
bool blocked_reading(pid_t pid, const fs::path& file, int feed) {
  int queued = -1;
  if (::ioctl(feed, FIONREAD, &queued) != 0 || queued != 0) return false;
  long fd = -1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    std::error_code ec2;
    if (fs::read_symlink(e.path(), ec2) == file) fd = std::stol(e.path().filename().string());
  }
  if (fd < 0) return false;
  const fs::path tasks = "/proc/" + std::to_string(pid) + "/task";
  for (int sample = 0; sample < 3; ++sample) {
    if (sample > 0) std::this_thread::sleep_for(10ms);
    bool waits_on_input = false;
    for (const auto& t : fs::directory_iterator(tasks, ec)) {
      std::ifstream stat(t.path() / "stat");
      const std::string line((std::istreambuf_iterator<char>(stat)),
                             std::istreambuf_iterator<char>());
      const std::size_t after_name = line.rfind(')');
      if (after_name == std::string::npos || line.size() < after_name + 3) return false;
      if (line[after_name + 2] != 'S') return false;  // running, or about to
      std::ifstream in(t.path() / "syscall");
      long nr = -1;
      std::string arg0;
      if (!(in >> nr >> arg0)) return false;
      if ((nr == SYS_read && std::stol(arg0, nullptr, 16) == fd) || nr == SYS_poll ||
          nr == SYS_ppoll) {
        waits_on_input = true;
      }
    }
    if (!waits_on_input) return false;
  }
  return true;
}

bool running(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) == 0;
}

// The names under `dir`, relative, with folders.
std::vector<std::string> tree(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    out.push_back(fs::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Every signal that ends the process, sent while the run is stuck in a read
// from a stalled pipe (its heatmaps and its output's temporary made, the
// output path holding an earlier result): the process ends at once, by the
// signal, saying so; the heatmaps, their folders and the temporary are
// removed and the earlier result is intact. Before: SIGTERM, SIGHUP or a
// second SIGINT killed the process with its temporaries left, and the
// heatmaps (written from the first frame, over an earlier run's) stayed.
TEST_F(CliReliability, EverySignalThatEndsTheRunRemovesItsFiles) {
  struct rlimit no_core {};
  ::setrlimit(RLIMIT_CORE, &no_core);  // SIGQUIT's default action dumps core
  constexpr std::size_t kFrame = 256 * 64 * 3 / 2;
  for (const int sig :
       {SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGINT /* twice */}) {
    SCOPED_TRACE(sig);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "out.json") << kOldOutput;
    const fs::path dist = dir_ / "dist.yuv";
    { std::ofstream touch(dist); }
    fs::resize_file(dist, 1000 * kFrame);
    const fs::path fifo = dir_ / "ref.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const fs::path err = dir_ / "stderr.txt";
    const pid_t pid = spawn(heatmap_run_args(fifo.string(), dist.string(), dir_), err);
    ASSERT_GT(pid, 0);
    const int feed = ::open(fifo.c_str(), O_WRONLY);  // waits for vqx to open it
    ASSERT_GE(feed, 0);
    const std::string frames(20 * kFrame, '\x40');
    ASSERT_EQ(::write(feed, frames.data(), frames.size()), static_cast<ssize_t>(frames.size()));
    // The pipe now stalls: wait until vqx has read every frame and waits in
    // a read for the next (its heatmaps made), as a run on a stalled pipe.
    const auto start = std::chrono::steady_clock::now();
    while (!blocked_reading(pid, fifo, feed)) {
      ASSERT_TRUE(running(pid)) << slurp(err);
      ASSERT_LT(std::chrono::steady_clock::now() - start, 60s) << "vqx never waited on the pipe";
      std::this_thread::sleep_for(10ms);
    }
    ASSERT_FALSE(fs::is_empty(dir_ / "heat" / "maps"));
    if (sig == SIGINT) {
      ::kill(pid, SIGINT);  // asks to stop at the next frame: none comes
      std::this_thread::sleep_for(300ms);
      EXPECT_TRUE(running(pid)) << "a first SIGINT ended a run stuck in a read: " << slurp(err);
    }
    ::kill(pid, sig);
    const int status = wait_for(pid);
    ::close(feed);
    const std::string text = slurp(err);
    ASSERT_TRUE(WIFSIGNALED(status)) << text;
    EXPECT_EQ(WTERMSIG(status), sig) << text;
    const std::string name =
        sig == SIGINT ? std::string("a second SIGINT") : std::string("SIG") + sigabbrev_np(sig);
    EXPECT_EQ(text, "vqx: stopped by " + name + "; no output written\n");
    EXPECT_EQ(slurp(dir_ / "out.json"), kOldOutput);
    EXPECT_EQ(tree(dir_),
              (std::vector<std::string>{"dist.yuv", "out.json", "ref.fifo", "stderr.txt"}));
  }
}

// The first SIGINT stops a run at the next frame: the same files removed,
// the earlier result kept (before: the heatmaps stayed, half written).
TEST_F(CliReliability, SigintRemovesTheRunsFilesAndKeepsTheOldOutput) {
  constexpr std::size_t kFrame = 256 * 64 * 3 / 2;
  std::ofstream(dir_ / "out.json") << kOldOutput;
  const fs::path video = dir_ / "long.yuv";
  { std::ofstream touch(video); }
  fs::resize_file(video, 1000000ULL * kFrame);
  const fs::path err = dir_ / "stderr.txt";
  const pid_t pid = spawn(heatmap_run_args(video.string(), video.string(), dir_), err);
  ASSERT_GT(pid, 0);
  const auto start = std::chrono::steady_clock::now();
  while (read_position(pid, video) < 30 * static_cast<long long>(kFrame)) {
    ASSERT_TRUE(running(pid)) << slurp(err);
    ASSERT_LT(std::chrono::steady_clock::now() - start, 60s);
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_FALSE(fs::is_empty(dir_ / "heat" / "maps"));
  ::kill(pid, SIGINT);
  const int status = wait_for(pid);
  const std::string text = slurp(err);
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_EQ(WEXITSTATUS(status), 1) << text;
  EXPECT_NE(text.find("no output written"), std::string::npos) << text;
  EXPECT_EQ(slurp(dir_ / "out.json"), kOldOutput);
  EXPECT_EQ(tree(dir_), (std::vector<std::string>{"long.yuv", "out.json", "stderr.txt"}));
}

// A run that fails after its heatmaps were made leaves none of them: at the
// output (a full disk), or in the middle (the piped reference ends first).
// Before, the heatmaps stayed although the message said no output.
TEST_F(CliReliability, HeatmapsOfAFailedRunAreRemoved) {
  constexpr std::size_t kFrame = 256 * 64 * 3 / 2;
  const fs::path video = dir_ / "v.yuv";
  std::ofstream(video, std::ios::binary) << std::string(4 * kFrame, '\x30');
  const fs::path err = dir_ / "stderr.txt";
  auto args = heatmap_run_args(video.string(), video.string(), dir_);
  std::string cmd;
  for (std::size_t i = 0; i < args.size(); ++i) {
    cmd += (args[i] == (dir_ / "out.json").string() ? std::string("/dev/full") : args[i]) + " ";
  }
  int status = std::system((cmd + "2>" + err.string()).c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << slurp(err);
  EXPECT_NE(slurp(err).find("/dev/full: write failed: No space left on device"), std::string::npos)
      << slurp(err);
  EXPECT_EQ(tree(dir_), (std::vector<std::string>{"stderr.txt", "v.yuv"}));

  const fs::path shorter = dir_ / "short.yuv";
  std::ofstream(shorter, std::ios::binary) << std::string(2 * kFrame, '\x30');
  args = heatmap_run_args("/dev/stdin", video.string(), dir_);
  cmd = "cat " + shorter.string() + " | ";
  for (const auto& a : args) cmd += a + " ";
  status = std::system((cmd + "2>" + err.string()).c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << slurp(err);
  EXPECT_NE(slurp(err).find("/dev/stdin ended after 2 frames"), std::string::npos) << slurp(err);
  EXPECT_EQ(tree(dir_), (std::vector<std::string>{"short.yuv", "stderr.txt", "v.yuv"}));
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
    // With the system's reason (before, /dev/full gave "could not write the output").
    EXPECT_NE(text.find(out == "/dev/full" ? "write failed: No space left on device"
                                           : "No such file or directory"),
              std::string::npos)
        << text;
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

// What vqx writes on its standard output (issue 11, items 5 and 6): when
// the report goes there, the pooled scores go to standard error so that the
// stream is the report alone; a failed write of anything asked for (the
// scores, --version, --help, the report) is an error, never exit status 0.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
const std::string kRef = (kSubset / "P9_tiny_176x144_420p8.y4m").string();
const std::string kDist = (kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string();
const std::string kPair = " -r " + kRef + " -d " + kDist;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct VqxRun {
  int code = -1;
  std::string out;
  std::string err;
};

class StandardOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vqx_cli_stdout_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs vqx with `args`; `stdout_redirect` replaces the capture of
  // standard output (">/dev/full", ">&-").
  VqxRun vqx(const std::string& args, const std::string& stdout_redirect = "") {
    const fs::path out = dir_ / "stdout.txt";
    const fs::path err = dir_ / "stderr.txt";
    const std::string cmd = std::string(VQX_CLI) + " " + args + " " +
                            (stdout_redirect.empty() ? ">" + out.string() : stdout_redirect) +
                            " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    VqxRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = stdout_redirect.empty() ? slurp(out) : "";
    r.err = slurp(err);
    return r;
  }

  static std::string pooled_line() {
    const auto golden = nlohmann::json::parse(slurp(kSubset / "P9.models.json"));
    char line[64];
    std::snprintf(line, sizeof line, "vmaf: %f\n",
                  golden["pooled_metrics"]["vmaf_v0.6.1"]["mean"].get<double>());
    return line;
  }

  fs::path dir_;
};

// Before: "vmaf: 16.140803" followed the JSON on stdout, and
// `--json -o /dev/stdout | python3 -m json.tool` failed.
TEST_F(StandardOutput, ReportOnStdoutIsTheWholeStreamAndTheScoresGoToStderr) {
  for (const std::string out : {"-", "/dev/stdout", "/dev/fd/1"}) {
    SCOPED_TRACE(out);
    const VqxRun r = vqx("--json -o " + out + kPair);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);  // throws on anything after the report
    EXPECT_EQ(json["frames"].size(), 10U);
    EXPECT_EQ(r.err, pooled_line());
  }
  // Without a report on stdout, the scores stay there (the reference's
  // scripts read them), and -q silences them.
  const VqxRun file = vqx("--json -o " + (dir_ / "o.json").string() + kPair);
  EXPECT_EQ(file.out, pooled_line());
  EXPECT_EQ(file.err, "");
  const VqxRun quiet = vqx("--json -q -o -" + kPair);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(nlohmann::json::parse(quiet.out)["frames"].size(), 10U);
}

// Before: each of these exited 0 with nothing written.
TEST_F(StandardOutput, AFailedWriteOfWhatWasAskedForIsAnError) {
  struct Case {
    std::string args;
    std::string redirect;
    std::string error;
  };
  const std::string full = "vqx: standard output: write failed: No space left on device\n";
  const std::string closed = "vqx: standard output is closed\n";
  const std::vector<Case> cases = {
      {kPair, ">/dev/full", full},                // the pooled scores
      {kPair, ">&-", closed},                     //
      {"--version", ">/dev/full", full},          //
      {"--version", ">&-", closed},               //
      {"--help", ">/dev/full", full},             //
      {"--help", ">&-", closed},                  //
      {"--json -q -o -" + kPair, ">&-", closed},  // the report
      {"--json -q -o /dev/stdout" + kPair, ">&-", closed},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args + " " + c.redirect);
    const VqxRun r = vqx(c.args, c.redirect);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(r.err, c.error);
  }
  // The report to a full standard output says why.
  const VqxRun report = vqx("--json -q -o -" + kPair, ">/dev/full");
  EXPECT_EQ(report.code, 1);
  EXPECT_EQ(report.err, "vqx: standard output: write failed: No space left on device\n");
  // Nothing asked for on standard output: its state does not matter.
  for (const std::string redirect : {">/dev/full", ">&-"}) {
    const VqxRun r = vqx("-q -o " + (dir_ / "o.json").string() + kPair, redirect);
    EXPECT_EQ(r.code, 0) << redirect << ": " << r.err;
  }
}

// A run whose scores could not be printed is a failed run: its output
// file is not left behind (the scores are printed before the commit).
TEST_F(StandardOutput, ScoresThatCannotBePrintedFailTheRunAndLeaveNoOutput) {
  const fs::path out = dir_ / "o.json";
  const VqxRun r = vqx("--json -o " + out.string() + kPair, ">/dev/full");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  }
}

}  // namespace

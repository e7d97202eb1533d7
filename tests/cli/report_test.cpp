// `vqx report` as a user runs it: a page from a vqx run and the reference's
// JSON, standard output, the help, and one test per kind of bad input
// (one-line error naming the file or option, exit 1, no file left and the
// file already at the path kept).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
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

#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
const std::string kRef = (kSubset / "P9_tiny_176x144_420p8.y4m").string();
const std::string kDist = (kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string();
// The reference's JSON of that pair (5 models; the vmaf_v0.6.1 model's
// score named vmaf_v0.6.1).
const std::string kGolden = (kSubset / "P9.models.json").string();

using vqx::cli_test::CliRun;
using vqx::cli_test::slurp;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

class ReportCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("vqx_report_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    out_ = (dir_ / "report.html").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun vqx(const std::string& args) { return vqx::cli_test::run_vqx(args, dir_); }

  std::string write_file(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

  // Exit 1, one line naming `culprit`, and the report's path as it was
  // (holding "old"), with no temporary beside it.
  void expect_clean_failure(const CliRun& r, const std::string& culprit) {
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("vqx report: ", 0), 0U) << r.err;
    EXPECT_NE(r.err.find(culprit), std::string::npos)
        << "does not name " << culprit << ": " << r.err;
    EXPECT_EQ(slurp(out_), "old");
    for (const auto& e : fs::directory_iterator(dir_)) {
      EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
    }
  }

  fs::path dir_;
  std::string out_;
};

TEST_F(ReportCliTest, ComparesAVqxRunWithTheReferencesJson) {
  const std::string run = (dir_ / "vqx-P9.json").string();
  CliRun scored = vqx("-r " + kRef + " -d " + kDist +
                      " -m version=vmaf_v0.6.1:name=vmaf_v0.6.1 --json -q -o " + run);
  ASSERT_EQ(scored.code, 0) << scored.err;
  CliRun r = vqx("report " + run + " " + kGolden +
                 " --metric vmaf_v0.6.1 --metric integer_adm2 --worst 4 --title 'P9: vqx and "
                 "libvmaf' -o " +
                 out_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  const std::string page = slurp(out_);
  EXPECT_NE(page.find("<title>P9: vqx and libvmaf</title>"), std::string::npos);
  EXPECT_EQ(count(page, "<svg class=\"chart line\""), 2U);
  EXPECT_EQ(count(page, "<path class=\"run line\""), 4U);
  EXPECT_EQ(count(page, "<table class=\"worst\""), 2U);
  // Both runs have the reference's numbers: the same worst frame and score.
  const std::string worst_row = page.substr(page.find("<tbody>", page.find("class=\"worst\"")));
  EXPECT_EQ(count(page, worst_row.substr(7, worst_row.find("</tr>") - 7)), 2U);
  // The vqx run's settings: the model, the backend.
  EXPECT_NE(page.find("vmaf_v0.6.1 (built-in model vmaf_v0.6.1)"), std::string::npos);
  EXPECT_NE(page.find("<dt>backend</dt><dd>cpu</dd>"), std::string::npos);
  EXPECT_NE(page.find("not recorded in the file"), std::string::npos);  // the reference's
}

TEST_F(ReportCliTest, StandardOutput) {
  CliRun r = vqx("report " + kGolden + " --worst 2 -o -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_NE(r.out.find("main metric vmaf_v0.6.1."), std::string::npos);
  EXPECT_EQ(count(r.out, "<tr><td>2</td>"), 1U);  // two worst rows in the one table
  EXPECT_EQ(r.out.substr(r.out.size() - 8), "</html>\n");
}

TEST_F(ReportCliTest, Help) {
  CliRun r = vqx("report --help");
  EXPECT_EQ(r.code, 0);
  for (const char* flag : {"--output", "--worst", "--metric", "--title", "RUN.json"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
  CliRun main_help = vqx("--help");
  EXPECT_NE(main_help.out.find("vqx report RUN.json"), std::string::npos);
}

TEST_F(ReportCliTest, BadInputs) {
  const std::string not_json = write_file("scores.json", "vmaf: 76.2\n");
  const std::string no_frames = write_file("features.json", "{\"features\": []}");
  const std::string other =
      write_file("other.json", R"({"frames": [{"frameNum": 0, "metrics": {"psnr_y": 30.5}}]})");
  const std::string missing = (dir_ / "missing.json").string();
  const struct {
    std::string args;
    std::string culprit;
  } cases[] = {
      {"report " + kGolden + " " + missing + " -o " + out_, missing + ": cannot open"},
      {"report " + not_json + " -o " + out_, not_json + ": not JSON"},
      {"report " + no_frames + " -o " + out_, no_frames + ": no \"frames\" array"},
      {"report " + kGolden + " " + other + " -o " + out_,
       other + ": has no metric \"motion2\", which " + kGolden + " has"},
      {"report " + kGolden + " --metric nope -o " + out_, kGolden + ": has no metric \"nope\""},
      {"report " + kGolden + " --worst -3 -o " + out_, "--worst -3: expected a whole number"},
      {"report " + kGolden, "--output is required"},
      {"report -o " + out_, "runs is required"},
  };
  for (const auto& c : cases) {
    write_file("report.html", "old");
    SCOPED_TRACE(c.args);
    expect_clean_failure(vqx(c.args), c.culprit);
  }
}

TEST_F(ReportCliTest, AFileNameCannotInjectMarkup) {
  const std::string named = (dir_ / "<img src=x onerror=alert(1)>.json").string();
  fs::copy_file(kGolden, named);
  CliRun r = vqx("report '" + named + "' --worst 1 -o " + out_);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string page = slurp(out_);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("&lt;img src=x onerror=alert(1)&gt;.json"), std::string::npos);
}

// -o naming one of the runs (by its path or by another name of the same
// file) would replace the run with the page: refused, the run kept.
TEST_F(ReportCliTest, AnOutputThatIsARunIsRefused) {
  const std::string run = (dir_ / "run.json").string();
  fs::copy_file(kGolden, run);
  const std::string other_name = (dir_ / "same.json").string();
  fs::create_hard_link(run, other_name);
  const std::string before = slurp(run);
  for (const std::string& output : {run, other_name}) {
    SCOPED_TRACE(output);
    CliRun r = vqx("report " + kGolden + " " + run + " -o " + output);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "vqx report: --output " + output + " is the run " + run +
                         ": the report would replace it\n");
    EXPECT_EQ(slurp(run), before);
  }
}

// --metric takes one value: a run after it is a run, not a second metric.
TEST_F(ReportCliTest, MetricTakesOneValue) {
  const std::string copy = (dir_ / "copy.json").string();
  fs::copy_file(kGolden, copy);
  CliRun r = vqx("report " + kGolden + " --metric vmaf_v0.6.1 " + copy + " -o " + out_);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string page = slurp(out_);
  EXPECT_EQ(count(page, "<svg class=\"chart line\""), 1U);  // one metric
  EXPECT_EQ(count(page, "<path class=\"run line\""), 2U);   // of two runs
}

// A first SIGINT asks the command to stop; the page is then not committed,
// as a scoring run's output is not (the run is read from a FIFO, so the
// signal arrives while the command is known to be running).
TEST_F(ReportCliTest, SigintBeforeTheCommitWritesNothing) {
  const std::string fifo = (dir_ / "run.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  write_file("report.html", "old");
  const std::string cli = VQX_CLI;
  const std::string err = (dir_ / "stderr.txt").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args = {cli, "report", fifo, "-o", out_};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(::posix_spawn(&pid, cli.c_str(), &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  // Opening the FIFO waits for the command to open it: its signal thread
  // runs by then.
  const int fd = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ::kill(pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the signal thread takes it
  const std::string json = slurp(kGolden);
  EXPECT_EQ(::write(fd, json.data(), json.size()), static_cast<ssize_t>(json.size()));
  ::close(fd);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(slurp(err), "vqx report: interrupted; no output written\n");
  EXPECT_EQ(slurp(out_), "old");
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
  }
}

}  // namespace

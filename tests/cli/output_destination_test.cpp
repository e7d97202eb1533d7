// Where `-o` writes (issue 11, item 4): standard output redirected by the
// shell, also as an append, is written through, never replaced by a file
// and never truncated.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

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

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class OutputDestination : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vqx_cli_dest_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(OutputDestination, AppendedStandardOutputKeepsWhatWasThere) {
  const fs::path log = dir_ / "log.txt";
  std::ofstream(log) << "earlier line\n";
  const std::string cmd = std::string(VQX_CLI) + " -r " + kRef + " -d " + kDist + " -q --json -o " +
                          GetParam() + " >> " + log.string() + " 2>" + (dir_ / "err.txt").string();
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << slurp(dir_ / "err.txt");
  const std::string text = slurp(log);
  const std::string head = "earlier line\n";
  ASSERT_EQ(text.rfind(head, 0), 0U) << "the log was truncated or replaced";
  const auto json = nlohmann::json::parse(text.substr(head.size()));  // the whole report
  EXPECT_EQ(json["frames"].size(), 10U);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status("/dev/stdout")) ||
              !fs::is_regular_file(fs::symlink_status("/dev/stdout")))
      << "/dev/stdout was replaced by a file";
  for (const auto& e : fs::directory_iterator("/dev")) {
    EXPECT_EQ(e.path().filename().string().rfind("stdout.tmp.", 0), std::string::npos) << e.path();
  }
}

INSTANTIATE_TEST_SUITE_P(Cli, OutputDestination, ::testing::Values("-", "/dev/stdout"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           return std::string(p.param) == "-" ? "Dash" : "DevStdout";
                         });

}  // namespace

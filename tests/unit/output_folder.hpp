// A fresh folder per test (the output tests, the readers' tests): made
// before the test, removed after, named by the suite, the test and the
// process; files written into it, and what the tests read back from it.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace vqx::testing_util {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class OutputFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("vqx_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `bytes` to `name` in the folder; its path.
  std::string write(const std::string& name, const std::string& bytes) const {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
  // Every name under the folder, relative to it.
  [[nodiscard]] std::set<std::string> names() const {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir_)) {
      out.insert(std::filesystem::relative(e.path(), dir_).string());
    }
    return out;
  }
  // The temporary name this process gives a file being written at `name`.
  [[nodiscard]] static std::string temp_of(const std::string& name) {
    return name + ".tmp." + std::to_string(::getpid());
  }

  std::filesystem::path dir_;
};

}  // namespace vqx::testing_util

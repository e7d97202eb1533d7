// A FIFO for tests of reading through a pipe (tests/unit).
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

namespace vqx {

// A FIFO in a fresh folder; a thread writes `bytes` into it once a reader
// opens it (a reader that stops early makes the write fail, not the test).
class Fifo {
 public:
  explicit Fifo(std::string bytes) {
    std::signal(SIGPIPE, SIG_IGN);
    dir_ = std::filesystem::temp_directory_path() /
           ("vqx_fifo_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "pipe").string();
    EXPECT_EQ(::mkfifo(path_.c_str(), 0600), 0);
    writer_ = std::thread([this, b = std::move(bytes)] {
      std::FILE* f = std::fopen(path_.c_str(), "wb");
      if (f == nullptr) return;
      std::fwrite(b.data(), 1, b.size(), f);
      std::fclose(f);
    });
  }
  ~Fifo() {
    writer_.join();
    std::filesystem::remove_all(dir_);
  }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
  std::thread writer_;
};

}  // namespace vqx

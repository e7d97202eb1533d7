// Where an output goes (issue 11, items 4 and 11): a regular file through a
// temporary file and a rename, a link's target (the link stays), the
// process's own descriptors and devices straight through without
// truncation, and every failure with the system's reason.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "output/atomic_file.hpp"
#include "output_folder.hpp"

namespace vqx {
namespace {

using testing_util::slurp;
namespace fs = std::filesystem;

// A set of its own for each write: renamed into place when complete.
Status write_text(const std::string& path, const std::string& text) {
  OutputFiles files;
  return write_file_atomically(files, path, [&](std::ostream& out) {
    out << text;
    return Status::Ok();
  });
}

class OutputFile : public testing_util::OutputFolderTest {
 protected:
  // Nothing but `names` is left in the folder (no temporary file).
  void expect_only(std::initializer_list<const char*> names) {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir_)) {
      ++n;
      bool listed = false;
      for (const char* name : names) listed = listed || e.path().filename() == name;
      EXPECT_TRUE(listed) << "left behind: " << e.path();
    }
    EXPECT_EQ(n, names.size());
  }
};

TEST_F(OutputFile, RegularFileIsReplacedWholeKeepingItsMode) {
  const fs::path p = dir_ / "out.json";
  ASSERT_TRUE(write_text(p.string(), "first").ok());
  ASSERT_EQ(::chmod(p.c_str(), 0640), 0);
  ASSERT_TRUE(write_text(p.string(), "second").ok());
  EXPECT_EQ(slurp(p), "second");
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640U);
  expect_only({"out.json"});
}

TEST_F(OutputFile, ALinkStaysALinkAndItsTargetIsWritten) {
  const fs::path target = dir_ / "target.json";
  const fs::path link = dir_ / "link.json";
  std::ofstream(target) << "old";
  fs::create_symlink("target.json", link);  // relative, as users make them
  ASSERT_TRUE(write_text(link.string(), "new").ok());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(slurp(target), "new");

  // A dangling link: its target is created.
  const fs::path dangling = dir_ / "dangling.json";
  fs::create_symlink(dir_ / "later.json", dangling);
  ASSERT_TRUE(write_text(dangling.string(), "made").ok());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dangling)));
  EXPECT_EQ(slurp(dir_ / "later.json"), "made");
  expect_only({"target.json", "link.json", "dangling.json", "later.json"});
}

TEST_F(OutputFile, OwnDescriptorIsWrittenThroughAndAnAppendStaysAnAppend) {
  const fs::path log = dir_ / "log.txt";
  std::ofstream(log) << "earlier lines\n";
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  for (const std::string& path :
       {"/dev/fd/" + std::to_string(fd), "/proc/self/fd/" + std::to_string(fd)}) {
    ASSERT_TRUE(write_text(path, "result\n").ok()) << path;
  }
  ::close(fd);
  EXPECT_EQ(slurp(log), "earlier lines\nresult\nresult\n");
  expect_only({"log.txt"});
  EXPECT_FALSE(fs::exists("/dev/fd/" + std::to_string(fd) + ".tmp." + std::to_string(::getpid())));
}

TEST_F(OutputFile, FifoIsWrittenThroughNotReplaced) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  const Status s = write_text(fifo.string(), "through the pipe");
  reader.join();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(got, "through the pipe");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  expect_only({"pipe"});
}

TEST_F(OutputFile, FailuresGiveTheSystemsReason) {
  const Status missing = write_text((dir_ / "no" / "such" / "out.json").string(), "x");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("no/such/out.json"), std::string::npos) << missing.message();
  EXPECT_NE(missing.message().find("No such file or directory"), std::string::npos)
      << missing.message();

  const Status directory = write_text(dir_.string(), "x");
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.message().find("is a directory"), std::string::npos) << directory.message();

  const Status not_a_folder = write_text("/proc/version/out.json", "x");
  ASSERT_FALSE(not_a_folder.ok());
  EXPECT_NE(not_a_folder.message().find("Not a directory"), std::string::npos)
      << not_a_folder.message();

  const Status empty = write_text("", "x");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.code(), Errc::kInvalidArgument);

  if (fs::exists("/dev/full")) {
    const Status full = write_text("/dev/full", std::string(1 << 17, 'x'));
    ASSERT_FALSE(full.ok());
    EXPECT_NE(full.message().find("No space left on device"), std::string::npos) << full.message();
  }
  expect_only({});
}

TEST_F(OutputFile, AFailedWriteLeavesNothingAndKeepsTheOldFile) {
  const fs::path p = dir_ / "out.json";
  std::ofstream(p) << "the old result";
  OutputFiles files;
  const Status s = write_file_atomically(files, p.string(), [](std::ostream& out) {
    out << "half";
    return Error(Errc::kIo, "the writer failed");
  });
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("the writer failed"), std::string::npos);
  EXPECT_EQ(slurp(p), "the old result");
  expect_only({"out.json"});
}

}  // namespace
}  // namespace vqx

// A run's files as one result (vqx/output_files.hpp, core/staged_file.hpp;
// issue 11, items 7 and 11): in a held OutputFiles set complete files wait
// under their temporary names until a commit renames them all or a discard
// removes them, so that a failed or interrupted run neither leaves a file
// nor destroys one that was already there; prepare() finds an output that
// cannot be written before the run.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/staged_file.hpp"
#include "metrics/cambi/heatmap.hpp"
#include "output/atomic_file.hpp"
#include "output_folder.hpp"
#include "vqx/output_files.hpp"

namespace vqx {
namespace {

using testing_util::slurp;
namespace fs = std::filesystem;

class OutputHold : public testing_util::OutputFolderTest {
 protected:
  // Writes `text` to `path` as a file of the set.
  Status write_text(const std::string& path, const std::string& text) {
    return write_file_atomically(*files_, path, [&](std::ostream& out) {
      out << text;
      return Status::Ok();
    });
  }
  std::shared_ptr<OutputFiles> files_ = std::make_shared<OutputFiles>();
};

TEST_F(OutputHold, CommitRenamesEveryCompleteFile) {
  std::ofstream(dir_ / "a.json") << "old a";
  files_->hold();
  ASSERT_TRUE(write_text((dir_ / "a.json").string(), "new a").ok());
  ASSERT_TRUE(write_text((dir_ / "b.json").string(), "new b").ok());
  // Written, not yet in place: the old file is still there.
  EXPECT_EQ(slurp(dir_ / "a.json"), "old a");
  EXPECT_EQ(names(), (std::set<std::string>{"a.json", temp_of("a.json"), temp_of("b.json")}));
  ASSERT_TRUE(files_->commit().ok());
  EXPECT_EQ(slurp(dir_ / "a.json"), "new a");
  EXPECT_EQ(slurp(dir_ / "b.json"), "new b");
  EXPECT_EQ(names(), (std::set<std::string>{"a.json", "b.json"}));
  // The commit ended the hold: the next write is in place at once.
  ASSERT_TRUE(write_text((dir_ / "c.json").string(), "c").ok());
  EXPECT_EQ(slurp(dir_ / "c.json"), "c");
}

TEST_F(OutputHold, DiscardLeavesNothingAndKeepsWhatWasThere) {
  std::ofstream(dir_ / "a.json") << "old a";
  files_->hold();
  ASSERT_TRUE(write_text((dir_ / "a.json").string(), "new a").ok());
  ASSERT_TRUE(write_text((dir_ / "b.json").string(), "new b").ok());
  files_->discard();
  EXPECT_EQ(names(), (std::set<std::string>{"a.json"}));
  EXPECT_EQ(slurp(dir_ / "a.json"), "old a");
}

TEST_F(OutputHold, FoldersMadeForTheRunAreRemovedByADiscard) {
  fs::create_directories(dir_ / "kept");
  files_->hold();
  ASSERT_TRUE(staged::create_folders(*files_, (dir_ / "kept" / "new1" / "new2").string()).ok());
  auto file = staged::create(*files_, (dir_ / "kept" / "new1" / "new2" / "h.gray").string());
  ASSERT_TRUE(file.ok()) << file.status().message();
  ::close(file->fd);
  file->fd = -1;
  ASSERT_TRUE(staged::finish(*file).ok());
  files_->discard();
  EXPECT_EQ(names(), (std::set<std::string>{"kept"}));  // the folder that was there stays
}

TEST_F(OutputHold, PreparedOutputIsReservedUnderHoldAndWrittenIntoItsTemporary) {
  const std::string out = (dir_ / "out.json").string();
  // Without hold: a check that leaves nothing.
  ASSERT_TRUE(files_->prepare(out).ok());
  EXPECT_EQ(names(), (std::set<std::string>{}));
  files_->hold();
  ASSERT_TRUE(files_->prepare(out).ok());
  EXPECT_EQ(names(), (std::set<std::string>{temp_of("out.json")}));  // there for a signal to find
  ASSERT_TRUE(write_text(out, "report").ok());
  EXPECT_EQ(names(), (std::set<std::string>{temp_of("out.json")}));  // the same temporary
  ASSERT_TRUE(files_->commit().ok());
  EXPECT_EQ(slurp(out), "report");
  EXPECT_EQ(names(), (std::set<std::string>{"out.json"}));
}

TEST_F(OutputHold, ReservedButNeverWrittenIsRemovedByTheCommit) {
  files_->hold();
  ASSERT_TRUE(files_->prepare((dir_ / "out.json").string()).ok());
  ASSERT_TRUE(files_->commit().ok());
  EXPECT_EQ(names(), (std::set<std::string>{}));
}

// A temporary left by a killed process that had this pid does not block
// the write (before: "cannot create: File exists").
TEST_F(OutputHold, StaleTemporaryOfTheSamePidIsSteppedAround) {
  std::ofstream(dir_ / temp_of("out.json")) << "stale";
  ASSERT_TRUE(write_text((dir_ / "out.json").string(), "report").ok());
  EXPECT_EQ(slurp(dir_ / "out.json"), "report");
  EXPECT_EQ(slurp(dir_ / temp_of("out.json")), "stale");  // not ours: left alone
}

TEST_F(OutputHold, PrepareFindsWhatCannotBeWrittenWithTheReason) {
  const auto expect_error = [this](const std::string& path, const std::string& needle) {
    const Status s = files_->prepare(path);
    ASSERT_FALSE(s.ok()) << path;
    EXPECT_EQ(s.message().rfind(path == "-" ? "standard output" : path, 0), 0U) << s.message();
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
  };
  expect_error((dir_ / "no" / "such" / "out.json").string(),
               "cannot create: No such file or directory (the folder ");
  expect_error(dir_.string(), "it is a directory");
  expect_error("/proc/version/out.json", "Not a directory");
  const int ro = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(ro, 0);
  expect_error("/dev/fd/" + std::to_string(ro), "open only for reading");
  ::close(ro);
  expect_error("/dev/fd/" + std::to_string(ro), "Bad file descriptor");
  if (::geteuid() != 0) {
    fs::create_directories(dir_ / "locked");
    fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    expect_error((dir_ / "locked" / "out.json").string(), "Permission denied");
    fs::permissions(dir_ / "locked", fs::perms::owner_all);
  }
  EXPECT_FALSE(files_->prepare("").ok());
  EXPECT_TRUE(files_->prepare("/dev/null").ok());
  for (const std::string& name : names()) {
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "left behind: " << name;
  }
}

// CAMBI's heatmaps are files of the run too: a writer that is never closed
// (the run failed or was stopped) leaves nothing and keeps the heatmaps an
// earlier run left (before, they were truncated at the first frame and left
// half written); under hold they appear at the commit.
TEST_F(OutputHold, HeatmapsOfAFailedRunLeaveNothingAndKeepTheOldOnes) {
  const fs::path heat = dir_ / "heat";
  const std::string scale0 = "cambi_heatmap_scale_0_64x32_16b.gray";
  fs::create_directories(heat);
  std::ofstream(heat / scale0) << "an earlier run";
  const std::vector<float> row(64, 1.0F);
  {
    cambi::HeatmapWriter w(files_);
    ASSERT_TRUE(w.open(heat.string(), 64, 32, 9, 4).ok());
    ASSERT_TRUE(w.write_row(0, 0, 0, 64, 32, row.data()).ok());
  }  // destroyed without close()
  EXPECT_EQ(names(), (std::set<std::string>{"heat", "heat/" + scale0}));
  EXPECT_EQ(slurp(heat / scale0), "an earlier run");

  files_->hold();
  {
    cambi::HeatmapWriter w(files_);
    ASSERT_TRUE(w.open((dir_ / "new" / "heat").string(), 64, 32, 9, 4).ok());
    ASSERT_TRUE(w.write_row(0, 0, 0, 64, 32, row.data()).ok());
    ASSERT_TRUE(w.close().ok());
  }
  EXPECT_FALSE(fs::exists(dir_ / "new" / "heat" / scale0));  // waits for the commit
  ASSERT_TRUE(files_->commit().ok());
  EXPECT_EQ(fs::file_size(dir_ / "new" / "heat" / scale0), 64U * 2U);  // the one row written
  EXPECT_TRUE(fs::exists(dir_ / "new" / "heat" / "cambi_heatmap_scale_4_4x2_16b.gray"));

  files_->hold();
  {
    cambi::HeatmapWriter w(files_);
    ASSERT_TRUE(w.open((dir_ / "gone" / "heat").string(), 64, 32, 9, 4).ok());
    ASSERT_TRUE(w.close().ok());
  }
  files_->discard();
  EXPECT_FALSE(fs::exists(dir_ / "gone"));  // the folders it made went with it
}

}  // namespace
}  // namespace vqx

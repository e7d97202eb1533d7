// Output sets are independent (invariant 5, docs/architecture.md "Files a
// run writes"): what one OutputFiles set does (hold, commit, discard,
// close) never changes the files of another set, and a context writes into
// the set it was given or, given none, a private set of its own that
// renames each file as soon as it is complete. Before, the hold was one
// flag for the whole process: a program that held its run's files made
// every other context's report and heatmaps wait for a commit (or vanish in
// a discard) that was never theirs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "output/atomic_file.hpp"
#include "output_folder.hpp"
#include "test_util.hpp"
#include "vqx/output_files.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

using testing_util::slurp;
namespace fs = std::filesystem;

Status write_text(OutputFiles& files, const fs::path& path, const std::string& text) {
  return write_file_atomically(files, path.string(), [&](std::ostream& out) {
    out << text;
    return Status::Ok();
  });
}

class OutputSets : public testing_util::OutputFolderTest {
 protected:
};

// CAMBI's smallest scale-0 file at 256x64 (its minimum width is 216).
constexpr unsigned kWidth = 256;
constexpr unsigned kHeight = 64;
constexpr unsigned kFrames = 2;
const char* const kScale0 = "cambi_heatmap_scale_0_256x64_16b.gray";

// A context over kFrames frames with psnr and CAMBI heatmaps in `heatmaps`,
// flushed; its files go to `files` (null: its own set).
std::unique_ptr<Context> scored_context(const std::shared_ptr<OutputFiles>& files,
                                        const fs::path& heatmaps) {
  auto created = Context::create({.threads = 2, .backend = Backend::kCpu, .output_files = files});
  EXPECT_TRUE(created.ok()) << created.status().message();
  std::unique_ptr<Context> ctx = std::move(created).value();
  EXPECT_TRUE(ctx->use_feature("psnr").ok());
  const Status cambi = ctx->use_feature("cambi", {{"heatmaps_path", heatmaps.string()}});
  EXPECT_TRUE(cambi.ok()) << cambi.message();
  const PictureFormat fmt = testutil::format(kWidth, kHeight, 8);
  for (unsigned i = 0; i < kFrames; ++i) {
    Picture ref = testutil::grey_chroma::make_picture(fmt, testutil::noise(i, 20, 200));
    Picture dist = testutil::grey_chroma::make_picture(fmt, testutil::noise(i + 7, 20, 200));
    const Status s = ctx->read_pictures(std::move(ref), std::move(dist), i);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  const Status flushed = ctx->flush();
  EXPECT_TRUE(flushed.ok()) << flushed.message();
  return ctx;
}

// Two contexts in one process: one given a held set, the other none. The
// other's heatmaps are in place after its flush and its report at once;
// discarding the held set removes only its own files.
TEST_F(OutputSets, AHeldSetHoldsOnlyTheFilesOfItsContexts) {
  const auto held = std::make_shared<OutputFiles>();
  held->hold();
  const std::unique_ptr<Context> holding = scored_context(held, dir_ / "held_maps");
  const std::unique_ptr<Context> alone = scored_context(nullptr, dir_ / "own_maps");

  // The un-held context's heatmaps are complete and in place after flush:
  // two frames of 16-bit samples.
  EXPECT_EQ(fs::file_size(dir_ / "own_maps" / kScale0), std::uintmax_t{2} * 2 * kWidth * kHeight);
  EXPECT_TRUE(fs::exists(dir_ / "own_maps" / "cambi_heatmap_scale_4_16x4_16b.gray"));
  // The held context's wait under their temporary names.
  EXPECT_FALSE(fs::exists(dir_ / "held_maps" / kScale0));
  EXPECT_TRUE(fs::exists(dir_ / "held_maps" / temp_of(kScale0)));

  ASSERT_TRUE(alone->write_output((dir_ / "own.json").string(), OutputFormat::kJson).ok());
  ASSERT_TRUE(holding->write_output((dir_ / "held.json").string(), OutputFormat::kJson).ok());
  // At its path at once, not held.
  ASSERT_TRUE(fs::exists(dir_ / "own.json"));
  const std::string own_report = slurp(dir_ / "own.json");
  EXPECT_NE(own_report.find("\"psnr_y\""), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "held.json"));
  EXPECT_TRUE(fs::exists(dir_ / temp_of("held.json")));

  held->discard();
  // The held set's files and the folder made for its heatmaps are gone; the
  // other context's are untouched.
  EXPECT_FALSE(fs::exists(dir_ / "held_maps"));
  std::set<std::string> expected = {"own.json", "own_maps"};
  for (unsigned s = 0; s < 5; ++s) {
    unsigned w = kWidth;
    unsigned h = kHeight;
    for (unsigned k = 0; k < s; ++k) {
      w = (w + 1) / 2;
      h = (h + 1) / 2;
    }
    expected.insert("own_maps/cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(w) +
                    "x" + std::to_string(h) + "_16b.gray");
  }
  EXPECT_EQ(names(), expected);
  EXPECT_EQ(slurp(dir_ / "own.json"), own_report);
}

// The held context's files appear at its set's commit, and only then.
TEST_F(OutputSets, AHeldContextsFilesAppearAtItsCommit) {
  const auto held = std::make_shared<OutputFiles>();
  held->hold();
  const std::unique_ptr<Context> ctx = scored_context(held, dir_ / "maps");
  ASSERT_TRUE(ctx->write_output((dir_ / "out.xml").string(), OutputFormat::kXml).ok());
  EXPECT_FALSE(fs::exists(dir_ / "out.xml"));
  ASSERT_TRUE(held->commit().ok());
  EXPECT_TRUE(fs::exists(dir_ / "out.xml"));
  EXPECT_EQ(fs::file_size(dir_ / "maps" / kScale0), std::uintmax_t{2} * 2 * kWidth * kHeight);
  for (const std::string& name : names()) {
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "left behind: " << name;
  }
}

// Sets without contexts: commit, discard and close of one leave another's
// files as they are.
TEST_F(OutputSets, OneSetsCommitDiscardAndCloseLeaveAnothersFiles) {
  OutputFiles first;
  OutputFiles second;
  first.hold();
  second.hold();
  ASSERT_TRUE(write_text(first, dir_ / "a.json", "first").ok());
  ASSERT_TRUE(write_text(second, dir_ / "b.json", "second").ok());
  ASSERT_TRUE(second.commit().ok());
  EXPECT_EQ(names(), (std::set<std::string>{temp_of("a.json"), "b.json"}));
  first.discard();
  EXPECT_EQ(names(), (std::set<std::string>{"b.json"}));

  // Both write one path: each its own temporary; the last commit wins.
  first.hold();
  second.hold();
  ASSERT_TRUE(write_text(first, dir_ / "c.json", "first").ok());
  ASSERT_TRUE(write_text(second, dir_ / "c.json", "second").ok());
  EXPECT_EQ(names(),
            (std::set<std::string>{"b.json", temp_of("c.json"), temp_of("c.json") + ".1"}));
  ASSERT_TRUE(first.commit().ok());
  EXPECT_EQ(slurp(dir_ / "c.json"), "first");
  ASSERT_TRUE(second.commit().ok());
  EXPECT_EQ(slurp(dir_ / "c.json"), "second");

  // A set closed from another thread (a signal thread) removes its
  // temporaries, not another set's, and not the other's complete files.
  // Closed sets are not destroyed: this one lives on, reachable.
  static OutputFiles* const closed = new OutputFiles;
  closed->hold();
  second.hold();
  ASSERT_TRUE(write_text(*closed, dir_ / "d.json", "closed").ok());
  ASSERT_TRUE(write_text(second, dir_ / "e.json", "kept").ok());
  std::thread([] { closed->close(); }).join();
  EXPECT_EQ(names(), (std::set<std::string>{"b.json", "c.json", temp_of("e.json")}));
  ASSERT_TRUE(second.commit().ok());
  EXPECT_EQ(slurp(dir_ / "e.json"), "kept");
}

// A set destroyed without a commit or a discard (a run that did not
// finish) leaves none of its temporaries; one that never held leaves its
// complete files in place.
TEST_F(OutputSets, ASetDestroyedUncommittedRemovesItsTemporaries) {
  {
    OutputFiles held;
    held.hold();
    ASSERT_TRUE(write_text(held, dir_ / "a.json", "a").ok());
    ASSERT_TRUE(held.prepare((dir_ / "b.json").string()).ok());
    EXPECT_EQ(names(), (std::set<std::string>{temp_of("a.json"), temp_of("b.json")}));
  }
  EXPECT_EQ(names(), (std::set<std::string>{}));
  {
    OutputFiles plain;
    ASSERT_TRUE(write_text(plain, dir_ / "c.json", "c").ok());
  }
  EXPECT_EQ(names(), (std::set<std::string>{"c.json"}));
}

}  // namespace
}  // namespace vqx

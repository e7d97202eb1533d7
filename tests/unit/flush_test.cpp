// Results exist only after a successful flush() (issue 11, item 11): before
// it, values are missing or still being computed on the workers, so
// write_output() and the score queries are errors; after a failed flush
// they return its error. Before, write_output() on a context that never
// flushed wrote a file and returned OK.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "vqx/vqx.hpp"

namespace vqx {
namespace {

Picture grey(const PictureFormat& fmt, unsigned v) {
  Picture p = Picture::make(fmt).value();
  for (unsigned k = 0; k < p.plane_count(); ++k) {
    Plane& pl = p.plane(k);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x)
        pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v + x);
    }
  }
  return p;
}

std::string temp_output(const char* name) {
  return (std::filesystem::temp_directory_path() /
          (std::string("vqx_flush_test_") + name + "_" +
           std::to_string(static_cast<long>(::getpid())) + ".json"))
      .string();
}

TEST(Flush, ResultsBeforeFlushAreErrors) {
  for (unsigned threads : {0U, 2U}) {
    auto ctx = Context::create({.threads = threads, .backend = Backend::kCpu}).value();
    ASSERT_TRUE(ctx->use_feature("psnr=enable_apsnr=true").ok());
    const PictureFormat fmt{32, 16, 8, ChromaFormat::k420};
    ASSERT_TRUE(ctx->read_pictures(grey(fmt, 10), grey(fmt, 12), 0).ok());
    const std::string path = temp_output("before");
    const Status w = ctx->write_output(path, OutputFormat::kJson);
    EXPECT_EQ(w.code(), Errc::kInvalidArgument);
    EXPECT_EQ(
        w.message(),
        "write_output before flush(): the scores are complete only once flush() has returned");
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_NE(
        ctx->score_at_index("psnr_y", 0).status().message().find("score_at_index before flush()"),
        std::string::npos);
    EXPECT_FALSE(ctx->pooled_score("psnr_y", PoolMethod::kMean).ok());
    EXPECT_FALSE(ctx->aggregate_score("apsnr_y").ok());
    EXPECT_TRUE(ctx->aggregate_names().empty());

    ASSERT_TRUE(ctx->flush().ok());
    EXPECT_TRUE(ctx->score_at_index("psnr_y", 0).ok());
    EXPECT_TRUE(ctx->aggregate_score("apsnr_y").ok());
    // Every whole-video value by name, each one aggregate_score() knows.
    const std::vector<std::string> aggregates = ctx->aggregate_names();
    EXPECT_EQ(aggregates, (std::vector<std::string>{"apsnr_y", "apsnr_cb", "apsnr_cr"}));
    for (const auto& name : aggregates) EXPECT_TRUE(ctx->aggregate_score(name).ok()) << name;
    ASSERT_TRUE(ctx->write_output(path, OutputFormat::kJson).ok());
    EXPECT_TRUE(std::filesystem::exists(path));
    std::filesystem::remove(path);
  }
}

TEST(Flush, AFailedFlushsErrorComesBackFromEveryResult) {
  auto ctx = Context::create({.backend = Backend::kCpu}).value();
  ASSERT_TRUE(ctx->use_feature("psnr").ok());
  const Status f = ctx->flush();  // no frames
  ASSERT_FALSE(f.ok());
  const std::string path = temp_output("failed");
  EXPECT_EQ(ctx->write_output(path, OutputFormat::kXml).message(), f.message());
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(ctx->pooled_score("psnr_y", PoolMethod::kMean).status().message(), f.message());
}

}  // namespace
}  // namespace vqx

// score_batch() (vqx/batch.hpp) stopped by its on_frame callback: the
// batch's status and every clip still scoring say so with Errc::kCancelled
// (a stop the caller asked for, not a bad argument).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vqx/batch.hpp"

namespace {

// `count` grey 4:2:0 frames of 64x48.
class GreyFrames final : public vqx::VideoReader {
 public:
  GreyFrames(std::string path, unsigned count) : path_(std::move(path)), count_(count) {}
  const vqx::PictureFormat& format() const override { return format_; }
  const vqx::VideoInfo& info() const override { return info_; }
  const std::string& path() const override { return path_; }
  std::uint64_t frames_read() const override { return next_; }
  vqx::Expected<bool> read(vqx::Picture& pic) override {
    if (next_ == count_) return false;
    VQX_ASSIGN_OR_RETURN(pic, vqx::Picture::make(format_));
    ++next_;
    return true;
  }

 private:
  vqx::PictureFormat format_{64, 48, 8, vqx::ChromaFormat::k420};
  vqx::VideoInfo info_;
  std::string path_;
  unsigned count_;
  unsigned next_ = 0;
};

TEST(Batch, AStopAskedByOnFrameIsCancelled) {
  GreyFrames ref("ref", 10);
  GreyFrames dist("dist", 10);
  auto ctx = vqx::Context::create({.backend = vqx::Backend::kCpu});
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  ASSERT_TRUE((*ctx)->use_feature("psnr").ok());
  std::vector<vqx::BatchClip> clips(1);
  clips[0].dist = &dist;
  clips[0].context = ctx->get();
  unsigned seen = 0;
  const vqx::Status s = vqx::score_batch(ref, clips, {.on_frame = [&seen](unsigned n) {
                                           seen = n;
                                           return n < 3;
                                         }});
  EXPECT_EQ(seen, 3U);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), vqx::Errc::kCancelled);
  EXPECT_EQ(s.message(), "interrupted after 3 reference frames");
  EXPECT_EQ(clips[0].status.code(), vqx::Errc::kCancelled);
}

}  // namespace

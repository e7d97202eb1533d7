// find_offset() (vqx/alignment.hpp) on frames made here: a distorted clip
// that is the reference shifted by a known offset, with noise, is found at
// that offset whatever its sign; a static clip's tie goes to offset 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "vqx/alignment.hpp"

namespace {

// Frame `f` of a moving texture, 8-bit luma (4:0:0), `noise` added.
vqx::Picture frame(unsigned f, unsigned noise, std::mt19937& rng) {
  auto pic = vqx::Picture::make({64, 48, 8, vqx::ChromaFormat::k400}).value();
  std::uniform_int_distribution<int> n(-static_cast<int>(noise), static_cast<int>(noise));
  vqx::Plane& y = pic.plane(0);
  for (unsigned r = 0; r < y.height(); ++r) {
    for (unsigned x = 0; x < y.width(); ++x) {
      const unsigned v = ((x + 3 * f) * 37 + r * 11 + ((x + 3 * f) * r) % 23) % 200;
      y.row<std::uint8_t>(r)[x] = static_cast<std::uint8_t>(static_cast<int>(v) + 20 + n(rng));
    }
  }
  return pic;
}

// Hands out the pictures it holds, as a file reader would.
class Frames final : public vqx::VideoReader {
 public:
  explicit Frames(std::vector<vqx::Picture> frames) : frames_(std::move(frames)) {}
  const vqx::PictureFormat& format() const override { return frames_.front().format(); }
  const vqx::VideoInfo& info() const override { return info_; }
  const std::string& path() const override { return path_; }
  std::uint64_t frames_read() const override { return next_; }
  vqx::Expected<bool> read(vqx::Picture& pic) override {
    if (next_ == frames_.size()) return false;
    pic = std::move(frames_[next_++]);
    return true;
  }

 private:
  std::vector<vqx::Picture> frames_;
  vqx::VideoInfo info_;
  std::string path_ = "frames";
  std::size_t next_ = 0;
};

// A reference of `count` frames and a distorted clip whose frame 0 is the
// reference's frame `offset` (negative: -offset frames of its own first).
vqx::SyncResult sync(int offset, unsigned count, unsigned window) {
  std::mt19937 rng(7);
  std::vector<vqx::Picture> ref;
  std::vector<vqx::Picture> dist;
  for (unsigned f = 0; f < count; ++f) ref.push_back(frame(f + 100, 0, rng));
  for (int f = offset; f < static_cast<int>(count); ++f) {
    dist.push_back(frame(static_cast<unsigned>(f + 100), 4, rng));  // f < 0: frames before
  }
  vqx::SyncSettings settings{.window = window, .frames = 6};
  Frames r(std::move(ref));
  Frames d(std::move(dist));
  auto planes = vqx::read_luma_frames(r, settings.frames_needed());
  EXPECT_TRUE(planes.ok());
  auto found = vqx::find_offset(*planes, d, settings);
  EXPECT_TRUE(found.ok()) << found.status().message();
  return found.ok() ? *found : vqx::SyncResult{.offset = 9999};
}

TEST(Alignment, FindsTheOffsetWhateverItsSign) {
  for (const int offset : {0, 3, -2, 7, -7}) {
    const vqx::SyncResult r = sync(offset, 30, 8);
    EXPECT_EQ(r.offset, offset);
    EXPECT_EQ(r.pairs, 6U);
    EXPECT_GT(r.psnr, 30.0);   // noise of +-4: about 35 dB
    EXPECT_LT(r.psnr, 100.0);  // not the cap: the frames differ
  }
}

TEST(Alignment, AStaticClipTiesAtZero) {
  std::mt19937 rng(1);
  std::vector<vqx::Picture> ref;
  std::vector<vqx::Picture> dist;
  for (int f = 0; f < 12; ++f) {
    ref.push_back(frame(5, 0, rng));
    dist.push_back(frame(5, 0, rng));
  }
  Frames r(std::move(ref));
  Frames d(std::move(dist));
  const vqx::SyncSettings settings{.window = 4, .frames = 4};
  auto planes = vqx::read_luma_frames(r, settings.frames_needed());
  ASSERT_TRUE(planes.ok());
  auto found = vqx::find_offset(*planes, d, settings);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->offset, 0);
  EXPECT_EQ(found->psnr, vqx::kSyncMaxPsnr);
}

TEST(Alignment, RefusesFramesOfAnotherSize) {
  std::mt19937 rng(1);
  std::vector<vqx::Picture> ref;
  ref.push_back(frame(0, 0, rng));
  std::vector<vqx::Picture> dist;
  dist.push_back(vqx::Picture::make({32, 48, 8, vqx::ChromaFormat::k400}).value());
  Frames r(std::move(ref));
  Frames d(std::move(dist));
  auto planes = vqx::read_luma_frames(r, 10);
  ASSERT_TRUE(planes.ok());
  auto found = vqx::find_offset(*planes, d, {});
  ASSERT_FALSE(found.ok());
  EXPECT_NE(found.status().message().find("frames"), std::string::npos);
}

}  // namespace

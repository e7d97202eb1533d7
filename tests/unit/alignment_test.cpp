// find_offset() (vqx/alignment.hpp) on frames made here: a distorted clip
// that is the reference shifted by a known offset, with noise, is found at
// that offset whatever its sign, also when the clips are too short for it
// to have as many pairs as the others; a static clip's tie goes to offset
// 0; frames of another size or bit depth are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "vqx/alignment.hpp"

namespace {

// Frame `f` of a moving texture, luma only (4:0:0), `noise` added; at
// more than 8 bits the samples are scaled up.
vqx::Picture frame(unsigned f, unsigned noise, std::mt19937& rng, unsigned bpc = 8) {
  auto pic = vqx::Picture::make({64, 48, bpc, vqx::ChromaFormat::k400}).value();
  std::uniform_int_distribution<int> n(-static_cast<int>(noise), static_cast<int>(noise));
  vqx::Plane& y = pic.plane(0);
  for (unsigned r = 0; r < y.height(); ++r) {
    for (unsigned x = 0; x < y.width(); ++x) {
      const unsigned v = ((x + 3 * f) * 37 + r * 11 + ((x + 3 * f) * r) % 23) % 200;
      const int sample = static_cast<int>(v) + 20 + n(rng);
      if (bpc == 8) {
        y.row<std::uint8_t>(r)[x] = static_cast<std::uint8_t>(sample);
      } else {
        y.row<std::uint16_t>(r)[x] = static_cast<std::uint16_t>(sample << (bpc - 8));
      }
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
// reference's frame `offset` (negative: -offset frames of its own first),
// ending with the reference, or with `dist_count` frames when given.
vqx::SyncResult sync(int offset, unsigned count, unsigned window, int dist_count = -1) {
  std::mt19937 rng(7);
  std::vector<vqx::Picture> ref;
  std::vector<vqx::Picture> dist;
  for (unsigned f = 0; f < count; ++f) ref.push_back(frame(f + 100, 0, rng));
  const int dist_end = dist_count < 0 ? static_cast<int>(count) : offset + dist_count;
  for (int f = offset; f < dist_end; ++f) {
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
    EXPECT_EQ(r.first_compared, -8);
    EXPECT_EQ(r.last_compared, 8);
  }
}

// A reference of 12 frames and a distorted clip of 12 that starts at its
// frame 7 (it goes on past the reference's end): offset 7 has 5 pairs where
// the offsets near 0 have 6. Compared on the pairs each has, the true one
// wins; before, the offsets short of the most pairs were left out and
// another offset came back as a success.
TEST(Alignment, FindsAnOffsetThatHasFewerPairsThanTheOthers) {
  for (const int offset : {7, -7}) {
    SCOPED_TRACE(offset);
    const vqx::SyncResult r = sync(offset, 12, 10, 12);
    EXPECT_EQ(r.offset, offset);
    EXPECT_EQ(r.pairs, 5U);
    EXPECT_GT(r.psnr, 30.0);
    // The offsets with at least min_pairs (5) pairs: 12 - 5 = 7 frames
    // from 0 on the reference's side, more on the longer clip's side.
    EXPECT_EQ(offset > 0 ? r.last_compared : r.first_compared, offset > 0 ? 7 : -7);
  }
}

// Clips too short for min_pairs pairs at any offset: an error naming the
// clip, not a guess.
TEST(Alignment, ClipsTooShortForAnyOffsetAreRefused) {
  std::mt19937 rng(1);
  std::vector<vqx::Picture> ref;
  std::vector<vqx::Picture> dist;
  for (unsigned f = 0; f < 3; ++f) {
    ref.push_back(frame(f, 0, rng));
    dist.push_back(frame(f, 0, rng));
  }
  Frames r(std::move(ref));
  Frames d(std::move(dist));
  const vqx::SyncSettings settings{.window = 4, .frames = 10, .min_pairs = 5};
  auto planes = vqx::read_luma_frames(r, settings.frames_needed());
  ASSERT_TRUE(planes.ok());
  auto found = vqx::find_offset(*planes, d, settings);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().message(),
            "frames: too short for --sync: 3 frames against the reference's 3; no offset gives 5 "
            "pairs to compare");
}

// 10-bit and 12-bit samples take two bytes each: the depth is compared too.
TEST(Alignment, RefusesFramesOfAnotherBitDepth) {
  std::mt19937 rng(1);
  std::vector<vqx::Picture> ref;
  std::vector<vqx::Picture> dist;
  for (unsigned f = 0; f < 8; ++f) {
    ref.push_back(frame(f, 0, rng, 10));
    dist.push_back(frame(f, 0, rng, 12));
  }
  Frames r(std::move(ref));
  Frames d(std::move(dist));
  auto planes = vqx::read_luma_frames(r, 8);
  ASSERT_TRUE(planes.ok());
  EXPECT_EQ(planes->bpc, 10U);
  auto found = vqx::find_offset(*planes, d, {});
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), vqx::Errc::kMismatch);
  EXPECT_EQ(found.status().message(),
            "frames: --sync needs frames of the reference's bit depth (12-bit, not 10-bit)");
}

TEST(Alignment, OffsetSkips) {
  EXPECT_EQ(vqx::offset_skips(3).ref, 3U);
  EXPECT_EQ(vqx::offset_skips(3).dist, 0U);
  EXPECT_EQ(vqx::offset_skips(-2).ref, 0U);
  EXPECT_EQ(vqx::offset_skips(-2).dist, 2U);
  EXPECT_EQ(vqx::offset_skips(std::numeric_limits<int>::min()).dist, 2147483648U);
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

// A batch on the GPU (vqx/batch.hpp): N clips against one reference, a GPU
// context each. The contexts share their reference uploads
// (gpu::SharedReference): each reference frame is uploaded once for all
// of them, and every clip's values are those of a run of its own, bit for
// bit, a clip starting later in the reference (ref_offset) included, and
// those of the CPU.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/context_internals.hpp"
#include "gpu_test_util.hpp"
#include "vqx/batch.hpp"

namespace vqx::gputest {
namespace {

// One side of `video` (from frame `first` on) as a reader, filling the
// pictures it is given as a file reader does.
class VideoSide final : public VideoReader {
 public:
  VideoSide(const Video& video, bool dist, unsigned first, std::string path)
      : video_(video), dist_(dist), next_(first), path_(std::move(path)) {
    format_ = video.front().ref.format();
  }
  const PictureFormat& format() const override { return format_; }
  const VideoInfo& info() const override { return info_; }
  const std::string& path() const override { return path_; }
  std::uint64_t frames_read() const override { return read_; }
  // Nothing blocks: the batch may read it on a thread of its own (depth 1
  // and more), as it reads files.
  bool interruptible() const override { return true; }
  Expected<bool> read(Picture& pic) override {
    if (next_ == video_.size()) return false;
    if (!(pic.format() == format_)) {
      VQX_ASSIGN_OR_RETURN(pic, Picture::make(format_));
    }
    copy_samples(pic, dist_ ? video_[next_].dist : video_[next_].ref);
    ++next_;
    ++read_;
    return true;
  }

 private:
  const Video& video_;
  bool dist_;
  std::size_t next_;
  std::string path_;
  PictureFormat format_;
  VideoInfo info_;
  std::uint64_t read_ = 0;
};

RunOptions batch_options(Backend backend) {
  RunOptions o;
  o.backend = backend;
  o.threads = 2;
  // psnr reads the chroma: three planes a side. speed_temporal reads the
  // previous frame: in a batch (a shared reference) from its own copy,
  // alone from the pipeline's previous slot (src/gpu/pipeline.cu).
  o.features = {"psnr", "float_ssim", "speed_temporal"};
  o.models = {"version=vmaf_v0.6.1"};
  return o;
}

TEST(GpuBatch, EachReferenceFrameIsUploadedOnceAndEveryClipScoresAsAlone) {
  VQX_REQUIRE_GPU();
  const PictureFormat fmt{1280, 720, 10, ChromaFormat::k420};
  constexpr unsigned kFrames = 9;
  // One reference; three clips of it, distorted differently; the third
  // starts at reference frame 2.
  const Video base = make_video(fmt, Content::kSmooth, kFrames, 0, 3);
  const unsigned amplitude[3] = {6, 20, 60};
  const unsigned offset[3] = {0, 0, 2};
  std::vector<Video> clips(3);
  for (unsigned c = 0; c < 3; ++c) {
    for (const FramePair& f : base) {
      clips[c].push_back({clone(f.ref), distort(f.ref, amplitude[c], 11 + c)});
    }
  }
  for (unsigned depth : {0U, 2U}) {
    const std::string what = "read-ahead depth " + std::to_string(depth);
    VideoSide ref(base, false, 0, "ref");
    std::vector<std::unique_ptr<VideoSide>> dists;
    std::vector<std::unique_ptr<Context>> contexts;
    std::vector<BatchClip> batch;
    for (unsigned c = 0; c < 3; ++c) {
      dists.push_back(
          std::make_unique<VideoSide>(clips[c], true, offset[c], "clip" + std::to_string(c)));
      auto ctx = make_context(batch_options(gpu_backend()));
      ASSERT_TRUE(ctx.ok()) << ctx.status().message();
      contexts.push_back(std::move(ctx).value());
      ASSERT_TRUE(contexts.back()->reserve_pictures(2 * depth).ok()) << what;
      BatchClip clip;
      clip.dist = dists.back().get();
      clip.context = contexts.back().get();
      clip.ref_offset = offset[c];
      batch.push_back(std::move(clip));
    }
    BatchSettings settings;
    settings.depth = depth;
    const Status s = score_batch(ref, batch, settings);
    ASSERT_TRUE(s.ok()) << what << ": " << s.message();
    std::uint64_t shared = 0;
    std::uint64_t pairs = 0;
    for (unsigned c = 0; c < 3; ++c) {
      const std::string clip = what + ", clip " + std::to_string(c);
      ASSERT_TRUE(batch[c].status.ok()) << clip << ": " << batch[c].status.message();
      EXPECT_EQ(batch[c].frames, kFrames - offset[c]) << clip;
      pairs += batch[c].frames;
      const auto stats = detail::ContextInternals::upload_stats(*contexts[c]);
      ASSERT_TRUE(stats) << clip << ": no GPU pipeline";
      shared += stats->refs_shared;
      // The clip alone: its pairs from its first reference frame on.
      Video alone;
      for (unsigned i = offset[c]; i < kFrames; ++i) {
        alone.push_back({clone(clips[c][i].ref), clone(clips[c][i].dist)});
      }
      auto gpu_alone = score(batch_options(gpu_backend()), alone);
      auto cpu_alone = score(batch_options(Backend::kCpu), alone);
      ASSERT_TRUE(gpu_alone.ok()) << gpu_alone.status().message();
      ASSERT_TRUE(cpu_alone.ok()) << cpu_alone.status().message();
      const gputest::Run batched = read_run(*contexts[c]);
      expect_identical(*gpu_alone, batched, clip + ": alone vs in the batch, GPU");
      expect_twins_agree(*cpu_alone, batched, clip + ": CPU alone vs GPU batch");
    }
    // Each of the kFrames reference frames uploaded once: every other
    // pair read a frame another context had uploaded.
    EXPECT_EQ(shared, pairs - kFrames) << what;
  }
}

}  // namespace
}  // namespace vqx::gputest

// Pinned pictures (docs/gpu.md, "How pictures flow"): in a GPU context
// fetch_picture hands out pictures in the backend's pinned memory, whose
// planes the pipeline uploads straight from their rows; a picture from
// elsewhere (Picture::make) is staged first. Both give the same bits, mixed
// in one run, and a fetched picture is not handed out again while its
// upload still reads it.
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/context_internals.hpp"
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

struct PinnedRun {
  Run run;
  std::optional<gpu::UploadStats> stats;  // none in a CPU context
  std::size_t fetched = 0;
  std::size_t fetched_from_allocator = 0;  // luma not in ordinary memory
  std::size_t distinct_fetched = 0;        // different pictures among those fetched
};

// Scores frames `order[0]`, `order[1]`, ... of `video`; a
// picture is fetched from the context when `fetch(frame, side)` (side 0
// ref, 1 dist), else made with Picture::make, then filled with the video's
// samples, as a reader does.
Expected<PinnedRun> score_mixed(const RunOptions& o, const Video& video,
                                const std::vector<unsigned>& order,
                                const std::function<bool(unsigned, unsigned)>& fetch) {
  VQX_ASSIGN_OR_RETURN(auto ctx, make_context(o));
  PinnedRun out;
  std::set<const void*> seen;
  for (unsigned i = 0; i < order.size(); ++i) {
    const FramePair& frame = video[order[i]];
    Picture pics[2];
    for (unsigned side = 0; side < 2; ++side) {
      const Picture& src = side == 0 ? frame.ref : frame.dist;
      if (fetch(i, side)) {
        VQX_ASSIGN_OR_RETURN(pics[side], ctx->fetch_picture(src.format()));
        const Plane& luma = std::as_const(pics[side]).plane(0);
        seen.insert(luma.data());
        ++out.fetched;
        if (luma.memory() != nullptr) ++out.fetched_from_allocator;
      } else {
        VQX_ASSIGN_OR_RETURN(pics[side], Picture::make(src.format()));
      }
      copy_samples(pics[side], src);
    }
    VQX_RETURN_IF_ERROR(ctx->read_pictures(std::move(pics[0]), std::move(pics[1]), i));
  }
  VQX_RETURN_IF_ERROR(ctx->flush());
  out.run = read_run(*ctx);
  out.stats = detail::ContextInternals::upload_stats(*ctx);
  out.distinct_fetched = seen.size();
  return out;
}

std::string stats_text(const std::optional<gpu::UploadStats>& stats) {
  if (!stats) return "no GPU pipeline";
  const gpu::UploadStats& s = *stats;
  return "planes direct " + std::to_string(s.planes_direct) + ", staged " +
         std::to_string(s.planes_staged) + "; frames direct " + std::to_string(s.frames_direct) +
         ", staged " + std::to_string(s.frames_staged);
}

// ADM, VIF, motion, PSNR with chroma (three planes uploaded) and float_vif
// on the GPU. (float_vif was on the CPU, beside the GPU's twins, before it
// had a twin; since issue 14 every family has one, so a GPU context runs
// no feature on the CPU.)
RunOptions mixed_options(Backend backend, unsigned threads) {
  RunOptions o;
  o.backend = backend;
  o.threads = threads;
  o.features = {"psnr", "float_psnr", "motion", "float_vif"};
  o.models = {"version=vmaf_v0.6.1"};
  return o;
}

TEST(PinnedPictures, FetchedAndMadePicturesMixedGiveTheBitsOfStagedOnes) {
  VQX_REQUIRE_GPU();
  const PictureFormat fmt{1280, 720, 10, ChromaFormat::k420};
  const Video v = make_video(fmt, Content::kSmooth, 8, 6, 17);
  const std::vector<unsigned> order = {0, 1, 2, 3, 4, 5, 6, 7};
  // Frames 0, 4..7 fetched; 1 made; 2 ref fetched, dist made; 3 the reverse.
  auto mixed = [](unsigned frame, unsigned side) {
    if (frame == 1) return false;
    if (frame == 2) return side == 0;
    if (frame == 3) return side == 1;
    return true;
  };
  auto made = [](unsigned, unsigned) { return false; };
  for (unsigned threads : {0U, 4U}) {
    const std::string what = "threads " + std::to_string(threads);
    auto cpu = score_mixed(mixed_options(Backend::kCpu, threads), v, order, mixed);
    auto staged = score_mixed(mixed_options(gpu_backend(), threads), v, order, made);
    auto pinned = score_mixed(mixed_options(gpu_backend(), threads), v, order, mixed);
    ASSERT_TRUE(cpu.ok()) << cpu.status().message();
    ASSERT_TRUE(staged.ok()) << staged.status().message();
    ASSERT_TRUE(pinned.ok()) << pinned.status().message();
    ASSERT_TRUE(staged->stats && pinned->stats) << what << ": a GPU context without a pipeline";
    EXPECT_FALSE(cpu->stats) << what << ": a CPU context with a GPU pipeline";
    EXPECT_EQ(cpu->fetched_from_allocator, 0U) << what << ": a CPU context fetched pinned pictures";
    EXPECT_EQ(pinned->fetched_from_allocator, pinned->fetched)
        << what << ": a GPU context fetched pictures in ordinary memory";
    expect_identical(staged->run, pinned->run, what + ": staged vs mixed pinned pictures");
    expect_twins_agree(cpu->run, pinned->run, what + ": CPU vs GPU, mixed pinned pictures");

    // Every picture made with Picture::make is staged ...
    EXPECT_EQ(staged->stats->frames_direct, 0U) << what << ": " << stats_text(staged->stats);
    EXPECT_EQ(staged->stats->frames_staged, 8U) << what << ": " << stats_text(staged->stats);
    EXPECT_EQ(staged->stats->planes_staged, 8U * 6) << what << ": " << stats_text(staged->stats);
    // ... and every fetched one uploaded from its rows: 5 frames wholly,
    // one side of 2 others (3 planes a side: PSNR reads chroma).
    EXPECT_EQ(pinned->stats->frames_direct, 5U) << what << ": " << stats_text(pinned->stats);
    EXPECT_EQ(pinned->stats->frames_staged, 3U) << what << ": " << stats_text(pinned->stats);
    EXPECT_EQ(pinned->stats->planes_direct, 5U * 6 + 2 * 3)
        << what << ": " << stats_text(pinned->stats);
    EXPECT_EQ(pinned->stats->planes_staged, 6U + 2 * 3)
        << what << ": " << stats_text(pinned->stats);
  }
}

TEST(PinnedPictures, AFetchedPictureIsNotRefilledWhileItsUploadRuns) {
  VQX_REQUIRE_GPU();
  // Large pictures (a long upload), GPU features only and no worker
  // threads: the CPU's share is done when read_pictures returns, so only
  // the pipeline's hold keeps the next fetch from handing out, and this
  // loop from overwriting, a picture the upload still reads. Four distinct
  // frames in turn, so that a picture refilled too early gives other
  // values.
  const PictureFormat fmt{3840, 2160, 10, ChromaFormat::k420};
  Video v;
  for (unsigned k = 0; k < 4; ++k) {
    Video one = make_video(fmt, k % 2 == 0 ? Content::kNoise : Content::kSmooth, 1, 9 + k, 5 + k);
    v.push_back(std::move(one[0]));
  }
  std::vector<unsigned> order;
  for (unsigned i = 0; i < 24; ++i) order.push_back(i % 4);
  auto always = [](unsigned, unsigned) { return true; };

  RunOptions o;
  o.threads = 0;
  o.features = {"psnr", "float_psnr", "float_moment"};
  o.backend = Backend::kCpu;
  auto cpu = score_mixed(o, v, order, always);
  o.backend = gpu_backend();
  auto gpu = score_mixed(o, v, order, always);
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  ASSERT_TRUE(gpu->stats) << "a GPU context without a pipeline";
  expect_twins_agree(cpu->run, gpu->run, "4K fetched pictures refilled at once");
  EXPECT_EQ(gpu->stats->frames_direct, 24U) << stats_text(gpu->stats);
  EXPECT_EQ(gpu->stats->planes_staged, 0U) << stats_text(gpu->stats);
  // Recycled, not allocated a frame at a time (pinned allocation costs
  // milliseconds): at most the three slots' frames, the recycling list and
  // the pair in hand.
  EXPECT_LE(gpu->distinct_fetched, 12U)
      << gpu->distinct_fetched << " distinct pictures for " << gpu->fetched << " fetches";
}

TEST(PinnedPictures, GrayPicturesUploadTheirLumaDirectlyAndStageTheNeutralChroma) {
  VQX_REQUIRE_GPU();
  // 4:0:0 with PSNR (which reads chroma): the families see 4:2:0, the
  // fetched luma pinned, the neutral chroma planes ordinary memory.
  const PictureFormat fmt{640, 360, 8, ChromaFormat::k400};
  const Video v = make_video(fmt, Content::kNoise, 5, 7, 3);
  const std::vector<unsigned> order = {0, 1, 2, 3, 4};
  RunOptions o;
  o.threads = 2;
  o.features = {"psnr", "motion"};
  o.backend = Backend::kCpu;
  auto cpu = score(o, v);
  o.backend = gpu_backend();
  auto gpu = score_mixed(o, v, order, [](unsigned, unsigned) { return true; });
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  ASSERT_TRUE(gpu->stats) << "a GPU context without a pipeline";
  expect_twins_agree(cpu.value(), gpu->run, "4:0:0 fetched pictures");
  EXPECT_EQ(gpu->stats->planes_direct, 5U * 2) << stats_text(gpu->stats);
  EXPECT_EQ(gpu->stats->planes_staged, 5U * 4) << stats_text(gpu->stats);
  EXPECT_EQ(gpu->stats->frames_staged, 5U) << stats_text(gpu->stats);
}

}  // namespace
}  // namespace vqx::gputest

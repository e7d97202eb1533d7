// GPU faults (docs/reliability.md): a device that is nearly full, a failed
// allocation, a failed launch and a kernel that faults while running are
// each one clear line naming the device and the step; the failed context
// frees its device memory at once and answers every later call with the
// same error; and the next context in the same process scores as the CPU
// does. Its own binary, run serially: it fills the whole device.
#include <cstdio>
#include <memory>
#include <string>

#include "gpu/faults.hpp"
#include "gpu/pipeline.hpp"
#include "gpu_test_util.hpp"
#include "metrics/ciede/color.hpp"

namespace vqx::gputest {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Every twin: the integer VMAF features through the model, and the rest
// (float_ms_ssim's smallest picture is 176x176, larger than the injected
// faults' 176x144: float_ssim stands for the two SSIM twins here; and
// speed_chroma's is 160x160: speed_temporal stands for the two SpEED twins).
RunOptions every_twin(Backend b) {
  RunOptions o;
  o.backend = b;
  o.models = {"version=vmaf_v0.6.1:name=vmaf"};
  o.features = {"psnr",           "float_psnr",  "float_moment", "float_ssim=enable_lcs=true",
                "speed_temporal", "ssimulacra2", "ssim"};
  return o;
}

// "cuda:0 (" : how every device error starts.
std::string device_prefix() { return std::string(gpu::compiled_backend()) + ":0 ("; }

// Scores `video` on the GPU in a context expected to fail. Returns the
// first error and checks that every later call gives that same error.
Status first_failure(const Video& video) {
  ContextSettings settings;
  settings.backend = gpu_backend();
  auto ctx = Context::create(settings);
  if (!ctx.ok()) return ctx.status();
  const RunOptions o = every_twin(gpu_backend());
  for (const auto& m : o.models) EXPECT_TRUE((*ctx)->use_features_from_model(m).ok());
  for (const auto& f : o.features) EXPECT_TRUE((*ctx)->use_feature(f).ok());
  Status first;
  unsigned i = 0;
  for (; i < video.size() && first.ok(); ++i) {
    first = (*ctx)->read_pictures(clone(video[i].ref), clone(video[i].dist), i);
  }
  if (first.ok()) first = (*ctx)->flush();
  if (first.ok()) return first;
  if (i < video.size()) {  // the failed context refuses the next frame too
    const Status again = (*ctx)->read_pictures(clone(video[i].ref), clone(video[i].dist), i);
    EXPECT_EQ(again.message(), first.message());
    const Status flushed = (*ctx)->flush();
    EXPECT_EQ(flushed.message(), first.message());
  }
  return first;
}

void expect_one_clear_line(const Status& s, const std::string& must_contain) {
  EXPECT_EQ(s.code(), Errc::kDevice) << s.message();
  EXPECT_EQ(s.message().rfind(device_prefix(), 0), 0U) << s.message();
  EXPECT_NE(s.message().find(must_contain), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
}

// The next context: every twin on the GPU as on the CPU.
void expect_next_context_scores(const Video& video, const std::string& what) {
  auto cpu = score(every_twin(Backend::kCpu), video);
  auto gpu = score(every_twin(gpu_backend()), video);
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, what);
}

TEST(GpuFaults, NearlyFullDeviceRefuses4KClearlyThenAFreshContextScores) {
  VQX_REQUIRE_GPU();
  const Video video = make_video({3840, 2160, 8, ChromaFormat::k420}, Content::kSmooth, 3, 6, 4);
  {
    // All but 64 MiB: far less than a 4K context's frame slots and twins.
    auto hold = gpu::MemoryHold::take(0, 64 * kMiB);
    ASSERT_TRUE(hold.ok()) << hold.status().message();
    auto before = gpu::memory_info(0);
    ASSERT_TRUE(before.ok());
    std::printf("held %zu MiB; %zu MiB left free\n", (*hold)->bytes() / kMiB,
                before->free_bytes / kMiB);

    ContextSettings settings;
    settings.backend = gpu_backend();
    auto ctx = Context::create(settings);
    ASSERT_TRUE(ctx.ok()) << ctx.status().message();  // opening needs no frame memory
    const RunOptions o = every_twin(gpu_backend());
    ASSERT_TRUE((*ctx)->use_features_from_model(o.models[0]).ok());
    const Status refused = (*ctx)->read_pictures(clone(video[0].ref), clone(video[0].dist), 0);
    ASSERT_FALSE(refused.ok());
    std::printf("refusal: %s\n", refused.message().c_str());
    expect_one_clear_line(refused, "3840x2160");
    EXPECT_NE(refused.message().find("out of memory"), std::string::npos) << refused.message();

    // Nothing half set up: the same error for the next frame and at flush,
    // and the failed context already gave back what it had allocated.
    EXPECT_EQ((*ctx)->read_pictures(clone(video[1].ref), clone(video[1].dist), 1).message(),
              refused.message());
    auto after = gpu::memory_info(0);
    ASSERT_TRUE(after.ok());
    EXPECT_GE(after->free_bytes + 16 * kMiB, before->free_bytes)
        << "the failed context still holds device memory";
    EXPECT_EQ((*ctx)->flush().message(), refused.message());
  }  // the context, then the memory, released
  expect_next_context_scores(video, "4K after running out of device memory");
}

// ciede's Lab table of every 8-bit colour (192 MiB) is optional
// (src/gpu/twin.hpp's ConstantTable): on a device without room for it the
// twin computes each pixel's colours, with the same numbers, instead of
// failing the context.
TEST(GpuFaults, CiedeWithoutRoomForItsLabTableScoresAsTheCpu) {
  VQX_REQUIRE_GPU();
  const Video video = make_video({176, 144, 8, ChromaFormat::k420}, Content::kSmooth, 3, 6, 9);
  RunOptions o;
  o.features = {"ciede"};
  o.backend = Backend::kCpu;
  auto cpu = score(o, video);
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  {
    auto hold = gpu::MemoryHold::take(0, 128 * kMiB);  // less than the table needs
    ASSERT_TRUE(hold.ok()) << hold.status().message();
    auto free = gpu::memory_info(0);
    ASSERT_TRUE(free.ok());
    std::printf("held %zu MiB; %zu MiB left free\n", (*hold)->bytes() / kMiB,
                free->free_bytes / kMiB);
    constexpr std::size_t kTableBytes = std::size_t{ciede::kLabTableEntries} * sizeof(ciede::Lab);
    ASSERT_LT(free->free_bytes, kTableBytes) << "room for the table: the test shows nothing";
    o.backend = gpu_backend();
    auto gpu = score(o, video);
    ASSERT_TRUE(gpu.ok()) << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, "ciede without its Lab table");
  }
  o.backend = gpu_backend();
  auto gpu = score(o, video);  // with the table
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, "ciede with its Lab table");
}

struct Injection {
  gpu::FaultPoint point;
  unsigned nth;
  const char* step;  // what the message must name
};

TEST(GpuFaults, InjectedFaultsAreClearErrorsAndTheNextContextScores) {
  VQX_REQUIRE_GPU();
  const PictureFormat fmt{176, 144, 8, ChromaFormat::k420};
  const Video video = make_video(fmt, Content::kSmooth, 6, 6, 9);
  // Each frame slot allocates its staging and its device memory first.
  const unsigned slot_allocations = 2 * gpu::frame_slots(fmt);
  const Injection cases[] = {
      {gpu::FaultPoint::kAllocation, 1, "allocating the frame slots for 176x144 pictures"},
      {gpu::FaultPoint::kAllocation, slot_allocations + 2, "setting up "},  // a twin's buffers
      {gpu::FaultPoint::kLaunch, 1, "frame 0, "},
      {gpu::FaultPoint::kLaunch, 40, "frame "},  // a later frame
      {gpu::FaultPoint::kWait, 3, "waiting for "},
      {gpu::FaultPoint::kWait, 12, "frame "},
  };
  for (const Injection& c : cases) {
    const std::string what = "fault at point " + std::to_string(static_cast<int>(c.point)) +
                             ", call " + std::to_string(c.nth);
    gpu::inject_fault(c.point, c.nth);
    const Status s = first_failure(video);
    gpu::clear_faults();
    ASSERT_FALSE(s.ok()) << what << ": the fault was never reached";
    std::printf("%s: %s\n", what.c_str(), s.message().c_str());
    expect_one_clear_line(s, c.step);
    EXPECT_NE(s.message().find("(injected)"), std::string::npos) << s.message();
    expect_next_context_scores(video, "after " + what);
  }
}

// A twin that is not temporal has its work on each of the pipeline's frame
// slots (gpu::frame_slots: 8 at this size) recorded at the slot's first
// frame and replayed after (src/gpu/pipeline.cu): a launch that fails on a
// replayed frame is a clear error too, and the next context scores.
TEST(GpuFaults, AFailedLaunchOfARecordedFrameIsAClearError) {
  VQX_REQUIRE_GPU();
  const PictureFormat fmt{176, 144, 8, ChromaFormat::k420};
  const unsigned slots = gpu::frame_slots(fmt);
  const Video video = make_video(fmt, Content::kSmooth, slots + 1, 6, 9);
  ContextSettings settings;
  settings.backend = gpu_backend();
  auto ctx = Context::create(settings);
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  // Twins that are not temporal only: every launch of frame `slots` is a
  // replay.
  for (const char* f : {"psnr", "float_ssim", "ssimulacra2"}) {
    ASSERT_TRUE((*ctx)->use_feature(f).ok()) << f;
  }
  for (unsigned i = 0; i < slots; ++i) {
    const Status s = (*ctx)->read_pictures(clone(video[i].ref), clone(video[i].dist), i);
    ASSERT_TRUE(s.ok()) << "frame " << i << ": " << s.message();
  }
  gpu::inject_fault(gpu::FaultPoint::kLaunch, 1);
  const Status failed =
      (*ctx)->read_pictures(clone(video[slots].ref), clone(video[slots].dist), slots);
  gpu::clear_faults();
  ASSERT_FALSE(failed.ok()) << "the injected fault was never reached";
  std::printf("replayed frame: %s\n", failed.message().c_str());
  expect_one_clear_line(failed, "frame " + std::to_string(slots) + ", ");
  EXPECT_NE(failed.message().find("launching a recorded frame"), std::string::npos)
      << failed.message();
  EXPECT_NE(failed.message().find("(injected)"), std::string::npos) << failed.message();
  EXPECT_EQ((*ctx)->flush().message(), failed.message());
  ctx->reset();
  expect_next_context_scores(video, "after a failed replay");
}

}  // namespace
}  // namespace vqx::gputest

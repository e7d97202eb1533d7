// A real device fault (a kernel writing through a null pointer) poisons the
// device for the rest of the process: the CUDA and HIP runtimes offer no
// way back. What VQX promises then (docs/reliability.md): the context that
// was running and every later GPU context give one clear line naming the
// device, never a score; CPU contexts in the same process still score, bit
// for bit as before. Its own binary: nothing else may run in this process
// after the fault.
#include <cstdio>
#include <string>

#include "gpu/faults.hpp"
#include "gpu/pipeline.hpp"
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

RunOptions vmaf(Backend b) {
  RunOptions o;
  o.backend = b;
  o.models = {"version=vmaf_v0.6.1:name=vmaf"};
  return o;
}

void expect_device_error(const Status& s, const std::string& what) {
  EXPECT_FALSE(s.ok()) << what;
  EXPECT_EQ(s.code(), Errc::kDevice) << what << ": " << s.message();
  EXPECT_NE(s.message().find(std::string(gpu::compiled_backend()) + ":0"), std::string::npos)
      << what << ": " << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << what << ": " << s.message();
  std::printf("%s: %s\n", what.c_str(), s.message().c_str());
}

TEST(PoisonedDevice, RunningAndLaterGpuContextsFailClearlyCpuStillScores) {
  VQX_REQUIRE_GPU();
  const Video video = make_video({176, 144, 8, ChromaFormat::k420}, Content::kSmooth, 4, 6, 3);
  auto cpu_before = score(vmaf(Backend::kCpu), video);
  ASSERT_TRUE(cpu_before.ok()) << cpu_before.status().message();

  ContextSettings settings;
  settings.backend = gpu_backend();
  auto running = Context::create(settings);
  ASSERT_TRUE(running.ok()) << running.status().message();
  ASSERT_TRUE((*running)->use_features_from_model(vmaf(Backend::kCpu).models[0]).ok());
  ASSERT_TRUE((*running)->read_pictures(clone(video[0].ref), clone(video[0].dist), 0).ok());

  const Status fault = gpu::poison_device(0);
  ASSERT_FALSE(fault.ok()) << "the null write did not fault";
  std::printf("the fault: %s\n", fault.message().c_str());

  // The running context: the rest of its frames, or its flush, fail.
  Status s;
  for (unsigned i = 1; i < video.size() && s.ok(); ++i) {
    s = (*running)->read_pictures(clone(video[i].ref), clone(video[i].dist), i);
  }
  if (s.ok()) s = (*running)->flush();
  expect_device_error(s, "the running context");
  EXPECT_FALSE((*running)->score_at_index("vmaf", 0).ok());

  // A later GPU context, in the same process.
  auto later = score(vmaf(gpu_backend()), video);
  expect_device_error(later.status(), "a later context");

  // The CPU is untouched.
  auto cpu_after = score(vmaf(Backend::kCpu), video);
  ASSERT_TRUE(cpu_after.ok()) << cpu_after.status().message();
  expect_identical(*cpu_before, *cpu_after, "CPU before and after the device fault");
}

}  // namespace
}  // namespace vqx::gputest

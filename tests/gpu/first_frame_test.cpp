// (b) The first frame after a smaller context. Built once per twin
// (VQX_TWIN_FEATURE), each binary its own process, each run three times by
// ctest: a context at 640x360 scores and is closed (or stays open), then a
// context at 3840x2160 scores; its values must equal the CPU's. A recycled
// device allocation that still held the small context's sums, or a clear
// queued before the upload, shows here. Motion, stateful, scores two frames
// in each context: its first frame is 0 by definition, and its state buffer
// is what a recycled allocation would corrupt.
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

const std::string kFeature = VQX_TWIN_FEATURE;
const unsigned kFrames = kFeature == "motion" ? 2 : 1;
// Every output of the twin (psnr and the float ones have no debug option).
const std::string kSpec = kFeature == "psnr"   ? "psnr=enable_mse=true:enable_apsnr=true"
                          : kFeature.rfind("float_", 0) == 0 ? kFeature
                                                             : kFeature + "=debug=true";

Video small_video() {
  return make_video({640, 360, 8, ChromaFormat::k420}, Content::kNoise, kFrames, 60, 11);
}
Video big_video() {
  return make_video({3840, 2160, 8, ChromaFormat::k420}, Content::kSmooth, kFrames, 3, 12);
}

RunOptions options(Backend b) {
  RunOptions o;
  o.backend = b;
  o.features = {kSpec};
  return o;
}

std::unique_ptr<Context> open_and_score(const Video& v) {
  ContextSettings s;
  s.backend = gpu_backend();
  auto ctx = Context::create(s);
  EXPECT_TRUE(ctx.ok());
  EXPECT_TRUE((*ctx)->use_feature(kSpec).ok());
  for (unsigned i = 0; i < v.size(); ++i) {
    EXPECT_TRUE((*ctx)->read_pictures(clone(v[i].ref), clone(v[i].dist), i).ok());
  }
  EXPECT_TRUE((*ctx)->flush().ok());
  return std::move(*ctx);
}

TEST(FirstFrame, AfterASmallerContextWasClosed) {
  VQX_REQUIRE_GPU();
  const Video big = big_video();
  auto cpu = score(options(Backend::kCpu), big);
  ASSERT_TRUE(cpu.ok());
  open_and_score(small_video()).reset();
  auto gpu = score(options(gpu_backend()), big);
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, kFeature + " 4K after a closed 640x360 context");
}

TEST(FirstFrame, WithASmallerContextStillOpen) {
  VQX_REQUIRE_GPU();
  const Video big = big_video();
  auto cpu = score(options(Backend::kCpu), big);
  ASSERT_TRUE(cpu.ok());
  auto small = open_and_score(small_video());
  auto gpu = score(options(gpu_backend()), big);
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, kFeature + " 4K with a 640x360 context open");
  small.reset();
}

}  // namespace
}  // namespace vqx::gputest

// (b) The first frame after a smaller context. One binary for every twin,
// which takes the twin's feature as its argument (vqx_gpu_first_frame
// float_ssim); ctest runs it once per twin and run number, each its own
// process: a context at 640x360 scores and is closed (or stays open), then
// a context at 3840x2160 scores; its values must equal the CPU's. A
// recycled device allocation that still held the small context's sums, or
// a clear queued before the upload, shows here. Motion, float_motion and
// speed_temporal, stateful, score two frames in each context: their first frame is 0 by
// definition, and their kept frames are what a recycled allocation would
// corrupt (float_motion too, with its half-size planes).
#include <cstdio>
#include <map>

#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

// The twin under test (main() sets it from the command line).
std::string g_feature;

// Each twin's request writing every output it has.
const std::map<std::string, std::string>& specs() {
  static const std::map<std::string, std::string> kSpecs = {
      {"vif", "vif=debug=true"},
      {"adm", "adm=debug=true"},
      {"motion", "motion=debug=true"},
      {"psnr", "psnr=enable_mse=true:enable_apsnr=true"},
      {"float_psnr", "float_psnr"},
      {"float_moment", "float_moment"},
      {"float_ssim", "float_ssim=enable_lcs=true"},
      {"float_ms_ssim", "float_ms_ssim=enable_lcs=true"},
      {"speed_chroma",
       "speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear:speed_weight_var_mode=5"},
      {"speed_temporal", "speed_temporal=speed_use_ref_diff=true"},
      {"cambi", "cambi=full_ref=true"},
      {"ssimulacra2", "ssimulacra2=matrix=bt601:range=full:transfer=bt709"},
      {"float_adm", "float_adm=debug=true"},
      {"float_vif", "float_vif=debug=true"},
      {"float_motion", "float_motion=debug=true:motion_add_scale1=true"},
      {"ssim", "ssim"},  // integer SSIM: no options, one output
      {"float_ansnr", "float_ansnr"},
      {"psnr_hvs", "psnr_hvs"},
      {"ciede", "ciede"},
  };
  return kSpecs;
}

std::string spec() { return specs().at(g_feature); }
// Temporal twins score two frames in each context.
unsigned frames() {
  return g_feature == "motion" || g_feature == "speed_temporal" || g_feature == "float_motion" ? 2
                                                                                               : 1;
}

Video small_video() {
  return make_video({640, 360, 8, ChromaFormat::k420}, Content::kNoise, frames(), 60, 11);
}
Video big_video() {
  return make_video({3840, 2160, 8, ChromaFormat::k420}, Content::kSmooth, frames(), 3, 12);
}

RunOptions options(Backend b) {
  RunOptions o;
  o.backend = b;
  o.features = {spec()};
  return o;
}

std::unique_ptr<Context> open_and_score(const Video& v) {
  ContextSettings s;
  s.backend = gpu_backend();
  auto ctx = Context::create(s);
  EXPECT_TRUE(ctx.ok());
  EXPECT_TRUE((*ctx)->use_feature(spec()).ok());
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
  expect_twins_agree(*cpu, *gpu, g_feature + " 4K after a closed 640x360 context");
}

TEST(FirstFrame, WithASmallerContextStillOpen) {
  VQX_REQUIRE_GPU();
  const Video big = big_video();
  auto cpu = score(options(Backend::kCpu), big);
  ASSERT_TRUE(cpu.ok());
  auto small = open_and_score(small_video());
  auto gpu = score(options(gpu_backend()), big);
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, g_feature + " 4K with a 640x360 context open");
  small.reset();
}

}  // namespace
}  // namespace vqx::gputest

// vqx_gpu_first_frame [gtest flags] TWIN: TWIN is a feature with a GPU twin.
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  using vqx::gputest::specs;
  if (argc != 2 || specs().count(argv[1]) == 0) {
    std::string known;
    for (const auto& [name, spec] : specs()) known += " " + name;
    std::fprintf(stderr, "usage: %s [gtest flags] TWIN, TWIN one of:%s\n", argv[0], known.c_str());
    return 2;
  }
  vqx::gputest::g_feature = argv[1];
  return RUN_ALL_TESTS();
}

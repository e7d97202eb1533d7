// (c) Many contexts: ten contexts of mixed sizes and depths used at once
// from ten threads on one device (the integer twins, integer SSIM, and the float VMAF,
// SSIM, SpEED and CAMBI twins where the pictures take them), each equal to the CPU; and many short
// videos, one after another, each in its own context (a context is one
// video; its device memory goes back when it closes and the next one reuses
// it), each equal to the CPU.
#include <thread>

#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

struct Job {
  PictureFormat fmt;
  Content content;
  Video video;
  Expected<Run> cpu = Error(Errc::kInternal, "not run");
  Expected<Run> gpu = Error(Errc::kInternal, "not run");
};

// The integer twins through the models and with their debug outputs, and
// the float VMAF, SSIM, SpEED, CAMBI, SSIMULACRA2, ANSNR, PSNR-HVS and
// CIEDE2000 twins where the pictures take them (twin_models() has
// vmaf_float_v0.6.1).
RunOptions options(Backend b, const PictureFormat& fmt) {
  RunOptions o;
  o.backend = b;
  o.models = twin_models();
  o.features = {"vif=debug=true", "adm=debug=true", "motion=debug=true"};
  for (const char* f :
       {"float_adm=debug=true", "float_vif=debug=true",
        "float_motion=debug=true:motion_add_scale1=true", "float_ssim=enable_lcs=true",
        "float_ms_ssim=enable_lcs=true",
        "speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear:speed_weight_var_mode=5",
        "speed_temporal=speed_use_ref_diff=true", "cambi=full_ref=true",
        "ssimulacra2=transfer=linear", "ssim", "float_ansnr", "psnr_hvs", "ciede"}) {
    if (fits(f, fmt)) o.features.emplace_back(f);
  }
  return o;
}

TEST(ManyContexts, TenConcurrentContextsOfMixedSizes) {
  VQX_REQUIRE_GPU();
  const std::vector<std::pair<PictureFormat, Content>> configs = {
      {{176, 144, 8, ChromaFormat::k420}, Content::kSmooth},
      {{3840, 2160, 8, ChromaFormat::k420}, Content::kSmooth},
      {{640, 360, 10, ChromaFormat::k420}, Content::kNoise},
      {{1920, 1080, 8, ChromaFormat::k420}, Content::kSmooth},
      {{33, 35, 12, ChromaFormat::k444}, Content::kChecker},
      {{1280, 720, 10, ChromaFormat::k420}, Content::kSmooth},
      {{577, 323, 8, ChromaFormat::k422}, Content::kRamp},
      {{2560, 1440, 12, ChromaFormat::k420}, Content::kSmooth},
      {{720, 480, 16, ChromaFormat::k400}, Content::kNoise},
      {{64, 64, 8, ChromaFormat::k420}, Content::kMax},
  };
  std::vector<Job> jobs(configs.size());
  for (std::size_t k = 0; k < jobs.size(); ++k) {
    jobs[k].fmt = configs[k].first;
    jobs[k].video =
        make_video(configs[k].first, configs[k].second, 3, 9, 100 + static_cast<std::uint32_t>(k));
    jobs[k].cpu = score(options(Backend::kCpu, jobs[k].fmt), jobs[k].video);
  }
  std::vector<std::thread> threads;
  for (auto& j : jobs) {
    threads.emplace_back([&j] { j.gpu = score(options(gpu_backend(), j.fmt), j.video); });
  }
  for (auto& t : threads) t.join();
  for (auto& j : jobs) {
    const std::string what = std::to_string(j.fmt.width) + "x" + std::to_string(j.fmt.height);
    ASSERT_TRUE(j.cpu.ok()) << what << ": " << j.cpu.status().message();
    ASSERT_TRUE(j.gpu.ok()) << what << ": " << j.gpu.status().message();
    expect_twins_agree(*j.cpu, *j.gpu, what + " (concurrent)");
  }
}

TEST(ManyContexts, ManyShortVideosOneAfterAnother) {
  VQX_REQUIRE_GPU();
  const std::vector<PictureFormat> sizes = {{1920, 1080, 8, ChromaFormat::k420},
                                            {352, 288, 10, ChromaFormat::k420},
                                            {3840, 2160, 8, ChromaFormat::k420},
                                            {177, 99, 8, ChromaFormat::k420},
                                            {1280, 720, 12, ChromaFormat::k420}};
  for (unsigned k = 0; k < 25; ++k) {
    const PictureFormat& fmt = sizes[k % sizes.size()];
    const Video v = make_video(fmt, k % 2 == 0 ? Content::kSmooth : Content::kNoise, 2, 5, 300 + k);
    auto cpu = score(options(Backend::kCpu, fmt), v);
    auto gpu = score(options(gpu_backend(), fmt), v);
    ASSERT_TRUE(cpu.ok() && gpu.ok()) << k;
    expect_twins_agree(*cpu, *gpu, "short video " + std::to_string(k));
  }
}

}  // namespace
}  // namespace vqx::gputest

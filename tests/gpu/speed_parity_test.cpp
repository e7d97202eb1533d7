// (a) for speed_chroma and speed_temporal: every option of each
// (speed_feature_groups(): every weight_var_mode, the four prescale methods
// up and down, kernel scales, sigma_nn, nn_floor, max_val, use_ref_diff)
// on pictures of every depth from 8 to 16 bits, 4:0:0 to 4:4:4, odd sizes,
// the smallest each takes, flat, all-max, zero against max, noise; four
// frames (speed_temporal scores the differences of consecutive frames);
// bit-identical to the CPU twin (docs/gpu.md). With them the vmaf_v1.0.16
// models, whose scores must be equal to the bit (their cambi runs on the CPU
// in both runs until it has a twin). The corpus pairs and GpuParity's other
// cases include the twins too (parity_test.cpp, twin_features()).
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

using Case = ParityCase;

// Every vmaf_v1.0.16 and _hfr model (speed_chroma with their options, adm,
// motion; cambi on the CPU).
std::vector<std::string> v1016_models() {
  return {"version=vmaf_v1.0.16_3d0h:name=m3d0h",
          "version=vmaf_v1.0.16_3d0h_2160:name=m3d0h_2160",
          "version=vmaf_v1.0.16_5d0h:name=m5d0h",
          "version=vmaf_v1.0.16_1d5h_2160:name=m1d5h_2160",
          "version=vmaf_v1.0.16_hfr_3d0h:name=hfr3d0h",
          "version=vmaf_v1.0.16_hfr_3d0h_2160:name=hfr3d0h_2160",
          "version=vmaf_v1.0.16_hfr_5d0h:name=hfr5d0h",
          "version=vmaf_v1.0.16_hfr_1d5h_2160:name=hfr1d5h_2160"};
}

// Every SpEED variant that takes the pictures, in one context, on the CPU
// and on the GPU; with the models when `models` and the pictures take them.
void check_speed(const Video& v, const std::string& what, bool models) {
  const PictureFormat fmt = v.front().ref.format();
  RunOptions o;
  for (const auto& group : speed_feature_groups()) {
    for (const auto& spec : group) {
      if (fits(spec, fmt)) o.features.push_back(spec);
    }
  }
  ASSERT_FALSE(o.features.empty()) << what << ": no SpEED variant takes these pictures";
  // The models' most demanding requests: 3d0h_2160's prescale, and cambi
  // with the models' options.
  if (models && fits("speed_chroma=speed_prescale=0.5:speed_prescale_method=bilinear", fmt) &&
      fits("cambi=cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17.0",
           fmt)) {
    o.models = v1016_models();
  }
  o.threads = 4;
  auto cpu = score(o, v);
  o.backend = gpu_backend();
  auto gpu = score(o, v);
  ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, what);
}

TEST(GpuParity, SpeedTwinsAtEveryDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  using C = Content;
  const std::vector<Case> cases = {
      {80, 80, 8, ChromaFormat::k444, C::kNoise, std::nullopt, 40},    // the smallest: one block
      {160, 161, 9, ChromaFormat::k420, C::kSmooth, std::nullopt, 5},  // chroma 80x80
      {161, 80, 10, ChromaFormat::k422, C::kNoise, std::nullopt, 20},
      {177, 145, 11, ChromaFormat::k444, C::kChecker, std::nullopt, 30},
      {333, 251, 12, ChromaFormat::k420, C::kRamp, std::nullopt, 6},
      {641, 359, 13, ChromaFormat::k400, C::kSmooth, std::nullopt, 9},  // neutral chroma
      {720, 481, 14, ChromaFormat::k422, C::kSmooth, std::nullopt, 4},
      {1001, 563, 15, ChromaFormat::k420, C::kNoise, std::nullopt, 100},
      {1283, 719, 16, ChromaFormat::k420, C::kSmooth, std::nullopt, 3},
      {320, 240, 8, ChromaFormat::k420, C::kFlat, C::kFlat, 0},  // singular everywhere
      {320, 240, 16, ChromaFormat::k420, C::kMax, C::kMax, 0},
      {321, 241, 8, ChromaFormat::k444, C::kZero, C::kMax, 0},
      {321, 241, 10, ChromaFormat::k420, C::kMax, C::kZero, 0},
      {400, 300, 12, ChromaFormat::k420, C::kFlat, C::kNoise, 0},  // one side singular: 0
      {1920, 1080, 8, ChromaFormat::k420, C::kSmooth, std::nullopt, 5},
      {3840, 2160, 10, ChromaFormat::k420, C::kSmooth, std::nullopt, 7},
  };
  std::uint32_t seed = 900;
  for (const Case& c : cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    const Video v = make_video(fmt, c.ref, 4, c.amplitude, seed++, c.dist);
    check_speed(v, describe(fmt, "content " + std::to_string(static_cast<int>(c.ref))), true);
  }
}

// Pictures too small for a SpEED twin are refused by it exactly as by the
// CPU (the same message), with and without a prescale.
TEST(GpuParity, SpeedTwinsRefuseWhatTheCpuRefuses) {
  VQX_REQUIRE_GPU();
  const std::vector<std::pair<const char*, PictureFormat>> cases = {
      {"speed_temporal", {79, 200, 8, ChromaFormat::k420}},
      {"speed_temporal=speed_prescale=0.5", {150, 300, 10, ChromaFormat::k420}},
      {"speed_chroma", {159, 400, 8, ChromaFormat::k420}},  // chroma 79 wide
      {"speed_chroma", {200, 79, 8, ChromaFormat::k444}},
      {"speed_chroma=speed_prescale=0.6:speed_prescale_method=bilinear",
       {260, 260, 12, ChromaFormat::k420}},
  };
  for (const auto& [feature, fmt] : cases) {
    const Video v = make_video(fmt, Content::kNoise, 2, 5, 3);
    RunOptions o;
    o.features = {feature};
    expect_same_refusal(o, v, feature);
  }
}

// A context reused frame after frame across scene cuts: speed_temporal's
// kept frame is always the one before (frames of different content in
// turn), at two sizes and depths.
TEST(GpuParity, SpeedTemporalAcrossCuts) {
  VQX_REQUIRE_GPU();
  for (const PictureFormat& fmt : {PictureFormat{640, 360, 8, ChromaFormat::k420},
                                   PictureFormat{1280, 720, 12, ChromaFormat::k420}}) {
    Video v;
    const Content contents[] = {Content::kSmooth, Content::kNoise,  Content::kRamp,
                                Content::kFlat,   Content::kSmooth, Content::kChecker};
    std::uint32_t seed = 40;
    for (const Content c : contents) {
      Video part = make_video(fmt, c, 2, 8, seed++);
      for (auto& f : part) v.push_back(std::move(f));
    }
    check_speed(v, describe(fmt, "cuts"), false);
  }
}

}  // namespace
}  // namespace vqx::gputest

// (a) for ssimulacra2: every option (the 24 matrix, range and transfer
// variants in one context) on pictures of every depth from 8 to 16 bits,
// 4:0:0 to 4:4:4, the smallest (8x8) and odd sizes, sizes whose blur rows
// end their blocks inside and across the kernels' staging steps, 1080p and
// 4K, flat and equal, all-max, zero against max, max against zero, noise
// against flat, checkerboards and ramps; bit-identical to the CPU twin
// (docs/gpu.md). The corpus pairs and GpuParity's other cases include
// ssimulacra2 and one variant too (twin_features(), parity_test.cpp).
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

struct Case {
  unsigned w, h, bpc;
  ChromaFormat chroma;
  Content ref;
  std::optional<Content> dist;  // else ref + noise of `amplitude`
  unsigned amplitude;
  bool every_option;  // the 24 variants, else the default and one variant
};

void check(const Video& v, bool every_option, const std::string& what) {
  RunOptions o;
  o.features = every_option ? ssimulacra2_variants()
                            : std::vector<std::string>{"ssimulacra2",
                                                       "ssimulacra2=matrix=bt601:transfer=bt709"};
  o.threads = 8;
  auto cpu = score(o, v);
  o.backend = gpu_backend();
  auto gpu = score(o, v);
  ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
  EXPECT_EQ(cpu->values.size(), o.features.size()) << what;
  expect_twins_agree(*cpu, *gpu, what);
}

TEST(GpuParity, Ssimulacra2AtEveryOptionDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  using C = Content;
  const ChromaFormat k420 = ChromaFormat::k420;
  const std::vector<Case> cases = {
      {8, 8, 8, k420, C::kNoise, C::kNoise, 0, true},  // the smallest: two scales
      {9, 17, 9, ChromaFormat::k444, C::kSmooth, std::nullopt, 3, true},
      {35, 19, 10, k420, C::kSmooth, std::nullopt, 6, true},  // blur singles across a step
      {70, 41, 11, ChromaFormat::k422, C::kNoise, std::nullopt, 40, true},
      {255, 129, 12, ChromaFormat::k400, C::kRamp, std::nullopt, 5, true},
      {257, 131, 13, k420, C::kChecker, std::nullopt, 30, true},
      {641, 361, 14, ChromaFormat::k444, C::kSmooth, std::nullopt, 9, true},
      {333, 97, 15, ChromaFormat::k422, C::kNoise, std::nullopt, 100, true},
      {176, 144, 16, k420, C::kSmooth, std::nullopt, 4, true},
      {320, 240, 8, k420, C::kFlat, C::kFlat, 0, true},  // equal pictures: 100
      {320, 240, 16, ChromaFormat::k444, C::kMax, C::kMax, 0, true},
      {321, 241, 8, ChromaFormat::k400, C::kZero, C::kMax, 0, true},
      {321, 241, 10, k420, C::kMax, C::kZero, 0, true},
      {300, 300, 12, k420, C::kFlat, C::kNoise, 0, true},
      {1920, 1080, 8, k420, C::kSmooth, std::nullopt, 5, false},
      {3840, 2160, 10, k420, C::kSmooth, std::nullopt, 7, false},
  };
  std::uint32_t seed = 700;
  for (const Case& c : cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    const Video v = make_video(fmt, c.ref, 2, c.amplitude, seed++, c.dist);
    check(v, c.every_option, describe(fmt, "content " + std::to_string(static_cast<int>(c.ref))));
  }
}

// Pictures under 8x8 are refused by the twin exactly as by the CPU.
TEST(GpuParity, Ssimulacra2TooSmallPicturesGiveTheCpuError) {
  VQX_REQUIRE_GPU();
  for (const PictureFormat& fmt :
       {PictureFormat{7, 8, 8, ChromaFormat::k420}, PictureFormat{64, 7, 10, ChromaFormat::k444}}) {
    const Video v = make_video(fmt, Content::kNoise, 2, 5, 3);
    RunOptions o;
    o.features = {"ssimulacra2"};
    expect_same_refusal(o, v, describe(fmt, "ssimulacra2"));
  }
}

}  // namespace
}  // namespace vqx::gputest

// (a) for integer SSIM ("ssim"): pictures of every depth from 8 to 16 bits
// (the reference's own arithmetic up to 12, the 64-bit products above, the
// peak squared at 16), 4:0:0 to 4:4:4, sizes from 1x1 (a window of one
// sample) through sizes below, about and above the 9x9 window and the
// kernels' 32x4 blocks to 4K, flat, all-max, zero against max, max against
// zero, checkerboards, ramps and noise; bit-identical to the CPU twin
// (docs/gpu.md, "The integer SSIM twin"). The corpus pairs, GpuParity's
// other cases, the first-frame, many-contexts and determinism tests include
// it too (twin_features()).
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

struct Case {
  unsigned w, h, bpc;
  ChromaFormat chroma;
  Content ref;
  std::optional<Content> dist;  // else ref + noise of `amplitude`
  unsigned amplitude;
};

std::string describe(const Case& c) {
  return "ssim " + std::to_string(c.w) + "x" + std::to_string(c.h) + " " + std::to_string(c.bpc) +
         "-bit content " + std::to_string(static_cast<int>(c.ref)) + "/" +
         (c.dist ? std::to_string(static_cast<int>(*c.dist))
                 : "noise" + std::to_string(c.amplitude));
}

void check(const Case& c, std::uint32_t seed) {
  const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
  const Video v = make_video(fmt, c.ref, 2, c.amplitude, seed, c.dist);
  RunOptions o;
  o.features = {"ssim"};
  o.threads = 4;
  auto cpu = score(o, v);
  o.backend = gpu_backend();
  auto gpu = score(o, v);
  ASSERT_TRUE(cpu.ok()) << describe(c) << ": " << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << describe(c) << ": " << gpu.status().message();
  ASSERT_EQ(cpu->values.count("ssim"), 1U) << describe(c);
  expect_twins_agree(*cpu, *gpu, describe(c));
}

TEST(GpuParity, IntegerSsimAtEveryDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  using C = Content;
  const ChromaFormat k400 = ChromaFormat::k400;
  const ChromaFormat k420 = ChromaFormat::k420;
  const ChromaFormat k422 = ChromaFormat::k422;
  const ChromaFormat k444 = ChromaFormat::k444;
  // Every depth, each on sizes cut by the window on every side.
  const std::pair<unsigned, unsigned> small[] = {{1, 1}, {3, 1}, {1, 9}, {9, 9}, {33, 35}};
  std::uint32_t seed = 70;
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    for (const auto& [w, h] : small) {
      check({w, h, bpc, k420, C::kNoise, std::nullopt, 40}, seed++);
    }
    check({177, 145, bpc, k422, C::kSmooth, std::nullopt, 6}, seed++);
    check({641, 359, bpc, bpc % 2 == 0 ? k444 : k400, C::kNoise, C::kNoise, 0}, seed++);
  }
  const std::vector<Case> cases = {
      {320, 240, 8, k420, C::kFlat, C::kFlat, 0},
      {320, 240, 12, k420, C::kMax, C::kMax, 0},
      {320, 240, 16, k420, C::kMax, C::kMax, 0},
      {321, 241, 8, k420, C::kZero, C::kMax, 0},
      {321, 241, 16, k420, C::kMax, C::kZero, 0},
      {200, 100, 13, k420, C::kChecker, C::kFlat, 0},
      {200, 100, 16, k400, C::kRamp, std::nullopt, 300},
      {1280, 720, 16, k420, C::kSmooth, std::nullopt, 4},
      {1920, 1080, 10, k420, C::kSmooth, std::nullopt, 5},
      {3840, 2160, 8, k420, C::kSmooth, std::nullopt, 7},
  };
  for (const Case& c : cases) check(c, seed++);
}

}  // namespace
}  // namespace vqx::gputest

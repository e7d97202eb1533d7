// (a) for float_ssim and float_ms_ssim: every option and output
// (ssim_feature_groups(): enable_lcs, enable_db, clip_db, the automatic
// scale and scales 1, 2, 3 and 10) on pictures of every depth from 8 to 16
// bits, 4:0:0 to 4:4:4, odd sizes, the smallest each takes, both sides of
// the automatic scale's steps, flat, all-max, zero against max, noise, and
// a single differing sample; bit-identical to the CPU twin (docs/gpu.md).
// The corpus pairs and GpuParity's other cases include them too (parity_test.cpp).
#include <cstdint>
#include <type_traits>

#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

using Case = ParityCase;

// Every group of SSIM variants that takes the pictures, each in a context
// of its own, on the CPU and on the GPU.
void check_ssim(const Video& v, const std::string& what) {
  const PictureFormat fmt = v.front().ref.format();
  unsigned runs = 0;
  for (const auto& group : ssim_feature_groups()) {
    RunOptions o;
    for (const auto& spec : group) {
      if (fits(spec, fmt)) o.features.push_back(spec);
    }
    if (o.features.empty()) continue;
    o.threads = 4;
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
    ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, what + ", " + o.features.front());
    ++runs;
  }
  EXPECT_GT(runs, 0U) << what << ": no SSIM variant takes these pictures";
}

TEST(GpuParity, SsimTwinsAtEveryDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  using C = Content;
  const std::vector<Case> cases = {
      {11, 11, 8, ChromaFormat::k420, C::kNoise, C::kNoise, 0},  // one window position
      {12, 13, 9, ChromaFormat::k444, C::kSmooth, std::nullopt, 3},
      {176, 176, 10, ChromaFormat::k420, C::kSmooth, std::nullopt, 6},  // MS-SSIM's smallest
      {177, 179, 11, ChromaFormat::k422, C::kNoise, std::nullopt, 40},
      {383, 385, 12, ChromaFormat::k400, C::kRamp, std::nullopt, 5},      // automatic scale 1
      {384, 386, 13, ChromaFormat::k420, C::kChecker, std::nullopt, 30},  // ... and 2
      {641, 361, 14, ChromaFormat::k444, C::kSmooth, std::nullopt, 9},
      {1000, 701, 15, ChromaFormat::k420, C::kNoise, std::nullopt, 100},  // 3
      {1283, 719, 16, ChromaFormat::k420, C::kSmooth, std::nullopt, 4},
      {320, 240, 8, ChromaFormat::k420, C::kFlat, C::kFlat, 0},  // equal pictures: exactly 1
      {320, 240, 16, ChromaFormat::k420, C::kMax, C::kMax, 0},
      {321, 241, 8, ChromaFormat::k400, C::kZero, C::kMax, 0},
      {321, 241, 10, ChromaFormat::k420, C::kMax, C::kZero, 0},
      {300, 300, 12, ChromaFormat::k420, C::kFlat, C::kNoise, 0},
      {1920, 1080, 8, ChromaFormat::k420, C::kSmooth, std::nullopt, 5},   // 4
      {3840, 2160, 10, ChromaFormat::k420, C::kSmooth, std::nullopt, 7},  // 8
  };
  std::uint32_t seed = 500;
  for (const Case& c : cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    const Video v = make_video(fmt, c.ref, 2, c.amplitude, seed++, c.dist);
    check_ssim(v, describe(fmt, "content " + std::to_string(static_cast<int>(c.ref))));
  }
}

// One sample differs (frame 0: the first; frame 1: the last): the
// comparison finds it, and both twins compute the window (values just
// below 1) rather than writing 1.
TEST(GpuParity, SsimTwinsWithOneDifferingSample) {
  VQX_REQUIRE_GPU();
  for (unsigned bpc : {8U, 10U}) {
    const PictureFormat fmt{400, 300, bpc, ChromaFormat::k420};
    Video v = make_video(fmt, Content::kSmooth, 2, 0, 77);
    Plane& first = v[0].dist.plane(0);
    Plane& last = v[1].dist.plane(0);
    auto flip = [](auto& sample) {
      sample = static_cast<std::remove_reference_t<decltype(sample)>>(sample ^ 1U);
    };
    if (bpc == 8) {
      flip(first.row<std::uint8_t>(0)[0]);
      flip(last.row<std::uint8_t>(fmt.height - 1)[fmt.width - 1]);
    } else {
      flip(first.row<std::uint16_t>(0)[0]);
      flip(last.row<std::uint16_t>(fmt.height - 1)[fmt.width - 1]);
    }
    check_ssim(v, describe(fmt, "one differing sample"));
  }
}

}  // namespace
}  // namespace vqx::gputest

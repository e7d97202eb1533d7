// (a) for float_ansnr, psnr_hvs and ciede (the twins of issue 14's second
// part; none has options): pictures of every depth each family takes
// (float_ansnr and ciede 8 to 16 bits, psnr_hvs 8 to 12), 4:0:0 (neutral
// chroma) to 4:4:4, odd sizes, the smallest each takes, 1080p and 4K (long
// chains of additions: docs/gpu.md, "Chains of additions"), flat, all-max,
// zero against max, max against zero, noise, checkerboards, ramps, smooth
// content lightly and heavily distorted; three frames; bit-identical to the
// CPU twin (docs/gpu.md). The corpus pairs and GpuParity's other cases
// include the twins too (parity_test.cpp, twin_features()).
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

std::string describe(const PictureFormat& f, const std::string& content) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) +
         "-bit chroma " + std::to_string(static_cast<int>(f.chroma)) + " " + content;
}

// The features of the colour twins' families that take the pictures.
std::vector<std::string> colour_features() { return {"float_ansnr", "psnr_hvs", "ciede"}; }

void check_colour(const Video& v, const std::string& what) {
  const PictureFormat fmt = v.front().ref.format();
  RunOptions o;
  for (const auto& spec : colour_features()) {
    if (fits(spec, fmt)) o.features.push_back(spec);
  }
  ASSERT_FALSE(o.features.empty()) << what << ": no feature takes these pictures";
  o.threads = 4;
  auto cpu = score(o, v);
  o.backend = gpu_backend();
  auto gpu = score(o, v);
  ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, what);
}

TEST(GpuParity, ColourTwinsAtEveryDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  using C = Content;
  using F = ChromaFormat;
  const std::vector<Case> cases = {
      {3, 3, 8, F::k444, C::kNoise, std::nullopt, 40},    // float_ansnr's smallest
      {8, 8, 10, F::k444, C::kNoise, std::nullopt, 20},   // one psnr_hvs block a plane
      {16, 16, 8, F::k420, C::kSmooth, std::nullopt, 5},  // chroma 8x8
      {17, 9, 9, F::k422, C::kNoise, std::nullopt, 30},
      {33, 35, 11, F::k444, C::kChecker, std::nullopt, 30},
      {177, 145, 12, F::k420, C::kRamp, std::nullopt, 6},
      {333, 251, 13, F::k400, C::kSmooth, std::nullopt, 9},  // neutral chroma
      {641, 359, 14, F::k422, C::kSmooth, std::nullopt, 4},
      {1001, 563, 15, F::k420, C::kNoise, std::nullopt, 100},
      {720, 480, 16, F::k444, C::kSmooth, std::nullopt, 3},
      {1920, 1080, 8, F::k420, C::kSmooth, std::nullopt, 2},
      {1920, 1080, 10, F::k420, C::kSmooth, std::nullopt, 60},  // heavily distorted
      {3840, 2160, 8, F::k420, C::kSmooth, std::nullopt, 3},
      {3840, 2160, 12, F::k444, C::kNoise, std::nullopt, 200},
      {640, 360, 8, F::k420, C::kFlat, std::nullopt, 0},  // equal pictures
      {640, 360, 10, F::k420, C::kMax, std::nullopt, 0},
      {640, 360, 8, F::k444, C::kZero, C::kMax, 0},
      {640, 360, 12, F::k422, C::kMax, C::kZero, 0},
      {641, 361, 9, F::k420, C::kFlat, C::kNoise, 0},
      {400, 300, 16, F::k420, C::kRamp, C::kChecker, 0},
  };
  std::uint32_t seed = 400;
  for (const Case& c : cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    const Video v = make_video(fmt, c.ref, 3, c.amplitude, ++seed, c.dist);
    check_colour(v, describe(fmt, "content " + std::to_string(static_cast<int>(c.ref))));
  }
}

// One sample differs (the first, then the last): the smallest difference
// each twin sees, in one of many otherwise equal terms.
TEST(GpuParity, ColourTwinsWithOneDifferingSample) {
  VQX_REQUIRE_GPU();
  for (const unsigned bpc : {8U, 10U}) {
    const PictureFormat fmt{352, 288, bpc, ChromaFormat::k420};
    for (const bool last : {false, true}) {
      Video v = make_video(fmt, Content::kSmooth, 1, 0, 77);
      v[0].dist = clone(v[0].ref);
      Plane& p = v[0].dist.plane(0);
      const unsigned x = last ? fmt.width - 1 : 0;
      const unsigned y = last ? fmt.height - 1 : 0;
      const std::uint32_t s = p.at(x, y);
      if (bpc == 8) {
        p.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(s == 0 ? 1 : s - 1);
      } else {
        p.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(s == 0 ? 1 : s - 1);
      }
      check_colour(v, describe(fmt, last ? "last sample differs" : "first sample differs"));
    }
  }
}

}  // namespace
}  // namespace vqx::gputest

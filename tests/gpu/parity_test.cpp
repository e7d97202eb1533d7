// (a) Parity: every GPU twin against its CPU twin, on the public corpus
// pairs present (VQX_GPU_CORPUS_DIR, else tests/data/corpus_subset) and on
// random and adversarial pictures: flat, all-max, all-zero against all-max,
// noise, checkerboards, ramps; odd widths and heights; 8, 10, 12 and 16 bit.
#include <cstdlib>
#include <filesystem>

#include "gpu_test_util.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::gputest {
namespace {

namespace fs = std::filesystem;

void check_video(const Video& v, const std::string& what) {
  const PictureFormat fmt = v.front().ref.format();
  const std::vector<RunOptions> cpu_runs = twin_runs(Backend::kCpu, 8, fmt);
  const std::vector<RunOptions> gpu_runs = twin_runs(gpu_backend(), 8, fmt);
  for (std::size_t i = 0; i < cpu_runs.size(); ++i) {
    auto cpu = score(cpu_runs[i], v);
    auto gpu = score(gpu_runs[i], v);
    ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
    ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, what);
  }
}

using Case = ParityCase;

std::string describe(const Case& c) {
  return std::to_string(c.w) + "x" + std::to_string(c.h) + " " + std::to_string(c.bpc) +
         "-bit content " + std::to_string(static_cast<int>(c.ref)) + "/" +
         (c.dist ? std::to_string(static_cast<int>(*c.dist))
                 : "noise" + std::to_string(c.amplitude));
}

TEST(GpuParity, RandomAndAdversarialPictures) {
  VQX_REQUIRE_GPU();
  using C = Content;
  const ChromaFormat k420 = ChromaFormat::k420;
  const std::vector<Case> cases = {
      {33, 33, 8, k420, C::kNoise, std::nullopt, 40},  // ADM's smallest picture
      {35, 37, 10, k420, C::kSmooth, std::nullopt, 8},
      {64, 48, 12, ChromaFormat::k444, C::kChecker, std::nullopt, 30},
      {176, 144, 8, k420, C::kSmooth, std::nullopt, 6},
      {177, 145, 10, ChromaFormat::k422, C::kRamp, std::nullopt, 3},
      {641, 359, 8, k420, C::kNoise, C::kNoise, 0},
      {641, 359, 12, ChromaFormat::k400, C::kSmooth, std::nullopt, 12},
      {320, 240, 8, k420, C::kFlat, C::kFlat, 0},
      {320, 240, 10, k420, C::kMax, C::kMax, 0},
      {320, 240, 8, k420, C::kZero, C::kMax, 0},
      {321, 241, 12, k420, C::kMax, C::kZero, 0},
      {200, 100, 8, k420, C::kFlat, C::kNoise, 0},
      {199, 101, 16, k420, C::kNoise, std::nullopt, 200},
      {1280, 720, 16, k420, C::kSmooth, std::nullopt, 4},
      {1920, 1080, 10, k420, C::kSmooth, std::nullopt, 5},
      {3840, 2160, 8, k420, C::kSmooth, std::nullopt, 7},
  };
  std::uint32_t seed = 1;
  for (const Case& c : cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    check_video(make_video(fmt, c.ref, 3, c.amplitude, seed++, c.dist), describe(c));
  }
}

// Pictures too small for a twin are refused by it exactly as by the CPU.
TEST(GpuParity, TooSmallPicturesGiveTheCpuError) {
  VQX_REQUIRE_GPU();
  const PictureFormat tiny{20, 2, 8, ChromaFormat::k420};
  // float_ssim subsampled by 3 to 59x3 (below its 11x11 window), and
  // float_ms_ssim under 176 samples a side.
  const PictureFormat wide{175, 9, 8, ChromaFormat::k420};
  const std::vector<std::pair<const char*, PictureFormat>> cases = {
      {"adm", tiny},  // adm needs 33x33, vif 16x16, motion 3x3, float_ssim 11x11
      {"vif", tiny},
      {"motion", tiny},
      {"float_ssim", tiny},
      {"float_ssim=scale=3", wide},
      {"float_ms_ssim", wide},
      {"float_ms_ssim", {176, 175, 10, ChromaFormat::k420}},
      // cambi needs 216 samples on one side, and its window at scale 4.
      {"cambi", {215, 200, 8, ChromaFormat::k420}},
      {"cambi=full_ref=true:src_width=320:src_height=200", {300, 216, 10, ChromaFormat::k420}},
      // float_adm needs 17x17, float_vif its filters' reach at every scale
      // (and, prescaling, the method's), float_motion its blur's on every
      // plane it reads (and, with motion_add_scale1, libvmaf's width limit).
      {"float_adm", tiny},
      {"float_vif", tiny},
      {"float_vif", {40, 15, 10, ChromaFormat::k420}},
      {"float_vif=vif_prescale=0.5:vif_prescale_method=lanczos4", {5, 40, 8, ChromaFormat::k420}},
      {"float_vif=vif_prescale=4.0:vif_prescale_method=bilinear",
       {1930, 20, 8, ChromaFormat::k420}},
      {"float_motion", tiny},
      {"float_motion=motion_add_uv=true", {5, 20, 8, ChromaFormat::k420}},
  };
  for (const auto& [feature, fmt] : cases) {
    const Video v = make_video(fmt, Content::kNoise, 2, 5, 3);
    RunOptions o;
    o.features = {feature};
    expect_same_refusal(o, v, feature);
  }
}

Video read_pair(const fs::path& ref, const fs::path& dist, unsigned max_frames) {
  Video v;
  auto r = open_video(ref.string(), std::nullopt);
  auto d = open_video(dist.string(), std::nullopt);
  if (!r.ok() || !d.ok()) return v;
  for (unsigned i = 0; i < max_frames; ++i) {
    auto rp = Picture::make((*r)->format());
    auto dp = Picture::make((*d)->format());
    if (!rp.ok() || !dp.ok()) break;
    auto gr = (*r)->read(*rp);
    auto gd = (*d)->read(*dp);
    if (!gr.ok() || !gd.ok() || !*gr || !*gd) break;
    v.push_back({std::move(*rp), std::move(*dp)});
  }
  return v;
}

TEST(GpuParity, CorpusPairs) {
  VQX_REQUIRE_GPU();
  const char* env = std::getenv("VQX_GPU_CORPUS_DIR");
  const fs::path dir =
      env != nullptr ? fs::path(env) : fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
  const char* frames_env = std::getenv("VQX_GPU_CORPUS_FRAMES");
  const unsigned frames = frames_env != nullptr ? static_cast<unsigned>(std::atoi(frames_env)) : 3;
  unsigned pairs = 0;
  for (const auto& [ref, dist] : corpus_pairs(dir)) {
    const std::string name = dist.filename().string();
    const Video v = read_pair(ref, dist, frames);
    ASSERT_GE(v.size(), 2U) << name;
    check_video(v, name);
    ++pairs;
  }
  std::printf("corpus pairs compared: %u (from %s, %u frames each)\n", pairs, dir.c_str(), frames);
  EXPECT_GT(pairs, 0U);
}

}  // namespace
}  // namespace vqx::gputest

// (a) for cambi: every option group (full_ref; num_diffs 1 to 32; topk
// small and 1; tvi threshold, PQ, the visible-luminance threshold; encoding
// and source sizes, i.e. resampling; the encoding depth; the widest
// window; the high-resolution speed-up; the vmaf_v1.0.16 models' options)
// on pictures of every depth from 8 to 16 bits, 4:0:0 to 4:4:4, odd sizes,
// gradients that band, flat, all-max, all-zero, noise, wide steps; the
// pooling path in libvmaf's order (values summing to 2^29 and more); the
// heatmap files; the range check's message. Bit-identical to the CPU twin
// (docs/gpu.md). The corpus pairs, GpuParity's other cases, the first frame,
// many contexts and determinism include cambi too (twin_features()).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

namespace fs = std::filesystem;

// The CAMBI requests scored together in one context (no two write one
// name with different values), for pictures of `fmt`.
std::vector<std::vector<std::string>> cambi_groups(const PictureFormat& fmt) {
  const auto dim = [](unsigned v) { return std::to_string(v); };
  std::vector<std::vector<std::string>> groups = {
      {"cambi=full_ref=true", "cambi=max_log_contrast=0:topk=0.0001",
       "cambi=max_log_contrast=5:window_size=127", "cambi=max_log_contrast=4:cambi_topk=1.0",
       "cambi=tvi_threshold=0.1:eotf=pq:cambi_vis_lum_threshold=5",
       "cambi=enc_bitdepth=8:cambi_max_val=5", "cambi=max_log_contrast=1:window_size=31"},
      // The vmaf_v1.0.16 models' request, and the speed-up alone.
      {"cambi=cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17",
       "cambi=cambi_high_res_speedup=1440:full_ref=true"},
  };
  // Resampled: an encoding size of three quarters (odd steps), and a
  // source size of two thirds, within the options' bounds.
  const unsigned ew = fmt.width * 3 / 4;
  const unsigned eh = fmt.height * 3 / 4;
  const unsigned sw = fmt.width * 2 / 3;
  const unsigned sh = fmt.height * 2 / 3;
  if (ew >= 180 && eh >= 150) {
    std::string both = "cambi=enc_width=" + dim(ew) + ":enc_height=" + dim(eh);
    if (sw >= 320 && sh >= 200) {
      both += ":full_ref=true:src_width=" + dim(sw) + ":src_height=" + dim(sh);
    }
    groups.push_back({both});
  }
  for (auto& g : groups) {
    g.erase(std::remove_if(g.begin(), g.end(), [&](const std::string& s) { return !fits(s, fmt); }),
            g.end());
  }
  return groups;
}

void check_cambi(const Video& v, const std::string& what) {
  const PictureFormat fmt = v.front().ref.format();
  unsigned runs = 0;
  for (const auto& group : cambi_groups(fmt)) {
    if (group.empty()) continue;
    RunOptions o;
    o.features = group;
    o.threads = 4;
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_TRUE(cpu.ok()) << what << ": " << cpu.status().message();
    ASSERT_TRUE(gpu.ok()) << what << ": " << gpu.status().message();
    expect_twins_agree(*cpu, *gpu, what + ", " + group.front());
    ++runs;
  }
  EXPECT_GT(runs, 0U) << what << ": no cambi variant takes these pictures";
}

// Diagonal gradients quantised to the depth (the bands CAMBI looks for),
// flat patches and some noise, moving with the frame.
Picture banded(const PictureFormat& fmt, unsigned frame, unsigned seed) {
  Picture p = make_picture(fmt, Content::kFlat, frame, seed);
  std::mt19937 rng(seed * 131 + frame);
  const double unit = static_cast<double>(1U << (fmt.bpc - 8));
  const double max = static_cast<double>((1U << fmt.bpc) - 1);
  Plane& luma = p.plane(0);
  for (unsigned y = 0; y < luma.height(); ++y) {
    for (unsigned x = 0; x < luma.width(); ++x) {
      double level = 50 + 40 *
                              (static_cast<double>(x + 3 * frame) / fmt.width +
                               static_cast<double>(y) / fmt.height) /
                              2;
      if ((x / 23 + y / 17) % 4 == 0) level += static_cast<double>(rng() % 5) - 2;
      if ((x / 40 + y / 30) % 5 == 1) level = 63;
      const auto v = static_cast<std::uint32_t>(std::clamp(std::round(level * unit), 0.0, max));
      if (fmt.bpc == 8) {
        luma.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
      } else {
        luma.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
      }
    }
  }
  return p;
}

Video banded_video(const PictureFormat& fmt, unsigned frames, unsigned seed) {
  Video v;
  for (unsigned i = 0; i < frames; ++i) {
    FramePair f;
    f.ref = banded(fmt, i, seed);
    f.dist = distort(f.ref, 1U << (fmt.bpc - 8), seed * 7 + i);
    v.push_back(std::move(f));
  }
  return v;
}

std::string describe(const PictureFormat& f, const std::string& content) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) +
         "-bit " + content;
}

TEST(GpuParity, CambiTwinsAtEveryDepthSizeAndContent) {
  VQX_REQUIRE_GPU();
  struct Case {
    unsigned w, h, bpc;
    ChromaFormat chroma;
  };
  const std::vector<Case> banded_cases = {
      {216, 216, 8, ChromaFormat::k420},    {217, 301, 9, ChromaFormat::k444},
      {641, 359, 10, ChromaFormat::k420},   {500, 219, 11, ChromaFormat::k422},
      {723, 411, 12, ChromaFormat::k400},   {1000, 701, 13, ChromaFormat::k420},
      {1283, 719, 14, ChromaFormat::k420},  {999, 555, 15, ChromaFormat::k444},
      {1280, 720, 16, ChromaFormat::k420},  {1920, 1080, 8, ChromaFormat::k420},
      {2560, 1440, 10, ChromaFormat::k420}, {3840, 2160, 10, ChromaFormat::k420},
  };
  unsigned seed = 700;
  for (const Case& c : banded_cases) {
    const PictureFormat fmt{c.w, c.h, c.bpc, c.chroma};
    check_cambi(banded_video(fmt, 2, seed++), describe(fmt, "banded"));
  }
  using C = Content;
  const std::vector<std::pair<PictureFormat, std::pair<C, std::optional<C>>>> others = {
      {{320, 240, 8, ChromaFormat::k420}, {C::kFlat, C::kFlat}},
      {{320, 240, 16, ChromaFormat::k420}, {C::kMax, C::kMax}},
      {{321, 241, 10, ChromaFormat::k420}, {C::kZero, C::kMax}},
      {{321, 241, 12, ChromaFormat::k420}, {C::kMax, C::kZero}},
      {{300, 300, 10, ChromaFormat::k420}, {C::kNoise, std::nullopt}},
      {{641, 359, 8, ChromaFormat::k420}, {C::kSmooth, std::nullopt}},
      {{400, 217, 10, ChromaFormat::k420}, {C::kRamp, std::nullopt}},
      {{400, 217, 8, ChromaFormat::k420}, {C::kChecker, std::nullopt}},
  };
  for (const auto& [fmt, content] : others) {
    const Video v = make_video(fmt, content.first, 2, 2, seed++, content.second);
    check_cambi(v, describe(fmt, "content " + std::to_string(static_cast<int>(content.first))));
  }
}

// Wide vertical stripes two levels apart, flat: nearly every pixel has a
// contrast value of about w * n^2 / (2 n) for a window of n pixels, so
// scales 0 to 2 sum past 2^29 and pool in libvmaf's order (ordered_kernel).
TEST(GpuParity, CambiPoolingInLibvmafsOrder) {
  VQX_REQUIRE_GPU();
  for (const PictureFormat& fmt : {PictureFormat{1920, 1080, 10, ChromaFormat::k420},
                                   PictureFormat{3840, 2160, 8, ChromaFormat::k420}}) {
    Video v;
    for (unsigned i = 0; i < 2; ++i) {
      FramePair f;
      f.ref = make_picture(fmt, Content::kFlat, i, 1);
      f.dist = make_picture(fmt, Content::kFlat, i, 1);
      for (Picture* p : {&f.ref, &f.dist}) {
        Plane& luma = p->plane(0);
        for (unsigned y = 0; y < luma.height(); ++y) {
          for (unsigned x = 0; x < luma.width(); ++x) {
            // 10-bit levels 200 and 202 (8-bit: 50 and 51, i.e. 200 and 204).
            const unsigned stripe = (x + 7 * i) / 32 % 2;
            if (fmt.bpc == 8) {
              luma.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(50 + stripe);
            } else {
              luma.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(200 + 2 * stripe);
            }
          }
        }
      }
      v.push_back(std::move(f));
    }
    RunOptions o;
    o.features = {"cambi=full_ref=true", "cambi=max_log_contrast=5:topk=1.0"};
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_TRUE(cpu.ok() && gpu.ok());
    expect_twins_agree(*cpu, *gpu, describe(fmt, "stripes"));
    std::printf("%s stripes: cambi %.17g\n", describe(fmt, "").c_str(), cpu->values.at("cambi")[0]);
  }
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// heatmaps_path: the GPU twin's files (written by the host from the
// device's values) equal the CPU twin's, byte for byte, over 3 frames.
TEST(GpuParity, CambiHeatmapFilesEqualTheCpuTwins) {
  VQX_REQUIRE_GPU();
  const fs::path root = fs::temp_directory_path() / "vqx_gpu_cambi_heatmaps";
  fs::remove_all(root);
  const PictureFormat fmt{641, 359, 10, ChromaFormat::k420};
  const Video v = banded_video(fmt, 3, 5);
  RunOptions o;
  o.features = {"cambi=full_ref=true:heatmaps_path=" + (root / "cpu").string()};
  auto cpu = score(o, v);
  o.backend = gpu_backend();
  o.features = {"cambi=full_ref=true:heatmaps_path=" + (root / "gpu").string()};
  auto gpu = score(o, v);
  ASSERT_TRUE(cpu.ok()) << cpu.status().message();
  ASSERT_TRUE(gpu.ok()) << gpu.status().message();
  expect_twins_agree(*cpu, *gpu, "heatmaps");
  unsigned files = 0;
  for (const auto& e : fs::directory_iterator(root / "cpu")) {
    const std::string c = file_bytes(e.path());
    EXPECT_FALSE(c.empty()) << e.path();
    EXPECT_EQ(c, file_bytes(root / "gpu" / e.path().filename())) << e.path().filename();
    ++files;
  }
  EXPECT_EQ(files, 5U);
  fs::remove_all(root);
}

// A sample above the depth: the GPU twin gives the CPU's error (the first
// row with one, its largest), for the distorted and for the reference.
TEST(GpuParity, CambiSamplesAboveTheDepthGiveTheCpuError) {
  VQX_REQUIRE_GPU();
  const PictureFormat fmt{400, 300, 10, ChromaFormat::k420};
  for (const bool in_dist : {true, false}) {
    Video v = banded_video(fmt, 2, 9);
    Picture& bad = in_dist ? v[1].dist : v[1].ref;
    bad.plane(0).row<std::uint16_t>(7)[11] = 1500;
    bad.plane(0).row<std::uint16_t>(9)[3] = 1900;
    RunOptions o;
    o.features = {"cambi=full_ref=true"};
    auto cpu = score(o, v);
    o.backend = gpu_backend();
    auto gpu = score(o, v);
    ASSERT_FALSE(cpu.ok());
    ASSERT_FALSE(gpu.ok());
    EXPECT_EQ(cpu.status().message(), gpu.status().message());
  }
}

}  // namespace
}  // namespace vqx::gputest

// ssimulacra2's GPU kernels (src/metrics/ssimulacra2/gpu_kernels.cuh), run
// here on the CPU without a device (gpu_on_host.hpp: each block's threads
// are threads of this process). The kernels' own source is compiled, so
// their indexing, borders, staging through shared memory, barriers and
// order of sums are the GPU twin's; only the arithmetic is the CPU's IEEE
// arithmetic instead of the device's (equal by the argument of docs/gpu.md).
// Their results must equal the CPU twin's (cpu.hpp's FrameKernel) bit for
// bit: every scale's norms and the score, through the twin's sequence of
// launches (gpu.cu) and host finish, for every depth, chroma format and
// option, odd sizes, the smallest picture, rows whose blur crosses the
// staging steps in each of its phases, and flat, all-max and extreme
// content. Kept small: the emulation runs a host thread per GPU thread.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_on_host.hpp"  // before the kernels: what nvcc and hipcc provide
#include "metrics/ssimulacra2/colour.hpp"
#include "metrics/ssimulacra2/cpu.hpp"
#include "metrics/ssimulacra2/gpu_kernels.cuh"
#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/recursion.hpp"
#include "metrics/ssimulacra2/score.hpp"
#include "metrics/ssimulacra2/xyb.hpp"
#include "test_util.hpp"

#undef __shared__

namespace vqx {
namespace {

using gpu_on_host::run_each;
using gpu_on_host::run_grid;
using namespace ssimulacra2;

// A picture's planes as the twin's kernels read them.
template <typename Sample>
YcbcrView<Sample> view_of(const Picture& p) {
  YcbcrView<Sample> v{};
  const ChromaFormat chroma = p.format().chroma;
  for (unsigned i = 0; i < p.plane_count(); ++i) {
    v.plane[i] = p.plane(i).row<std::uint8_t>(0);
    v.pitch[i] = p.plane(i).stride_bytes();
  }
  v.shift_x = chroma == ChromaFormat::k420 || chroma == ChromaFormat::k422 ? 1 : 0;
  v.shift_y = chroma == ChromaFormat::k420 ? 1 : 0;
  v.grey = chroma == ChromaFormat::k400;
  return v;
}

unsigned blocks(int n, unsigned per_block) { return ceil_div(static_cast<unsigned>(n), per_block); }

// What the twin computes for one frame: its buffers (on the host, filled
// with a value no kernel writes, so that a read of an unwritten sample
// shows), its launches in its order, its host finish.
struct GpuResult {
  std::vector<ScaleNorms> norms;
  double score = 0.0;
};

template <typename Sample>
GpuResult gpu_frame(const Picture& ref, const Picture& dist, const Params& params) {
  const PictureFormat fmt = ref.format();
  const std::vector<Level> levels =
      gpu_levels(fmt.width, fmt.height, scale_count(fmt.width, fmt.height));
  TransferCurve curve;
  curve.init(params.transfer);
  const ColourArgs args = {ycbcr_coefficients(params, fmt.bpc),
                           {curve.table.data(), curve.threshold, curve.inv_slope},
                           neg_cbrt_bias()};
  const BlurCoefficients blur = blur_coefficients(kBlurSigma);
  const float poison = std::nanf("");
  std::vector<std::vector<float>> xyb;
  std::vector<std::vector<float>> lin;
  for (const Level& l : levels) {
    xyb.emplace_back(kPictures * kChannels * l.plane(), poison);
    lin.emplace_back(kPictures * kChannels * l.plane(), poison);
  }
  const auto planes = [&](std::vector<std::vector<float>>& v, std::size_t s) {
    const Level& l = levels[s];
    return Planes{v[s].data(), l.pitch, l.plane(), l.width, l.height};
  };
  const Level& top = levels.front();
  std::vector<float> horizontal(kChannels * kQuantities * top.plane(), poison);
  std::vector<double> column_sums(kChannels * kMapSums * static_cast<std::size_t>(top.width),
                                  std::nan(""));
  std::vector<double> sums(levels.size() * kChannels * kMapSums, std::nan(""));

  const dim3 pixels = {kPixelsX, kPixelsY, 1};
  const auto pixel_grid = [&](const Level& l) {
    return dim3{blocks(l.width, kPixelsX), blocks(l.height, kPixelsY), kPictures};
  };
  const YcbcrView<Sample> a = view_of<Sample>(ref);
  const YcbcrView<Sample> b = view_of<Sample>(dist);
  run_grid(pixel_grid(levels[1]), pixels, [&] {
    first_level_kernel<Sample>(a, b, args, planes(xyb, 0), planes(lin, 1), planes(xyb, 1));
  });
  for (std::size_t s = 1; s + 1 < levels.size(); ++s) {
    run_grid(pixel_grid(levels[s + 1]), pixels, [&] {
      next_level_kernel(planes(lin, s), planes(lin, s + 1), planes(xyb, s + 1), args.neg_cbrt_bias);
    });
  }
  for (std::size_t s = 0; s < levels.size(); ++s) {
    const Level& l = levels[s];
    const Planes h{horizontal.data(), top.pitch, top.plane(), l.width, l.height};
    const int ends = blocks_end(l.width);
    run_grid({blocks(l.height, kBlurRows), kChannels, 1},
             {static_cast<unsigned>(kBlurRows), kQuantities, 1},
             [&] { horizontal_kernel(planes(xyb, s), blur, ends, h); });
    run_each({blocks(l.width, kColumnThreads), kChannels, 1}, {kColumnThreads, 1, 1},
             [&] { columns_kernel(planes(xyb, s), h, blur, column_sums.data()); });
    run_grid({1, 1, 1}, {kFinishThreads, 1, 1}, [&] {
      finish_kernel(column_sums.data(), l.width, sums.data() + s * kChannels * kMapSums);
    });
  }
  GpuResult r;
  for (std::size_t s = 0; s < levels.size(); ++s) {
    double scale_sums[kChannels][kMapSums];
    std::memcpy(scale_sums, sums.data() + s * kChannels * kMapSums, sizeof scale_sums);
    r.norms.push_back(scale_norms(scale_sums, static_cast<unsigned>(levels[s].width),
                                  static_cast<unsigned>(levels[s].height)));
  }
  r.score = final_score(r.norms);
  return r;
}

using testutil::bits;

// The CPU twin and the kernels on one pair: every norm and the score equal
// to the bit.
void expect_equal_bits(const Picture& ref, const Picture& dist, const Params& params,
                       const std::string& what) {
  FrameKernel cpu;
  cpu.init(ref.format(), params);
  const double cpu_score = cpu.score(ref, dist);
  const GpuResult gpu = ref.bpc() == 8 ? gpu_frame<std::uint8_t>(ref, dist, params)
                                       : gpu_frame<std::uint16_t>(ref, dist, params);
  ASSERT_EQ(gpu.norms.size(), cpu.norms().size()) << what;
  for (std::size_t s = 0; s < gpu.norms.size(); ++s) {
    const ScaleNorms& g = gpu.norms[s];
    const ScaleNorms& c = cpu.norms()[s];
    for (std::size_t i = 0; i < g.ssim.size(); ++i) {
      EXPECT_EQ(bits(g.ssim[i]), bits(c.ssim[i])) << what << ": scale " << s << " ssim norm " << i
                                                  << " gpu " << g.ssim[i] << " cpu " << c.ssim[i];
    }
    for (std::size_t i = 0; i < g.edge.size(); ++i) {
      EXPECT_EQ(bits(g.edge[i]), bits(c.edge[i])) << what << ": scale " << s << " edge norm " << i
                                                  << " gpu " << g.edge[i] << " cpu " << c.edge[i];
    }
  }
  EXPECT_EQ(bits(gpu.score), bits(cpu_score))
      << what << ": gpu " << gpu.score << " cpu " << cpu_score;
}

// Hashed content: smooth waves per plane with noise of `noise` (a fraction
// of the full scale), in [0, 2^bpc).
Picture waves(const PictureFormat& fmt, unsigned seed, double noise) {
  const double max = std::ldexp(1.0, static_cast<int>(fmt.bpc)) - 1.0;
  return testutil::make_picture_per_plane(fmt, [&](unsigned p, unsigned x, unsigned y) {
    std::uint32_t h = x * 374761393U + y * 668265263U + p * 3266489917U + seed * 2246822519U;
    h = (h ^ (h >> 13)) * 1274126177U;
    h ^= h >> 16;
    const double n = (static_cast<double>(h % 2001U) / 1000.0 - 1.0) * noise;
    const double v = 0.5 + 0.3 * std::sin(0.19 * x + p + seed) * std::cos(0.13 * y) + n;
    return static_cast<std::uint32_t>(std::lround(std::clamp(v, 0.0, 1.0) * max));
  });
}

Picture flat(const PictureFormat& fmt, std::uint32_t value) {
  return testutil::make_picture_per_plane(fmt, [&](unsigned, unsigned, unsigned) { return value; });
}

std::string describe(const PictureFormat& f) {
  static const char* const kChroma[] = {"4:0:0", "4:2:0", "4:2:2", "4:4:4"};
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + std::to_string(f.bpc) +
         "-bit " + kChroma[static_cast<int>(f.chroma)];
}

// ---------------------------------------------------------------------------

// The smallest picture (two scales, the second 4x4), odd sizes, every chroma
// format, 8 to 16 bits; widths whose rows' blur has its blocks end inside a
// later staging step (70: singles from 64) or its last single steps cross
// one (35: singles 28 to 34 across column 32), heights over one block of
// rows (kBlurRows) and over several turns of columns_kernel's ring (kRing),
// widths over one block of its columns (kColumnThreads).
TEST(Ssimulacra2Kernels, EqualTheCpuTwinBitForBitAtEveryDepthAndChromaFormat) {
  const Params defaults;
  const std::vector<PictureFormat> formats = {
      testutil::format(8, 8, 8, ChromaFormat::k420),
      testutil::format(35, 19, 10),
      testutil::format(70, 9, 12, ChromaFormat::k444),
      testutil::format(13, 37, 16, ChromaFormat::k422),
      testutil::format(40, 24, 8, ChromaFormat::k400),
      testutil::format(21, 11, 9, ChromaFormat::k400),
      // Tall: thirty turns of columns_kernel's ring.
      testutil::format(12, 300, 8),
      // Scale 0's columns fill finish_kernel's tile twice and part of a
      // third (five blocks of columns_kernel).
      testutil::format(300, 12, 8),
      // Whole steps of columns (horizontal_kernel's four-float stores) in
      // blocks of kBlurRows rows and a part of one.
      testutil::format(200, 70, 8),
  };
  unsigned seed = 1;
  for (const PictureFormat& fmt : formats) {
    const Picture ref = waves(fmt, seed, 0.02);
    const Picture dist = waves(fmt, seed, 0.08);
    expect_equal_bits(ref, dist, defaults, describe(fmt));
    ++seed;
  }
}

// Every matrix, range and transfer (each value in at least one run), 4:2:0
// and 4:4:4, 8 and 10 bits.
TEST(Ssimulacra2Kernels, EqualTheCpuTwinBitForBitForEveryOption) {
  struct Case {
    Matrix matrix;
    Range range;
    Transfer transfer;
    PictureFormat fmt;
  };
  const std::vector<Case> cases = {
      {Matrix::kBt601, Range::kFull, Transfer::kBt709, testutil::format(17, 12, 8)},
      {Matrix::kBt2020, Range::kLimited, Transfer::kBt1886,
       testutil::format(12, 17, 10, ChromaFormat::k444)},
      {Matrix::kBt709, Range::kFull, Transfer::kLinear, testutil::format(16, 10, 10)},
      {Matrix::kBt2020, Range::kFull, Transfer::kSrgb, testutil::format(11, 14, 8)},
  };
  unsigned seed = 20;
  for (const Case& c : cases) {
    Params p;
    p.matrix = c.matrix;
    p.range = c.range;
    p.transfer = c.transfer;
    const Picture ref = waves(c.fmt, seed, 0.05);
    const Picture dist = waves(c.fmt, seed + 1, 0.05);
    expect_equal_bits(ref, dist, p,
                      describe(c.fmt) + " options " + std::to_string(static_cast<int>(c.matrix)) +
                          std::to_string(static_cast<int>(c.range)) +
                          std::to_string(static_cast<int>(c.transfer)));
    ++seed;
  }
}

// Equal flat pictures (the score 100), all-max against all-max, zero
// against max (the clamps, the curve's ends, the cube root's zero), and
// noise against flat.
TEST(Ssimulacra2Kernels, EqualTheCpuTwinBitForBitOnExtremeContent) {
  Params full;
  full.range = Range::kFull;
  const PictureFormat f8 = testutil::format(12, 9, 8);
  const PictureFormat f16 = testutil::format(9, 12, 16, ChromaFormat::k444);
  expect_equal_bits(flat(f8, 100), flat(f8, 100), Params{}, "flat, equal");
  expect_equal_bits(flat(f16, 65535), flat(f16, 65535), full, "all-max, full range");
  expect_equal_bits(flat(f8, 0), flat(f8, 255), full, "zero against max");
  expect_equal_bits(flat(f16, 65535), flat(f16, 0), Params{}, "max against zero, limited");
  expect_equal_bits(waves(f8, 3, 0.5), flat(f8, 128), Params{}, "noise against flat");
}

// The compile-time path of fused() (round-to-odd in double) gives the one
// rounding of a fused multiply-add where rounding the double sum to float
// would round twice: (1 + 2^-23)(1 - 2^-23) + (2^24 + 2) is 2^24 + 3 -
// 2^-46, just below the halfway point 2^24 + 3 (so 2^24 + 2), which the
// double sum rounds to (then to even: 2^24 + 4).
TEST(Ssimulacra2Kernels, FusedIsOneRoundingAtCompileTimeToo) {
  constexpr float kA = 1.0f + 0x1p-23f;
  constexpr float kB = 1.0f - 0x1p-23f;
  constexpr float kC = 0x1p24f + 2.0f;
  constexpr float kAtCompileTime = fused(kA, kB, kC);
  static_assert(kAtCompileTime == 0x1p24f + 2.0f);
  static_assert(static_cast<float>(static_cast<double>(kA) * kB + kC) == 0x1p24f + 4.0f);
  volatile float a = kA;  // at run time: __builtin_fmaf
  EXPECT_EQ(fused(static_cast<float>(a), kB, kC), kAtCompileTime);
  EXPECT_EQ(std::fma(kA, kB, kC), kAtCompileTime);
  for (float x = 0.1f; x < 4.0f; x *= 1.37f) {
    for (float y = -3.0f; y < 3.0f; y += 0.77f) {
      const float c = x * 1e-4f - y;
      EXPECT_EQ(ssimulacra2::detail::fused_exact(x, y, c), std::fma(x, y, c)) << x << " " << y;
    }
  }
}

}  // namespace
}  // namespace vqx

// Integer SSIM's GPU kernels (src/metrics/integer_ssim/gpu_kernels.cuh),
// run here on the CPU, without a device: each block's threads are threads
// of this process (tests/unit/gpu_on_host.hpp). The kernels' own source is
// compiled, so their indexing, the truncated window at every edge and the
// layout of the terms are the GPU twin's; only the arithmetic is the CPU's
// (equal by the argument of docs/gpu.md). Each pixel's term must equal the
// CPU twin's bit for bit, and the host's finish (the terms added in
// row-major order) the CPU twin's score.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "gpu_on_host.hpp"  // before the kernels: what nvcc and hipcc provide
#include "metrics/integer_ssim/cpu.hpp"
#include "metrics/integer_ssim/gpu_kernels.cuh"
#include "metrics/integer_ssim/score.hpp"
#include "test_util.hpp"

#undef __shared__

namespace vqx {
namespace {

using gpu_on_host::run_grid;
using testutil::format;
using testutil::zero_chroma::flat_picture;
using testutil::zero_chroma::make_picture;

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

struct GpuResult {
  std::vector<double> terms;
  double score;
};

// The twin's launches (gpu.cu), on the host: the horizontal sums into the
// five maps, the terms, then the host's finish.
template <typename Sample>
GpuResult gpu_twin(const Picture& ref, const Picture& dist) {
  const int w = static_cast<int>(ref.width());
  const int h = static_cast<int>(ref.height());
  const std::size_t pixels = std::size_t{ref.width()} * ref.height();
  // Poisoned: a map or term the kernels leave unwritten shows.
  std::vector<std::int64_t> sums(integer_ssim::kSumMaps * pixels, -7);
  std::vector<double> terms(pixels, -1.0);
  const integer_ssim::SumMaps maps{sums.data(), pixels, w, h};
  const integer_ssim::WindowTaps taps = integer_ssim::window_taps();
  const integer_ssim::LumaRows<Sample> r{ref.plane(0).row<std::uint8_t>(0),
                                         ref.plane(0).stride_bytes()};
  const integer_ssim::LumaRows<Sample> d{dist.plane(0).row<std::uint8_t>(0),
                                         dist.plane(0).stride_bytes()};
  const dim3 grid{ceil_div(ref.width(), integer_ssim::kBlockX),
                  ceil_div(ref.height(), integer_ssim::kBlockY), 1};
  const dim3 block{integer_ssim::kBlockX, integer_ssim::kBlockY, 1};
  run_grid(grid, block, [&] { integer_ssim::horizontal_kernel<Sample>(r, d, taps, maps); });
  run_grid(grid, block, [&] {
    integer_ssim::terms_kernel(maps, taps, integer_ssim::peak_squared(ref.bpc()), terms.data());
  });
  const double sum = integer_ssim::add_in_order(0.0, terms.data(), pixels);
  return {terms, integer_ssim::frame_score(sum, w, h)};
}

void expect_twins_equal(const Picture& ref, const Picture& dist, const std::string& what) {
  const int w = static_cast<int>(ref.width());
  const int h = static_cast<int>(ref.height());
  integer_ssim::Scorer cpu;
  cpu.init(w, h);
  std::vector<double> cpu_terms(std::size_t{ref.width()} * ref.height(), -2.0);
  const double cpu_score = cpu.terms(ref.plane(0), dist.plane(0), ref.bpc(), cpu_terms);
  const GpuResult gpu =
      ref.bpc() == 8 ? gpu_twin<std::uint8_t>(ref, dist) : gpu_twin<std::uint16_t>(ref, dist);
  unsigned differing = 0;
  for (std::size_t i = 0; i < cpu_terms.size(); ++i) {
    if (bits(gpu.terms[i]) != bits(cpu_terms[i]) && ++differing <= 3) {
      ADD_FAILURE() << what << ": pixel (" << i % ref.width() << ", " << i / ref.width()
                    << "): gpu " << gpu.terms[i] << ", cpu " << cpu_terms[i];
    }
  }
  EXPECT_EQ(differing, 0U) << what;
  EXPECT_EQ(bits(gpu.score), bits(cpu_score))
      << what << ": gpu " << gpu.score << ", cpu " << cpu_score;
}

Picture random_luma(const PictureFormat& fmt, std::mt19937& rng) {
  const std::uint32_t max = (1U << fmt.bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, max);
  return make_picture(fmt, [&](unsigned, unsigned) { return any(rng); });
}

// Sizes below, about and above the window (9) and the block (32 x 4), each
// window cut on one side, both sides or none; every depth where the
// arithmetic changes (8-bit samples, 16-bit samples, the reference's
// overflow from 13 bits, the peak squared at 16).
TEST(IntegerSsimKernels, TermsAndScoreEqualTheCpuTwin) {
  std::mt19937 rng(21);
  const std::pair<unsigned, unsigned> sizes[] = {{1, 1},  {3, 1},   {1, 9},  {9, 9},
                                                 {33, 5}, {37, 19}, {70, 10}};
  unsigned cases = 0;
  for (unsigned bpc : {8U, 10U, 12U, 13U, 16U}) {
    for (const auto& [w, h] : sizes) {
      const PictureFormat fmt = format(w, h, bpc);
      const std::string what =
          std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit";
      const Picture ref = random_luma(fmt, rng);
      expect_twins_equal(ref, random_luma(fmt, rng), what + " noise");
      expect_twins_equal(ref, testutil::distorted(ref, rng, 0.02), what + " distorted");
      cases += 2;
    }
  }
  EXPECT_EQ(cases, 5U * 7U * 2U);
}

TEST(IntegerSsimKernels, FlatAndExtremePictures) {
  for (unsigned bpc : {8U, 12U, 16U}) {
    const PictureFormat fmt = format(35, 6, bpc);
    const std::uint32_t max = (1U << bpc) - 1;
    const std::string what = std::to_string(bpc) + "-bit ";
    expect_twins_equal(flat_picture(fmt, max), flat_picture(fmt, max), what + "max vs max");
    expect_twins_equal(flat_picture(fmt, 0), flat_picture(fmt, max), what + "zero vs max");
    expect_twins_equal(flat_picture(fmt, max), flat_picture(fmt, 0), what + "max vs zero");
    expect_twins_equal(flat_picture(fmt, 0), flat_picture(fmt, 0), what + "zero vs zero");
    const Picture checker =
        make_picture(fmt, [&](unsigned x, unsigned y) { return ((x / 2 + y) % 2) != 0 ? max : 0; });
    expect_twins_equal(checker, flat_picture(fmt, max / 2), what + "checkerboard vs flat");
  }
}

}  // namespace
}  // namespace vqx

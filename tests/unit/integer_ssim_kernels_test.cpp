// Integer SSIM's GPU kernels (src/metrics/integer_ssim/gpu_kernels.cuh and
// the chain sums of src/gpu/chain_sum.cuh), run here on the CPU, without a
// device (tests/unit/gpu_on_host.hpp). The kernels' own source is compiled,
// so their indexing, the truncated window at every edge, the layout of the
// terms and the order of the sum are the GPU twin's; only the arithmetic
// is the CPU's (equal by the argument of docs/gpu.md). Each pixel's term
// must equal the CPU twin's bit for bit, the chain sums' result the CPU's
// chain (add_in_order, row-major from 0.0) over those terms, and the score
// the CPU twin's: sizes below, about and above the window, the blocks and
// a chunk of the chain's terms, every depth where the arithmetic changes,
// content whose terms are all positive (the walk takes Steps) and content
// with negative terms (their runs are added term by term).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "metrics/integer_ssim/cpu.hpp"
#include "metrics/integer_ssim/score.hpp"
#include "test_util.hpp"
// What nvcc and hipcc provide, before the kernels.
#include "gpu_on_host.hpp"
// The kernels, and the chain sums' launches on the host.
#include "chain_on_host.hpp"
#include "metrics/integer_ssim/gpu_kernels.cuh"

#undef __shared__

namespace vqx {
namespace {

using gpu_on_host::run_each;
using testutil::format;
using testutil::zero_chroma::flat_picture;
using testutil::zero_chroma::make_picture;

using testutil::bits;

struct GpuResult {
  std::vector<double> terms;
  double sum;  // the chain sums' result, which the device reads back
  double score;
  chain_on_host::WalkCounts walk;
};

// The twin's launches (gpu.cu), on the host: the horizontal sums into the
// five maps, the terms into the chain's terms, the chain sums, then the
// host's finish. The two kernels have no barriers: thread by thread.
template <typename Sample>
GpuResult gpu_twin(const Picture& ref, const Picture& dist) {
  const int w = static_cast<int>(ref.width());
  const int h = static_cast<int>(ref.height());
  const std::size_t pixels = std::size_t{ref.width()} * ref.height();
  // Poisoned: a map or term the kernels leave unwritten shows.
  std::vector<std::int64_t> sums(integer_ssim::kSumMaps * pixels, -7);
  std::vector<std::vector<double>> terms(1, std::vector<double>(pixels, -1.0));
  const integer_ssim::SumMaps maps{sums.data(), pixels, w, h};
  const integer_ssim::WindowTaps taps = integer_ssim::window_taps();
  const integer_ssim::LumaRows<Sample> r{ref.plane(0).row<std::uint8_t>(0),
                                         ref.plane(0).stride_bytes()};
  const integer_ssim::LumaRows<Sample> d{dist.plane(0).row<std::uint8_t>(0),
                                         dist.plane(0).stride_bytes()};
  const dim3 grid{ceil_div(ref.width(), integer_ssim::kBlockX),
                  ceil_div(ref.height(), integer_ssim::kBlockY), 1};
  const dim3 block{integer_ssim::kBlockX, integer_ssim::kBlockY, 1};
  run_each(grid, block, [&] { integer_ssim::horizontal_kernel<Sample>(r, d, taps, maps); });
  double* out = terms[0].data();
  run_each(grid, block, [&] {
    integer_ssim::terms_kernel(maps, taps, integer_ssim::peak_squared(ref.bpc()), out);
  });
  GpuResult g;
  g.sum = chain_on_host::kernel_sums<double>(terms, nullptr, &g.walk)[0];
  g.score = integer_ssim::frame_score(g.sum, w, h);
  g.terms = std::move(terms[0]);
  return g;
}

struct Compared {
  std::size_t negative_terms = 0;  // the content's terms below 0
  bool order_matters = false;      // another order of the terms gives other bits
  chain_on_host::WalkCounts walk;
};

Compared expect_twins_equal(const Picture& ref, const Picture& dist, const std::string& what) {
  const int w = static_cast<int>(ref.width());
  const int h = static_cast<int>(ref.height());
  const std::size_t pixels = std::size_t{ref.width()} * ref.height();
  integer_ssim::Scorer cpu;
  cpu.init(w, h);
  std::vector<double> cpu_terms(pixels, -2.0);
  const double cpu_score = cpu.terms(ref.plane(0), dist.plane(0), ref.bpc(), cpu_terms);
  const GpuResult gpu =
      ref.bpc() == 8 ? gpu_twin<std::uint8_t>(ref, dist) : gpu_twin<std::uint16_t>(ref, dist);
  unsigned differing = 0;
  Compared c;
  c.walk = gpu.walk;
  for (std::size_t i = 0; i < pixels; ++i) {
    if (bits(gpu.terms[i]) != bits(cpu_terms[i]) && ++differing <= 3) {
      ADD_FAILURE() << what << ": pixel (" << i % ref.width() << ", " << i / ref.width()
                    << "): gpu " << gpu.terms[i] << ", cpu " << cpu_terms[i];
    }
    if (cpu_terms[i] < 0.0) ++c.negative_terms;
  }
  EXPECT_EQ(differing, 0U) << what;
  // The CPU twin's chain over its terms (cpu.cpp continues it row by row).
  const double cpu_sum = integer_ssim::add_in_order(0.0, cpu_terms.data(), pixels);
  EXPECT_EQ(bits(gpu.sum), bits(cpu_sum))
      << what << ": gpu sum " << gpu.sum << ", cpu sum " << cpu_sum;
  EXPECT_EQ(bits(integer_ssim::frame_score(cpu_sum, w, h)), bits(cpu_score)) << what;
  EXPECT_EQ(bits(gpu.score), bits(cpu_score))
      << what << ": gpu " << gpu.score << ", cpu " << cpu_score;
  // Whether this case can tell the chain from other orders: the terms
  // backwards, and each row summed alone, then the rows.
  double backwards = 0.0;
  for (std::size_t i = pixels; i-- > 0;) backwards += cpu_terms[i];
  double by_rows = 0.0;
  for (int y = 0; y < h; ++y) {
    by_rows += integer_ssim::add_in_order(
        0.0, cpu_terms.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(w),
        static_cast<std::size_t>(w));
  }
  c.order_matters = bits(backwards) != bits(cpu_sum) || bits(by_rows) != bits(cpu_sum);
  return c;
}

Picture random_luma(const PictureFormat& fmt, std::mt19937& rng) {
  const std::uint32_t max = (1U << fmt.bpc) - 1;
  std::uniform_int_distribution<std::uint32_t> any(0, max);
  return make_picture(fmt, [&](unsigned, unsigned) { return any(rng); });
}

// Sizes below, about and above the window (9), the block (32 x 4) and a
// chunk of the chain's terms (4096: 97x45 is 4365 terms, 130x70 is 9100),
// each window cut on one side, both sides or none; every depth where the
// arithmetic changes (8-bit samples, 16-bit samples, the reference's
// overflow from 13 bits, the peak squared at 16). Unrelated noise has
// negative terms (anti-correlated windows), which the chain sums add one by
// one; a light distortion has none.
TEST(IntegerSsimKernels, TermsSumAndScoreEqualTheCpuTwin) {
  std::mt19937 rng(21);
  const std::pair<unsigned, unsigned> sizes[] = {{1, 1},   {3, 1},   {1, 9},   {9, 9},   {33, 5},
                                                 {37, 19}, {70, 10}, {97, 45}, {130, 70}};
  unsigned cases = 0;
  unsigned order_matters = 0;
  unsigned with_negative_terms = 0;
  for (unsigned bpc : {8U, 10U, 12U, 13U, 16U}) {
    for (const auto& [w, h] : sizes) {
      const PictureFormat fmt = format(w, h, bpc);
      const std::string what =
          std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit";
      const Picture ref = random_luma(fmt, rng);
      for (const Compared& c :
           {expect_twins_equal(ref, random_luma(fmt, rng), what + " noise"),
            expect_twins_equal(ref, testutil::distorted(ref, rng, 0.02), what + " distorted")}) {
        ++cases;
        order_matters += c.order_matters ? 1U : 0U;
        with_negative_terms += c.negative_terms > 0 ? 1U : 0U;
      }
    }
  }
  EXPECT_EQ(cases, 5U * 9U * 2U);
  // The cases tell the chain's order from others (a sum in another order
  // would fail them), and cover negative terms.
  EXPECT_GE(order_matters, cases / 2) << "of " << cases;
  EXPECT_GE(with_negative_terms, 20U) << "of " << cases;
}

// Content like the benchmark's (smooth, textured, lightly distorted: every
// term positive), 15 chunks of terms: the walk crosses binades (the sum
// grows from about 2^16 to 2^32) and adds the rest by the chunks' Steps.
TEST(IntegerSsimKernels, LargerTexturedPicturesEqualTheCpuTwin) {
  unsigned order_matters = 0;
  for (unsigned bpc : {8U, 10U}) {
    const PictureFormat fmt = format(320, 180, bpc);
    std::mt19937 rng(bpc);
    const Picture ref = testutil::textured_picture(fmt, rng, 0.01, 0.08, 0.05);
    const std::string what = "320x180 " + std::to_string(bpc) + "-bit textured";
    const Compared c = expect_twins_equal(ref, testutil::distorted(ref, rng, 0.01), what);
    order_matters += c.order_matters ? 1U : 0U;
    EXPECT_EQ(c.negative_terms, 0U) << what;
    std::printf("%s: %u chunks, %u added in detail, %u runs term by term\n", what.c_str(),
                c.walk.chunks, c.walk.detailed_chunks, c.walk.term_runs);
    EXPECT_EQ(c.walk.chunks, 15U) << what;
    EXPECT_LE(c.walk.detailed_chunks, 8U) << what;
    // In the first chunk the sum doubles every few runs: each doubling a
    // run term by term; after it, about one run per binade.
    EXPECT_LE(c.walk.term_runs, c.walk.detailed_chunks + 8) << what;
  }
  EXPECT_GE(order_matters, 1U);
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
    // The inverse picture: every window anti-correlated, every term
    // negative (or 0) where the window has texture.
    const Picture inverse =
        make_picture(fmt, [&](unsigned x, unsigned y) { return ((x / 2 + y) % 2) != 0 ? 0 : max; });
    const Compared c = expect_twins_equal(checker, inverse, what + "checkerboard vs its inverse");
    EXPECT_GT(c.negative_terms, 0U) << what;
  }
}

}  // namespace
}  // namespace vqx

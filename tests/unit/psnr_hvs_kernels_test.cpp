// The psnr_hvs twin's GPU kernels (src/metrics/psnr_hvs/gpu_kernels.cuh and
// the chain sums of src/gpu/chain_sum.cuh), run here on the CPU, without a
// device (tests/unit/gpu_on_host.hpp). The kernels' own source is compiled,
// so their indexing, block order and sums are the GPU twin's; only the
// arithmetic is the CPU's IEEE arithmetic instead of the device's (equal by
// docs/gpu.md's argument). Their results, through the twin's host finish,
// must equal the CPU twin's bit for bit: every chroma format, 8 to 12 bits,
// odd sizes, the smallest planes, planes of several chunks of terms, flat
// and extreme pictures.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/psnr_hvs/cpu.hpp"
#include "metrics/psnr_hvs/pointwise.hpp"
#include "metrics/psnr_hvs/scores.hpp"
#include "test_util.hpp"
// What nvcc and hipcc provide, before the kernels.
#include "gpu_on_host.hpp"
// The kernels, and the chain sums' launches on the host.
#include "chain_on_host.hpp"
#include "metrics/psnr_hvs/gpu_kernels.cuh"

#undef __shared__

namespace vqx {
namespace {

class Values final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned /*frame*/, double value) override { v[slot] = value; }
  double v[4] = {-1.0, -1.0, -1.0, -1.0};
};

using testutil::bits;

Values cpu_values(const Picture& ref, const Picture& dist) {
  auto spec = psnr_hvs_family().make_spec({});
  EXPECT_TRUE(spec.ok());
  auto ex = spec.value().make();
  const Status init = ex->init(ref.format());
  EXPECT_TRUE(init.ok()) << init.message();
  Values out;
  EXPECT_TRUE(ex->extract(ref, dist, 0, out).ok());
  return out;
}

// The twin's launches (gpu.cu) and host finish.
template <typename Sample>
Values gpu_values(const Picture& ref, const Picture& dist) {
  const PictureFormat fmt = ref.format();
  const psnr_hvs::Table* tables[3] = {&psnr_hvs::kCsfY, &psnr_hvs::kCsfCb, &psnr_hvs::kCsfCr};
  std::vector<std::vector<float>> terms(3);
  std::array<unsigned, 3> blocks{};
  for (unsigned p = 0; p < 3; ++p) {
    const psnr_hvs::Weights w = psnr_hvs::make_weights(*tables[p]);
    const psnr_hvs::BlockWeights bw{w.csf, w.mask};
    const unsigned bx = psnr_hvs::blocks_along(fmt.plane_width(p));
    blocks[p] = bx * psnr_hvs::blocks_along(fmt.plane_height(p));
    terms[p].assign(std::size_t{blocks[p]} * psnr_hvs::kBlockArea, -1.0F);
    const psnr_hvs::SampleView<Sample> r{ref.plane(p).row<std::uint8_t>(0),
                                         ref.plane(p).stride_bytes()};
    const psnr_hvs::SampleView<Sample> d{dist.plane(p).row<std::uint8_t>(0),
                                         dist.plane(p).stride_bytes()};
    const unsigned n = blocks[p];
    float* out = terms[p].data();
    gpu_on_host::run_grid({ceil_div(n, psnr_hvs::kBlocksPerCta)}, {psnr_hvs::kBlockThreads},
                          [&] { psnr_hvs::terms_kernel<Sample>(r, d, bx, n, bw, out); });
  }
  const std::vector<float> sums = chain_on_host::kernel_sums<float>(terms);
  std::array<float, 3> errors{};
  for (unsigned p = 0; p < 3; ++p)
    errors[p] = psnr_hvs::plane_error_of(sums[p], blocks[p], fmt.bpc);
  Values out;
  psnr_hvs::write_scores(errors, 0, out);
  return out;
}

void expect_twins_equal(const Picture& ref, const Picture& dist, const std::string& what) {
  const Values cpu = cpu_values(ref, dist);
  const Values gpu =
      ref.bpc() == 8 ? gpu_values<std::uint8_t>(ref, dist) : gpu_values<std::uint16_t>(ref, dist);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(bits(cpu.v[k]), bits(gpu.v[k]))
        << what << ": output " << k << " cpu " << cpu.v[k] << " gpu " << gpu.v[k];
  }
}

Picture textured(const PictureFormat& fmt, std::uint32_t seed) {
  std::mt19937 rng(seed);
  return testutil::textured_picture(fmt, rng, 0.05, 0.11, 0.07);
}

Picture distorted(const Picture& base, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::distorted(base, rng, noise);
}

PictureFormat format(unsigned w, unsigned h, unsigned bpc, ChromaFormat c) {
  PictureFormat f = testutil::format(w, h, bpc);
  f.chroma = c;
  return f;
}

TEST(PsnrHvsKernels, EqualTheCpuTwinBitForBit) {
  struct Case {
    unsigned w, h, bpc;
    ChromaFormat chroma;
  };
  for (const Case& c : std::vector<Case>{{16, 16, 8, ChromaFormat::k420},
                                         {37, 29, 10, ChromaFormat::k444},
                                         {45, 17, 12, ChromaFormat::k422},
                                         {120, 90, 8, ChromaFormat::k420},
                                         {64, 50, 9, ChromaFormat::k420},
                                         {23, 30, 11, ChromaFormat::k444}}) {
    const PictureFormat fmt = format(c.w, c.h, c.bpc, c.chroma);
    const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " " +
                             std::to_string(c.bpc) + "-bit " + to_string(c.chroma);
    const Picture ref = textured(fmt, c.w * 3 + c.h);
    expect_twins_equal(ref, distorted(ref, c.w + c.bpc, 0.03), what + " lightly distorted");
    expect_twins_equal(ref, distorted(ref, c.h + c.bpc, 0.3), what + " heavily distorted");
  }
}

TEST(PsnrHvsKernels, FlatAndExtremePicturesEqualTheCpuTwin) {
  for (const unsigned bpc : {8U, 12U}) {
    const PictureFormat fmt = format(30, 22, bpc, ChromaFormat::k420);
    const std::uint32_t max = (1U << bpc) - 1;
    const Picture zero = testutil::flat_picture(fmt, 0, 0);
    const Picture full = testutil::flat_picture(fmt, max, max);
    const Picture mid = testutil::flat_picture(fmt, max / 2, max / 3);
    expect_twins_equal(mid, mid, "equal pictures (+infinity)");
    expect_twins_equal(zero, full, "zero vs max");
    expect_twins_equal(full, zero, "max vs zero");
    expect_twins_equal(mid, textured(fmt, bpc), "flat vs textured");
  }
}

}  // namespace
}  // namespace vqx

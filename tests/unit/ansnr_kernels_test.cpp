// The float_ansnr twin's GPU kernels (src/metrics/ansnr/gpu_kernels.cuh),
// run here on the CPU, without a device: each block's threads are threads
// of this process (tests/unit/gpu_on_host.hpp). The kernels' own source is
// compiled, so their indexing, mirrored borders, tiles, barriers and order
// of sums are the GPU twin's; only the arithmetic is the CPU's IEEE
// arithmetic instead of the device's (equal by docs/gpu.md's argument).
// Their results, through the twin's host finish, must equal the CPU twin's
// bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_on_host.hpp"  // before the kernels: what nvcc and hipcc provide
#include "metrics/ansnr/gpu_kernels.cuh"
#include "metrics/ansnr/scores.hpp"
#include "metrics/families.hpp"
#include "metrics/float_psnr/params.hpp"
#include "test_util.hpp"

#undef __shared__

namespace vqx {
namespace {

using gpu_on_host::run_grid;

class Values final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned /*frame*/, double value) override { v[slot] = value; }
  double v[2] = {-1.0, -1.0};
};

using testutil::bits;

Values cpu_values(const Picture& ref, const Picture& dist) {
  auto spec = float_ansnr_family().make_spec({});
  EXPECT_TRUE(spec.ok());
  auto ex = spec.value().make();
  EXPECT_TRUE(ex->init(ref.format()).ok());
  Values out;
  EXPECT_TRUE(ex->extract(ref, dist, 0, out).ok());
  return out;
}

template <typename Sample>
ansnr::LumaView<Sample> luma(const Plane& p, unsigned bpc) {
  return {p.row<std::uint8_t>(0), p.stride_bytes(), float_psnr::inv_sample_scale(bpc)};
}

// The twin's launches (gpu.cu) and host finish.
template <typename Sample>
Values gpu_values(const Picture& ref, const Picture& dist) {
  const PictureFormat fmt = ref.format();
  const int w = static_cast<int>(fmt.width);
  const int h = static_cast<int>(fmt.height);
  const std::size_t pitch = fmt.width + 5;  // not the width: the kernels must use the pitch
  std::vector<float> planes(2 * pitch * fmt.height, -1.0F);
  const ansnr::TermPlanes tp{planes.data(), planes.data() + pitch * fmt.height, pitch};
  const auto r = luma<Sample>(ref.plane(0), fmt.bpc);
  const auto d = luma<Sample>(dist.plane(0), fmt.bpc);
  const ansnr::Filters f = ansnr::filters();
  run_grid({ceil_div(fmt.width, ansnr::kTermsX), ceil_div(fmt.height, ansnr::kTermsY)},
           {ansnr::kTermsX, ansnr::kTermsY},
           [&] { ansnr::terms_kernel<ansnr::LumaView<Sample>>(r, d, f, w, h, tp); });
  std::vector<float> rows(2 * std::size_t{fmt.height}, -1.0F);
  run_grid({ceil_div(fmt.height, ansnr::kRowsPerBlock)}, {ansnr::kRowBlockThreads},
           [&] { ansnr::rows_kernel(tp, w, h, rows.data(), rows.data() + fmt.height); });
  ansnr::Energies total{0.0F, 0.0F};
  for (unsigned y = 0; y < fmt.height; ++y) {
    ansnr::add_row(total, {rows[y], rows[fmt.height + y]});
  }
  Values out;
  ansnr::write_scores(total, fmt, 0, out);
  return out;
}

void expect_twins_equal(const Picture& ref, const Picture& dist, const std::string& what) {
  const Values cpu = cpu_values(ref, dist);
  const Values gpu =
      ref.bpc() == 8 ? gpu_values<std::uint8_t>(ref, dist) : gpu_values<std::uint16_t>(ref, dist);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(bits(cpu.v[k]), bits(gpu.v[k]))
        << what << ": output " << k << " cpu " << cpu.v[k] << " gpu " << gpu.v[k];
  }
}

Picture noisy(const PictureFormat& fmt, std::uint32_t seed) {
  std::mt19937 rng(seed);
  return testutil::zero_chroma::random_picture(fmt, rng);
}

Picture distorted(const Picture& base, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::distorted(base, rng, noise);
}

// The smallest picture, a row of tiles and a short last tile, more rows
// than one block of rows (64), and every depth from 8 to 16.
TEST(AnsnrKernels, EqualTheCpuTwinBitForBit) {
  for (const auto& [w, h, bpc] :
       std::vector<std::tuple<unsigned, unsigned, unsigned>>{{3, 3, 8},
                                                             {5, 4, 10},
                                                             {37, 23, 8},
                                                             {70, 67, 12},
                                                             {33, 9, 16},
                                                             {19, 66, 9},
                                                             {41, 7, 11},
                                                             {8, 70, 13},
                                                             {23, 11, 14},
                                                             {12, 13, 15},
                                                             // Rows of several of
                                                             // rows_kernel's tiles,
                                                             // the last one partial.
                                                             {600, 19, 8},
                                                             {513, 9, 10}}) {
    const PictureFormat fmt = testutil::format(w, h, bpc);
    const std::string what =
        std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit";
    const Picture ref = noisy(fmt, w * 7 + h);
    expect_twins_equal(ref, distorted(ref, w + bpc, 0.05), what + " noise");
    expect_twins_equal(ref, noisy(fmt, w + h + bpc), what + " unrelated");
  }
}

TEST(AnsnrKernels, FlatAndExtremePicturesEqualTheCpuTwin) {
  for (const unsigned bpc : {8U, 10U, 16U}) {
    const PictureFormat fmt = testutil::format(34, 9, bpc);
    const std::uint32_t max = (1U << bpc) - 1;
    const Picture zero = testutil::zero_chroma::flat_picture(fmt, 0);
    const Picture full = testutil::zero_chroma::flat_picture(fmt, max);
    const Picture mid = testutil::zero_chroma::flat_picture(fmt, max / 2);
    expect_twins_equal(mid, mid, "equal flat (the cap)");
    expect_twins_equal(zero, full, "zero vs max");
    expect_twins_equal(full, zero, "max vs zero");
    expect_twins_equal(full, noisy(fmt, bpc), "max vs noise");
  }
}

}  // namespace
}  // namespace vqx

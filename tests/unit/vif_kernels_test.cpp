// Integer VIF's GPU kernels (src/metrics/vif/gpu_kernels.cuh), run here on
// the CPU, without a device (tests/unit/gpu_on_host.hpp): their own source,
// so the tiles, the word and sample loads, the mirrored borders, the
// barriers and the sums are the GPU twin's. The pyramid as gpu.cu launches
// it (stats of each scale, subsample to the next) must give, scale by
// scale, the CPU twin's num and den exactly: 8 to 16 bits; the smallest
// picture; one tile exactly and one sample past it; pictures with tiles
// inside them at scales 0 to 2 (the word loads) and the same pictures from
// a base that is not word-aligned (the sample loads); the gain limit; flat
// and extreme pictures.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "metrics/vif/cpu.hpp"
#include "metrics/vif/scores.hpp"
#include "test_util.hpp"
// What nvcc and hipcc provide, before the kernels.
#include "gpu_on_host.hpp"
#include "metrics/vif/gpu_kernels.cuh"

#undef __shared__

namespace vqx {
namespace {

struct HostSum {
  void add(unsigned long long* totals, const unsigned long long (&v)[vif::kSums]) const {
    for (int k = 0; k < vif::kSums; ++k) {
      std::atomic_ref<unsigned long long>(totals[k]).fetch_add(v[k]);
    }
  }
};

// A luma plane as the kernels read it: a base, a pitch in bytes.
struct HostPlane {
  std::vector<std::uint8_t> bytes;
  std::size_t offset = 0;  // of the first sample in `bytes`
  std::size_t pitch = 0;
  [[nodiscard]] const void* base() const { return bytes.data() + offset; }
};

// `p`'s samples at `offset` bytes into a buffer with `pitch` bytes a row.
HostPlane copy_plane(const Plane& p, unsigned w, unsigned h, unsigned bytes_per_sample,
                     std::size_t offset, std::size_t pitch) {
  HostPlane out;
  out.offset = offset;
  out.pitch = pitch;
  out.bytes.assign(offset + pitch * h, 0);
  for (unsigned y = 0; y < h; ++y) {
    std::memcpy(out.bytes.data() + offset + pitch * y, p.row<std::uint8_t>(y),
                std::size_t{w} * bytes_per_sample);
  }
  return out;
}

// The twin's launch (gpu.cu's VifTwin::launch, through the same helpers of
// gpu_kernels.cuh) on the host.
vif::FrameSums gpu_sums(const HostPlane& ref, const HostPlane& dis, unsigned width, unsigned height,
                        unsigned bpc, double gain_limit) {
  const auto& lut = vif::log2_q11_table();
  vif::ScalePlanes in{.ref = ref.base(),
                      .dis = dis.base(),
                      .pitch_ref = ref.pitch,
                      .pitch_dis = dis.pitch,
                      .w = static_cast<int>(width),
                      .h = static_cast<int>(height)};
  std::vector<std::uint16_t> scale_ref[vif::kScaleCount];
  std::vector<std::uint16_t> scale_dis[vif::kScaleCount];
  vif::FrameSums out{};
  for (int scale = 0; scale < vif::kScaleCount; ++scale) {
    if (scale > 0) {
      // Rows padded by a few samples, as on the device.
      const std::size_t pitch_out = (static_cast<std::size_t>(in.w / 2) + 3) * 2;
      scale_ref[scale].assign(pitch_out / 2 * static_cast<std::size_t>(in.h / 2), 0);
      scale_dis[scale].assign(pitch_out / 2 * static_cast<std::size_t>(in.h / 2), 0);
      const vif::SubsampleArgs sa = vif::subsample_args(scale, bpc, in, scale_ref[scale].data(),
                                                        scale_dis[scale].data(), pitch_out);
      const vif::SubsampleKernel subsample = vif::subsample_kernel_for(scale, bpc);
      gpu_on_host::run_grid(vif::subsample_grid(sa), dim3{vif::kSubThreads},
                            [&] { subsample(sa); });
      in = {.ref = scale_ref[scale].data(),
            .dis = scale_dis[scale].data(),
            .pitch_ref = pitch_out,
            .pitch_dis = pitch_out,
            .w = sa.w_out,
            .h = sa.h_out};
    }
    unsigned long long totals[vif::kSums] = {0, 0, 0, 0};
    const vif::StatsArgs a = vif::stats_args(scale, bpc, in, gain_limit, lut.data(), totals);
    const vif::StatsKernel<HostSum> stats = vif::stats_kernel_for<HostSum>(scale, bpc);
    gpu_on_host::run_grid(vif::stats_grid(a), dim3{vif::kStatsThreads},
                          [&] { stats(a, HostSum{}); });
    out[scale] = vif::finish_scale(
        static_cast<std::int64_t>(totals[0]), static_cast<std::int64_t>(totals[1]),
        static_cast<std::int64_t>(totals[2]), static_cast<std::int64_t>(totals[3]));
  }
  return out;
}

// With `unaligned`, also from rows one sample off a word.
void expect_twins_equal(const Picture& ref, const Picture& dis, double gain_limit,
                        const std::string& what, bool unaligned = false) {
  const PictureFormat fmt = ref.format();
  vif::CpuKernel cpu;
  ASSERT_TRUE(cpu.init(fmt.width, fmt.height, fmt.bpc).ok()) << what;
  vif::FrameSums expected{};
  cpu.compute(ref.plane(0), dis.plane(0), vif::KernelParams{.gain_limit = gain_limit}, expected);
  const unsigned bytes = fmt.bpc > 8 ? 2 : 1;
  const std::size_t row = std::size_t{fmt.width} * bytes;
  // Word-aligned rows (the word loads where a tile is inside the picture),
  // then rows one sample off a word (the sample loads everywhere).
  for (const bool aligned : {true, false}) {
    if (!aligned && !unaligned) break;
    const std::size_t offset = aligned ? 0 : bytes;
    const std::size_t pitch = aligned ? round_up(row, std::size_t{64}) : row + bytes;
    const HostPlane r = copy_plane(ref.plane(0), fmt.width, fmt.height, bytes, offset, pitch);
    const HostPlane d = copy_plane(dis.plane(0), fmt.width, fmt.height, bytes, offset, pitch);
    const vif::FrameSums got = gpu_sums(r, d, fmt.width, fmt.height, fmt.bpc, gain_limit);
    for (int s = 0; s < vif::kScaleCount; ++s) {
      const std::string where =
          what + (aligned ? ", aligned" : ", unaligned") + ", scale " + std::to_string(s);
      EXPECT_EQ(expected[s].num, got[s].num) << where;
      EXPECT_EQ(expected[s].den, got[s].den) << where;
    }
  }
}

TEST(VifKernels, PyramidEqualsTheCpuTwin) {
  // Each size at the depths it runs at: the largest at 8 bits and the
  // extra heights at 8 and 16, to keep the test short on the host (each
  // block's barriers wait on 256 host threads).
  struct Size {
    unsigned w, h;
    std::vector<unsigned> depths;
  };
  const std::vector<unsigned> every = {8, 10, 12, 16};
  const unsigned one_w = vif::kStatsW;
  const unsigned one_h = vif::kStatsH;
  // 16 x 16: the smallest; one tile and one sample past it; 300 x 80: tiles
  // inside the picture at scales 0 and 1; 560 x 150: at scale 2 too. 70 x
  // 50 and 70 x 64: a block of the next scale whose input rows, unmirrored,
  // would reach one row past the picture (scale 0 to 1: a height of 16 k +
  // 18; scale 1 to 2: a scale-1 height of 16 k + 16), so it must take the
  // mirrored loads.
  const std::vector<Size> sizes = {
      {16, 16, every},  {one_w, one_h, every}, {one_w + 1, one_h + 1, every},
      {300, 80, every}, {560, 150, {8}},       {70, 50, {8, 16}},
      {70, 64, {8, 16}}};
  for (const Size& s : sizes) {
    for (const unsigned bpc : s.depths) {
      const PictureFormat fmt = testutil::format(s.w, s.h, bpc, ChromaFormat::k420);
      const std::string what =
          std::to_string(s.w) + "x" + std::to_string(s.h) + " " + std::to_string(bpc) + "-bit";
      std::mt19937 rng(s.w * 7 + s.h + bpc);
      const Picture ref = testutil::textured_picture(fmt, rng, 0.05, 0.11, 0.07);
      // Both loads where tiles lie inside the picture.
      expect_twins_equal(ref, testutil::distorted(ref, rng, 0.03), vif::kDefaultGainLimit,
                         what + ", textured", s.w >= 300);
      if (s.w == 300 && (bpc == 8 || bpc == 16)) {
        // The gain limit clamps g (vif_enhn_gain_limit at its minimum, 1).
        expect_twins_equal(ref, ref, 1.0, what + ", same picture, gain limit 1");
        // Flat against the largest values: every pixel on the linear side.
        const std::uint32_t max = (1U << bpc) - 1;
        expect_twins_equal(testutil::flat_picture(fmt, 0, 0), testutil::flat_picture(fmt, max, 0),
                           vif::kDefaultGainLimit, what + ", zero against max");
        std::mt19937 noise(bpc);
        expect_twins_equal(testutil::random_picture(fmt, noise, 0),
                           testutil::random_picture(fmt, noise, 0), vif::kDefaultGainLimit,
                           what + ", uniform noise");
      }
    }
  }
}

}  // namespace
}  // namespace vqx

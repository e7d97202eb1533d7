// Integer VIF's GPU kernels (src/metrics/vif/gpu_kernels.cuh), run here on
// the CPU, without a device (tests/unit/gpu_on_host.hpp): their own source,
// so the tiles, the word and sample loads, the mirrored borders, the
// barriers and the sums are the GPU twin's. The pyramid as gpu.cu launches
// it (each scale's stats, which make the next scale; subsample_kernel for
// scale 1 where scale 0's stats are skipped) must give, scale by
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

// The twin's launches (gpu.cu's VifTwin::launch, through the same
// launch_pyramid) on the host.
vif::FrameSums gpu_sums(const HostPlane& ref, const HostPlane& dis, unsigned width, unsigned height,
                        unsigned bpc, double gain_limit, bool skip_scale0) {
  vif::PyramidPlanes planes{.scale0 = {.ref = ref.base(),
                                       .dis = dis.base(),
                                       .pitch_ref = ref.pitch,
                                       .pitch_dis = dis.pitch,
                                       .w = static_cast<int>(width),
                                       .h = static_cast<int>(height)},
                            .ref = {},
                            .dis = {},
                            .pitch = {}};
  std::vector<std::uint16_t> scale_ref[vif::kScaleCount];
  std::vector<std::uint16_t> scale_dis[vif::kScaleCount];
  for (int scale = 1; scale < vif::kScaleCount; ++scale) {
    // Rows padded by a few samples, as on the device; every sample starts
    // as one no scale makes, so that a sample left unwritten shows.
    const std::size_t w = width >> scale;
    const std::size_t h = height >> scale;
    planes.pitch[scale] = (w + 3) * 2;
    scale_ref[scale].assign((w + 3) * h, 0xdead);
    scale_dis[scale].assign((w + 3) * h, 0xbeef);
    planes.ref[scale] = scale_ref[scale].data();
    planes.dis[scale] = scale_dis[scale].data();
  }
  unsigned long long totals[vif::kScaleCount][vif::kSums] = {};
  const Status done = vif::launch_pyramid<HostSum>(
      planes, bpc, gain_limit, skip_scale0, vif::log2_q11_table().data(), &totals[0][0],
      [](const char* /*what*/, auto kernel, dim3 grid, dim3 block, auto... args) {
        gpu_on_host::run_grid(grid, block, [&] { kernel(args...); });
        return Status::Ok();
      });
  EXPECT_TRUE(done.ok()) << done.message();
  vif::FrameSums out{};
  for (int scale = 0; scale < vif::kScaleCount; ++scale) {
    const unsigned long long* t = totals[scale];
    out[scale] =
        vif::finish_scale(static_cast<std::int64_t>(t[0]), static_cast<std::int64_t>(t[1]),
                          static_cast<std::int64_t>(t[2]), static_cast<std::int64_t>(t[3]));
  }
  return out;
}

// With `more`, also from rows one sample off a word, and with scale 0's
// statistics skipped (scale 1 then made by subsample_kernel).
void expect_twins_equal(const Picture& ref, const Picture& dis, double gain_limit,
                        const std::string& what, bool more = false) {
  const PictureFormat fmt = ref.format();
  vif::CpuKernel cpu;
  ASSERT_TRUE(cpu.init(fmt.width, fmt.height, fmt.bpc).ok()) << what;
  vif::FrameSums expected{};
  cpu.compute(ref.plane(0), dis.plane(0), vif::KernelParams{.gain_limit = gain_limit}, expected);
  const unsigned bytes = fmt.bpc > 8 ? 2 : 1;
  const std::size_t row = std::size_t{fmt.width} * bytes;
  // Word-aligned rows (the word loads where a tile is inside the picture),
  // then rows one sample off a word (the sample loads everywhere).
  enum Run { kAligned, kUnaligned, kSkipScale0 };
  for (const Run run : {kAligned, kUnaligned, kSkipScale0}) {
    if (run != kAligned && !more) break;
    const bool aligned = run != kUnaligned;
    const std::size_t offset = aligned ? 0 : bytes;
    const std::size_t pitch = aligned ? round_up(row, std::size_t{64}) : row + bytes;
    const HostPlane r = copy_plane(ref.plane(0), fmt.width, fmt.height, bytes, offset, pitch);
    const HostPlane d = copy_plane(dis.plane(0), fmt.width, fmt.height, bytes, offset, pitch);
    const bool skip = run == kSkipScale0;
    const vif::FrameSums got = gpu_sums(r, d, fmt.width, fmt.height, fmt.bpc, gain_limit, skip);
    for (int s = skip ? 1 : 0; s < vif::kScaleCount; ++s) {
      const std::string where = what + (skip ? ", scale 0 skipped" : "") +
                                (aligned ? ", aligned" : ", unaligned") + ", scale " +
                                std::to_string(s);
      EXPECT_EQ(expected[s].num, got[s].num) << where;
      EXPECT_EQ(expected[s].den, got[s].den) << where;
    }
  }
}

TEST(VifKernels, PyramidEqualsTheCpuTwin) {
  struct Size {
    unsigned w, h;
  };
  const unsigned one_w = vif::kStatsW;
  const unsigned one_h = vif::kStatsH;
  // 16 x 16: the smallest; one tile and one sample past it; 300 x 80: tiles
  // inside the picture at scales 0 and 1; 560 x 150: at scale 2 too.
  const std::vector<Size> sizes = {
      {16, 16}, {one_w, one_h}, {one_w + 1, one_h + 1}, {300, 80}, {560, 150}};
  for (const unsigned bpc : {8U, 10U, 12U, 16U}) {
    for (const Size s : sizes) {
      // The largest size at 8 bits and the extra pictures at 8 and 16, to
      // keep the test short on the host (each block's barriers wait on 256
      // host threads).
      if (s.w == 560 && bpc > 8) continue;
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

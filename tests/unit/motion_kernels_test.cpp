// The motion twin's GPU kernel (src/metrics/motion/gpu_kernels.cuh), run
// here on the CPU, without a device (tests/unit/gpu_on_host.hpp): its own
// source, so its tiles, mirrored borders, barrier and sums are the GPU
// twin's. Its SAD total must equal the CPU twin's (cpu.hpp's
// blurred_difference_sad) exactly: 8 to 16 bits, the smallest picture, one
// block exactly and one sample past it each way, several blocks with
// partial ones, and the largest differences (the 8-bit vertical sums'
// int32 bound).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/index_math.hpp"
#include "metrics/motion/cpu.hpp"
#include "test_util.hpp"
// What nvcc and hipcc provide, before the kernel.
#include "gpu_on_host.hpp"
#include "metrics/motion/gpu_kernels.cuh"

#undef __shared__

namespace vqx {
namespace {

struct HostSum {
  void add(unsigned long long* total, unsigned long long v) const {
    std::atomic_ref<unsigned long long>(*total).fetch_add(v);
  }
};

template <typename Sample>
motion::PlaneView<Sample> view(const Plane& p) {
  return {p.row<Sample>(0), static_cast<std::ptrdiff_t>(p.stride_bytes() / sizeof(Sample))};
}

std::uint64_t cpu_sad(const Picture& prev, const Picture& cur) {
  const unsigned w = prev.format().width;
  const unsigned h = prev.format().height;
  std::vector<std::int32_t> scratch(motion::scratch_size(w));
  if (prev.bpc() == 8) {
    return motion::blurred_difference_sad(view<std::uint8_t>(prev.plane(0)),
                                          view<std::uint8_t>(cur.plane(0)), w, h, scratch);
  }
  return motion::blurred_difference_sad(view<std::uint16_t>(prev.plane(0)),
                                        view<std::uint16_t>(cur.plane(0)), w, h, prev.bpc(),
                                        scratch);
}

// The twin's launch (gpu.cu).
std::uint64_t gpu_sad(const Picture& prev, const Picture& cur) {
  const PictureFormat fmt = prev.format();
  unsigned long long total = 0;
  const motion::SadArgs args{prev.plane(0).row<std::uint8_t>(0), prev.plane(0).stride_bytes(),
                             cur.plane(0).row<std::uint8_t>(0),  cur.plane(0).stride_bytes(),
                             static_cast<int>(fmt.width),        static_cast<int>(fmt.height),
                             static_cast<int>(fmt.bpc),          &total};
  const dim3 grid{ceil_div(fmt.width, unsigned{motion::kSadCols}),
                  ceil_div(fmt.height, unsigned{motion::kSadRows})};
  const dim3 block{static_cast<unsigned>(motion::kSadThreads)};
  if (fmt.bpc == 8) {
    gpu_on_host::run_grid(grid, block, [&] { motion::sad_kernel<std::uint8_t>(args, HostSum{}); });
  } else {
    gpu_on_host::run_grid(grid, block, [&] { motion::sad_kernel<std::uint16_t>(args, HostSum{}); });
  }
  return total;
}

void expect_twins_equal(const Picture& prev, const Picture& cur, const std::string& what) {
  const std::uint64_t cpu = cpu_sad(prev, cur);
  EXPECT_EQ(cpu, gpu_sad(prev, cur)) << what;
}

TEST(MotionKernels, SadEqualsTheCpuTwin) {
  struct Size {
    unsigned w, h;
  };
  const unsigned one_w = motion::kSadCols;
  const unsigned one_h = motion::kSadRows;
  const std::vector<Size> sizes = {
      {3, 3}, {16, 16}, {one_w, one_h}, {one_w + 1, one_h + 1}, {130, 37}, {2 * one_w + 9, 70}};
  for (const unsigned bpc : {8U, 10U, 16U}) {
    for (const Size s : sizes) {
      const PictureFormat fmt = testutil::format(s.w, s.h, bpc, ChromaFormat::k420);
      const std::string what =
          std::to_string(s.w) + "x" + std::to_string(s.h) + " " + std::to_string(bpc) + "-bit";
      std::mt19937 rng(s.w * 7 + s.h + bpc);
      const Picture prev = testutil::textured_picture(fmt, rng, 0.05, 0.11, 0.07);
      expect_twins_equal(prev, testutil::distorted(prev, rng, 0.02), what + ", small motion");
      expect_twins_equal(prev, testutil::distorted(prev, rng, 0.4), what + ", large motion");
      // The largest differences, both signs.
      const std::uint32_t max = (1U << bpc) - 1;
      const Picture zero = testutil::flat_picture(fmt, 0, 0);
      const Picture full = testutil::flat_picture(fmt, max, max);
      expect_twins_equal(zero, full, what + ", zero to max");
      expect_twins_equal(full, prev, what + ", max to textured");
    }
  }
}

}  // namespace
}  // namespace vqx

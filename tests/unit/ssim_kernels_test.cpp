// The SSIM twins' GPU kernels (src/metrics/ssim/gpu_kernels.cuh), run here
// on the CPU, without a device: each block's threads are threads of this
// process (std::thread), its barriers a std::barrier, its shared arrays
// shared by the block's threads. The kernels' own source is compiled, so
// their indexing, borders, barriers and order of sums are the GPU twin's;
// only the arithmetic is the CPU's IEEE arithmetic instead of the device's
// (equal by the argument of docs/gpu.md). Their results must equal the CPU
// twin's bit for bit: the window means, the subsampled images, and
// float_ms_ssim's and float_ssim's values through the twins' sequence of
// launches.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_on_host.hpp"  // before the kernels: what nvcc and hipcc provide
#include "metrics/families.hpp"
#include "metrics/ssim/decimate.hpp"
#include "metrics/ssim/geometry.hpp"
#include "metrics/ssim/gpu_kernels.cuh"
#include "metrics/ssim/image.hpp"
#include "metrics/ssim/params.hpp"
#include "metrics/ssim/scores.hpp"
#include "metrics/ssim/window.hpp"
#include "test_util.hpp"

#undef __shared__

namespace vqx {
namespace {

using ssim::FloatImage;
using ssim::FloatView;
using ssim::LumaView;
using ssim::RowSource;
using ssim::Size;
using ssim::WindowMeans;

using gpu_on_host::run_grid;

unsigned blocks(int n, unsigned per_block) { return ceil_div(static_cast<unsigned>(n), per_block); }

// A device-style float image on the host: rows `pitch` floats apart.
struct HostImage {
  Size size;
  std::size_t pitch = 0;
  std::vector<float> data;
  explicit HostImage(Size s)
      : size(s),
        pitch(static_cast<std::size_t>(s.width) + 3),
        data(pitch * static_cast<std::size_t>(s.height), -1.0f) {}
  [[nodiscard]] FloatView view() const { return {data.data(), pitch}; }
};

HostImage to_host_image(const FloatImage& img) {
  HostImage h({img.width(), img.height()});
  for (int y = 0; y < img.height(); ++y) {
    std::memcpy(h.data.data() + h.pitch * static_cast<std::size_t>(y), img.row(y),
                sizeof(float) * static_cast<std::size_t>(img.width()));
  }
  return h;
}

template <typename Sample>
LumaView<Sample> luma(const Plane& p, unsigned bpc) {
  return {p.row<std::uint8_t>(0), p.stride_bytes(), ssim::sample_unit(bpc)};
}

// The window as the GPU twin runs it (gpu_window.cuh's launches): the maps,
// the row sums, then the host's sums of the rows.
template <typename Source>
WindowMeans gpu_window(const Source& ref, const Source& cmp, Size size) {
  const int positions = ssim::window_positions(size.width);
  const int rows = ssim::window_positions(size.height);
  // Not the positions' floats: the kernels must use the pitch.
  const std::size_t pitch = static_cast<std::size_t>(positions) * ssim::kWindowMaps + 5;
  std::vector<float> maps(pitch * static_cast<std::size_t>(size.height), -1.0f);
  std::vector<double> row_sums(static_cast<std::size_t>(rows) * ssim::kTerms, -1.0);
  const ssim::MapsView view{maps.data(), pitch};
  const ssim::WindowTaps taps = ssim::window_taps();
  run_grid({blocks(positions, ssim::kWindowThreads), static_cast<unsigned>(size.height)},
           {ssim::kWindowThreads, 1},
           [&] { ssim::window_rows_kernel<Source>(ref, cmp, taps, positions, view); });
  run_grid({static_cast<unsigned>(rows), 1}, {ssim::kWindowThreads, 1}, [&] {
    ssim::window_terms_kernel<ssim::kSumGroup>(view, taps, positions, row_sums.data());
  });
  return ssim::window_means(ssim::add_rows(row_sums.data(), rows), positions * rows);
}

template <typename Source>
void gpu_decimate(const Source& ref, const Source& cmp, Size in, const ssim::SquareTaps& taps,
                  HostImage& ref_out, HostImage& cmp_out) {
  run_grid(
      {blocks(ref_out.size.width, ssim::kDecimateX), blocks(ref_out.size.height, ssim::kDecimateY)},
      {ssim::kDecimateX, ssim::kDecimateY}, [&] {
        ssim::decimate_kernel<Source>(ref, cmp, in, taps, ref_out.data.data(), cmp_out.data.data(),
                                      ref_out.pitch, ref_out.size);
      });
}

// MS-SSIM's low-pass, as the twin launches it (gpu_decimate.cuh: low_pass).
template <typename Source>
void gpu_low_pass(const Source& ref, const Source& cmp, Size in, HostImage& ref_out,
                  HostImage& cmp_out) {
  run_grid(
      {blocks(ref_out.size.width, ssim::kDecimateX), blocks(ref_out.size.height, ssim::kDecimateY)},
      {ssim::kDecimateX, ssim::kDecimateY}, [&] {
        ssim::low_pass_kernel<Source>(ref, cmp, in, ssim::low_pass_taps(), ref_out.data.data(),
                                      cmp_out.data.data(), ref_out.pitch, ref_out.size);
      });
}

void expect_same(const WindowMeans& gpu, const WindowMeans& cpu, const std::string& what) {
  EXPECT_EQ(std::memcmp(&gpu, &cpu, sizeof gpu), 0)
      << what << ": gpu " << gpu.ssim << " " << gpu.l << " " << gpu.c << " " << gpu.s << ", cpu "
      << cpu.ssim << " " << cpu.l << " " << cpu.c << " " << cpu.s;
}

void expect_same(const HostImage& gpu, const FloatImage& cpu, const std::string& what) {
  ASSERT_EQ(gpu.size.width, cpu.width());
  ASSERT_EQ(gpu.size.height, cpu.height());
  for (int y = 0; y < cpu.height(); ++y) {
    EXPECT_EQ(std::memcmp(gpu.data.data() + gpu.pitch * static_cast<std::size_t>(y), cpu.row(y),
                          sizeof(float) * static_cast<std::size_t>(cpu.width())),
              0)
        << what << ": row " << y;
  }
}

// Smooth content plus noise (of `noise` times the peak) in [0, 2^bpc).
Picture textured(const PictureFormat& fmt, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::textured_picture(fmt, rng, noise, 0.11, 0.07);
}

// `base` plus noise of `noise` times the peak.
Picture distorted(const Picture& base, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::distorted(base, rng, noise);
}

// ---------------------------------------------------------------------------

// Sizes with one position, one group, two groups (more than 256 positions
// a row) and a last run shorter than 16.
TEST(SsimKernels, WindowEqualsTheCpuTwinBitForBit) {
  ssim::SsimWindow window;
  window.init(300);
  for (const auto& [w, h, bpc] : std::vector<std::tuple<unsigned, unsigned, unsigned>>{
           {11, 11, 8}, {37, 23, 10}, {300, 17, 8}, {283, 14, 16}}) {
    const PictureFormat fmt = testutil::format(w, h, bpc);
    const Picture ref = textured(fmt, w * 7 + h, 0.02);
    const Picture dist = distorted(ref, w + bpc, 0.03);
    const std::string what =
        std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit";
    const Size size{static_cast<int>(w), static_cast<int>(h)};
    const WindowMeans cpu = window.compute(RowSource(ref.plane(0), bpc, size.width, size.height),
                                           RowSource(dist.plane(0), bpc, size.width, size.height));
    if (bpc == 8) {
      expect_same(gpu_window(luma<std::uint8_t>(ref.plane(0), bpc),
                             luma<std::uint8_t>(dist.plane(0), bpc), size),
                  cpu, what);
    } else {
      expect_same(gpu_window(luma<std::uint16_t>(ref.plane(0), bpc),
                             luma<std::uint16_t>(dist.plane(0), bpc), size),
                  cpu, what);
    }
    // The same pictures as float images (what the subsampled scales are).
    FloatImage ref_f(size.width, size.height);
    FloatImage dist_f(size.width, size.height);
    for (int y = 0; y < size.height; ++y) {  // converted into the images' rows
      (void)RowSource(ref.plane(0), bpc, size.width, size.height).row(y, ref_f.row(y));
      (void)RowSource(dist.plane(0), bpc, size.width, size.height).row(y, dist_f.row(y));
    }
    const HostImage ref_h = to_host_image(ref_f);
    const HostImage dist_h = to_host_image(dist_f);
    expect_same(gpu_window(ref_h.view(), dist_h.view(), size),
                window.compute(RowSource(ref_f), RowSource(dist_f)), what + " as floats");
  }
}

// The row sums themselves, doubles, before any rounding to float hides an
// order: each equals pointwise.hpp's row_sum() over the terms of its row
// (computed here on the host from the kernel's own maps), to the bit.
TEST(SsimKernels, RowSumsAreRowSumToTheBit) {
  const PictureFormat fmt = testutil::format(600, 13, 10);  // 590 positions: 3 groups
  const Picture ref = textured(fmt, 5, 0.05);
  const Picture dist = distorted(ref, 6, 0.05);
  const auto r = luma<std::uint16_t>(ref.plane(0), fmt.bpc);
  const auto d = luma<std::uint16_t>(dist.plane(0), fmt.bpc);
  const int positions = 590;
  const int rows = 3;
  const std::size_t pitch = 600 * ssim::kWindowMaps;
  std::vector<float> maps(pitch * fmt.height, -1.0f);
  std::vector<double> row_sums(static_cast<std::size_t>(rows) * ssim::kTerms, -1.0);
  const ssim::MapsView view{maps.data(), pitch};
  const ssim::WindowTaps taps = ssim::window_taps();
  run_grid({blocks(positions, ssim::kWindowThreads), fmt.height}, {ssim::kWindowThreads, 1},
           [&] { ssim::window_rows_kernel<LumaView<std::uint16_t>>(r, d, taps, positions, view); });
  run_grid({static_cast<unsigned>(rows), 1}, {ssim::kWindowThreads, 1}, [&] {
    ssim::window_terms_kernel<ssim::kSumGroup>(view, taps, positions, row_sums.data());
  });
  for (int y = 0; y < rows; ++y) {
    std::array<std::vector<double>, ssim::kTerms> t;
    for (auto& v : t) v.resize(static_cast<std::size_t>(positions));
    for (int x = 0; x < positions; ++x) {
      float f[ssim::kWindowMaps];
      for (int m = 0; m < ssim::kWindowMaps; ++m) {
        double sum = 0.0;
        for (int k = 0; k < ssim::kWindow; ++k) {
          sum += ssim::tap_term(view.at(y + k, x)[m], ssim::kGaussian[static_cast<std::size_t>(k)]);
        }
        f[m] = static_cast<float>(sum);
      }
      const ssim::Moments mo = ssim::moments(f[0], f[1], f[2], f[3], f[4]);
      const ssim::Terms te =
          ssim::terms(f[0], f[1], mo.var1, mo.var2, mo.cov, std::sqrt(mo.product));
      const auto i = static_cast<std::size_t>(x);
      t[ssim::kTermSsim][i] = te.ssim;
      t[ssim::kTermL][i] = te.l;
      t[ssim::kTermC][i] = te.c;
      t[ssim::kTermS][i] = te.s;
    }
    for (int k = 0; k < ssim::kTerms; ++k) {
      const double want = ssim::row_sum(t[static_cast<std::size_t>(k)].data(), positions);
      const double got = row_sums[static_cast<std::size_t>(y * ssim::kTerms + k)];
      EXPECT_EQ(std::memcmp(&want, &got, sizeof want), 0)
          << "row " << y << " term " << k << ": " << want << " vs " << got;
      // One chain in row order (libvmaf's) would differ in the last bits.
      double chain = 0.0;
      for (double v : t[static_cast<std::size_t>(k)]) chain += v;
      if (k == ssim::kTermSsim && y == 0) {
        std::printf("row 0, ssim term: fixed order %.17g, one chain %.17g\n", want, chain);
      }
    }
  }
}

TEST(SsimKernels, SubsamplingEqualsTheCpuTwinBitForBit) {
  for (const auto& [w, h, bpc, factor] : std::vector<std::tuple<unsigned, unsigned, unsigned, int>>{
           {45, 33, 8, 2}, {46, 31, 12, 3}, {53, 40, 10, 4}, {41, 29, 8, 10}}) {
    const PictureFormat fmt = testutil::format(w, h, bpc);
    const Picture ref = textured(fmt, w + static_cast<unsigned>(factor), 0.04);
    const Picture dist = distorted(ref, h, 0.02);
    const Size in{static_cast<int>(w), static_cast<int>(h)};
    const Size out{ssim::decimated_size(in.width, factor), ssim::decimated_size(in.height, factor)};
    const std::string what =
        std::to_string(w) + "x" + std::to_string(h) + " box " + std::to_string(factor);
    // float_ssim's box, from the luma.
    const std::vector<float> box(static_cast<std::size_t>(factor * factor), ssim::box_tap(factor));
    ssim::Decimator dec;
    dec.init(in.width, factor, factor);
    FloatImage ref_cpu(out.width, out.height);
    FloatImage dist_cpu(out.width, out.height);
    dec.run(RowSource(ref.plane(0), bpc, in.width, in.height), box, ref_cpu);
    dec.run(RowSource(dist.plane(0), bpc, in.width, in.height), box, dist_cpu);
    HostImage ref_gpu(out);
    HostImage dist_gpu(out);
    if (bpc == 8) {
      gpu_decimate(luma<std::uint8_t>(ref.plane(0), bpc), luma<std::uint8_t>(dist.plane(0), bpc),
                   in, ssim::box_taps(factor), ref_gpu, dist_gpu);
    } else {
      gpu_decimate(luma<std::uint16_t>(ref.plane(0), bpc), luma<std::uint16_t>(dist.plane(0), bpc),
                   in, ssim::box_taps(factor), ref_gpu, dist_gpu);
    }
    expect_same(ref_gpu, ref_cpu, what);
    expect_same(dist_gpu, dist_cpu, what);
    // MS-SSIM's low-pass, from a float image (scales 2 to 4 are made so),
    // where the image holds its border (decimate.hpp; MS-SSIM's are 22 or
    // more samples a side).
    if (out.width < (ssim::kLpfSize + 1) / 2 || out.height < (ssim::kLpfSize + 1) / 2) continue;
    const Size half{ssim::decimated_size(out.width, 2), ssim::decimated_size(out.height, 2)};
    ssim::Decimator lpf;
    lpf.init(out.width, ssim::kLpfSize, 2);
    FloatImage lp_cpu(half.width, half.height);
    lpf.run(RowSource(ref_cpu), ssim::kLowPass, lp_cpu);
    HostImage lp_gpu(half);
    HostImage lp_gpu2(half);
    gpu_low_pass(ref_gpu.view(), dist_gpu.view(), out, lp_gpu, lp_gpu2);
    expect_same(lp_gpu, lp_cpu, what + ", then the low-pass");
    FloatImage lp_dist_cpu(half.width, half.height);
    lpf.run(RowSource(dist_cpu), ssim::kLowPass, lp_dist_cpu);
    expect_same(lp_gpu2, lp_dist_cpu, what + ", then the low-pass (distorted)");
  }
}

// float_ms_ssim's values through the twin's launches (ms_ssim_gpu.cu: scale
// 1 from the luma, scales 2..4 from the scale before, the window on each,
// the host's finish), against the CPU extractor's, every output.
TEST(SsimKernels, MsSsimThroughTheTwinsLaunchesEqualsTheCpuTwin) {
  for (const auto& [w, h, bpc] :
       std::vector<std::tuple<unsigned, unsigned, unsigned>>{{176, 181, 10}, {283, 190, 8}}) {
    const PictureFormat fmt = testutil::format(w, h, bpc);
    const Picture ref = textured(fmt, 3 * w, 0.02);
    const Picture dist = distorted(ref, 5, 0.03);
    const auto scales = ssim::ms_ssim_scales(w, h);
    std::vector<HostImage> ref_s;
    std::vector<HostImage> dist_s;
    for (int k = 0; k < ssim::kScales; ++k) {
      ref_s.emplace_back(scales[static_cast<std::size_t>(k)]);
      dist_s.emplace_back(scales[static_cast<std::size_t>(k)]);
    }
    std::array<WindowMeans, ssim::kScales> means{};
    auto scale0 = [&](const auto& r, const auto& d) {
      gpu_low_pass(r, d, scales[0], ref_s[1], dist_s[1]);
      means[0] = gpu_window(r, d, scales[0]);
    };
    if (bpc == 8) {
      scale0(luma<std::uint8_t>(ref.plane(0), bpc), luma<std::uint8_t>(dist.plane(0), bpc));
    } else {
      scale0(luma<std::uint16_t>(ref.plane(0), bpc), luma<std::uint16_t>(dist.plane(0), bpc));
    }
    for (std::size_t k = 1; k < ssim::kScales; ++k) {
      if (k + 1 < ssim::kScales) {
        gpu_low_pass(ref_s[k].view(), dist_s[k].view(), scales[k], ref_s[k + 1], dist_s[k + 1]);
      }
      means[k] = gpu_window(ref_s[k].view(), dist_s[k].view(), scales[k]);
    }
    testutil::LastValueWriter gpu_out;
    ssim::write_ms_ssim({.enable_lcs = true}, 0.0, ssim::ms_ssim_score(means), means, 0, gpu_out);
    const ExtractorSpec spec = testutil::spec_for(float_ms_ssim_family(), {{"enable_lcs", "true"}});
    const std::vector<double> cpu = testutil::output_values(spec, ref, dist);
    ASSERT_EQ(cpu.size(), 1U + 3 * ssim::kScales);
    for (std::size_t i = 0; i < cpu.size(); ++i) {
      EXPECT_EQ(std::memcmp(&cpu[i], &gpu_out.values[i], sizeof(double)), 0)
          << w << "x" << h << " output " << spec.outputs[i].name << ": cpu " << cpu[i] << " gpu "
          << gpu_out.values[i];
    }
  }
}

// float_ssim at full resolution and subsampled by 2 and 3.
TEST(SsimKernels, SsimThroughTheTwinsLaunchesEqualsTheCpuTwin) {
  const PictureFormat fmt = testutil::format(201, 150, 12);
  const Picture ref = textured(fmt, 77, 0.02);
  const Picture dist = distorted(ref, 8, 0.05);
  for (int scale : {1, 2, 3}) {
    const auto g = ssim::ssim_geometry(scale, fmt.width, fmt.height);
    ASSERT_TRUE(g.ok());
    const Size in{static_cast<int>(fmt.width), static_cast<int>(fmt.height)};
    const auto ref_l = luma<std::uint16_t>(ref.plane(0), fmt.bpc);
    const auto dist_l = luma<std::uint16_t>(dist.plane(0), fmt.bpc);
    WindowMeans means{};
    if (g->factor == 1) {
      means = gpu_window(ref_l, dist_l, g->window);
    } else {
      HostImage ref_s(g->window);
      HostImage dist_s(g->window);
      gpu_decimate(ref_l, dist_l, in, ssim::box_taps(g->factor), ref_s, dist_s);
      means = gpu_window(ref_s.view(), dist_s.view(), g->window);
    }
    testutil::LastValueWriter gpu_out;
    ssim::write_ssim({.enable_lcs = true, .scale = scale}, 0.0, means, 0, gpu_out);
    const ExtractorSpec spec = testutil::spec_for(
        float_ssim_family(), {{"enable_lcs", "true"}, {"scale", std::to_string(scale)}});
    const std::vector<double> cpu = testutil::output_values(spec, ref, dist);
    ASSERT_EQ(cpu.size(), 4U);
    for (std::size_t i = 0; i < cpu.size(); ++i) {
      EXPECT_EQ(std::memcmp(&cpu[i], &gpu_out.values[i], sizeof(double)), 0)
          << "scale " << scale << " output " << spec.outputs[i].name << ": cpu " << cpu[i]
          << " gpu " << gpu_out.values[i];
    }
  }
}

}  // namespace
}  // namespace vqx

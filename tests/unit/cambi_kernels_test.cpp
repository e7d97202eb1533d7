// The CAMBI twin's GPU kernels (src/metrics/cambi/gpu_kernels.cuh and
// gpu_pool_kernels.cuh), run here on the CPU, without a device: the
// kernels' own source, compiled as host code; kernels that synchronise
// their block run each block's threads as threads of this process (a
// std::barrier for __syncthreads, the block's shared arrays shared by its
// threads), the others thread after thread. Their integer counts go
// through a host Count (atomic_ref), where the device's goes through
// gpu/reduce.cuh. The launches follow the twin's (gpu.cu), step for step,
// and the results must equal the CPU twin's bit for bit: the outputs of
// the extractor for every kind of option, the heatmap files, the range
// check's message, and the pooling on every path. Only the device's
// arithmetic is left to the argument of docs/gpu.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

// ---------------------------------------------------------------------------
// What nvcc and hipcc provide, for host threads (internal to this test:
// ssim_kernels_test.cpp has its own)

namespace {
struct dim3 {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;
};
thread_local dim3 threadIdx;
thread_local dim3 blockIdx;
thread_local dim3 gridDim;
thread_local std::barrier<>* t_block_barrier = nullptr;
inline void __syncthreads() { t_block_barrier->arrive_and_wait(); }
}  // namespace
#define __global__
#define __device__
#define __launch_bounds__(...)
// One array per kernel instantiation, which a block's threads share; the
// blocks run one after the other.
#define __shared__ static

#include "metrics/cambi/gpu_kernels.cuh"
#include "metrics/cambi/gpu_pool_kernels.cuh"

#undef __shared__

#include "metrics/cambi/contrast.hpp"
#include "metrics/cambi/heatmap.hpp"
#include "metrics/cambi/pooling.hpp"
#include "metrics/cambi/preprocess.hpp"
#include "metrics/cambi/setup.hpp"
#include "metrics/cambi/spatial.hpp"
#include "metrics/families.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

using cambi::ScaleSums;
using testutil::MapWriter;

// The twin's integer counts, on host threads.
struct HostCount {
  void add(unsigned long long* total, unsigned long long v) const {
    std::atomic_ref<unsigned long long>(*total).fetch_add(v);
  }
  void bump(unsigned* bin) const { std::atomic_ref<unsigned>(*bin).fetch_add(1U); }
  void add_to(unsigned* bin, unsigned n) const { std::atomic_ref<unsigned>(*bin).fetch_add(n); }
};

// A grid whose blocks synchronise: one host thread per GPU thread of a
// block, the blocks one after the other (a barrier between them).
template <typename Kernel>
void run_grid(dim3 grid, dim3 block, const Kernel& kernel) {
  const unsigned threads = block.x * block.y;
  std::barrier<> barrier(threads);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned ty = 0; ty < block.y; ++ty) {
    for (unsigned tx = 0; tx < block.x; ++tx) {
      pool.emplace_back([&, tx, ty] {
        threadIdx = {tx, ty, 1};
        gridDim = grid;
        t_block_barrier = &barrier;
        for (unsigned by = 0; by < grid.y; ++by) {
          for (unsigned bx = 0; bx < grid.x; ++bx) {
            blockIdx = {bx, by, 1};
            kernel();
            barrier.arrive_and_wait();  // the block's end
          }
        }
      });
    }
  }
  for (auto& t : pool) t.join();
}

// A grid whose kernel never synchronises: every thread in turn, here.
template <typename Kernel>
void run_each(dim3 grid, dim3 block, const Kernel& kernel) {
  gridDim = grid;
  for (unsigned by = 0; by < grid.y; ++by) {
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      blockIdx = {bx, by, 1};
      for (unsigned ty = 0; ty < block.y; ++ty) {
        for (unsigned tx = 0; tx < block.x; ++tx) {
          threadIdx = {tx, ty, 1};
          kernel();
        }
      }
    }
  }
}

const dim3 kPixelBlock{cambi::kPixelThreadsX, cambi::kPixelThreadsY, 1};
dim3 pixel_grid(unsigned w, unsigned h) {
  return {cambi::pixel_blocks_x(w), cambi::pixel_blocks_y(h), 1};
}

// ---------------------------------------------------------------------------
// The twin's launches (gpu.cu), on host memory

// The pooling of one scale (gpu.cu's four pooling launches); the scale's
// sums as the host reads them back.
ScaleSums pool_scale(ScaleSums sums, const std::vector<unsigned>& buckets,
                     std::vector<float>& values, unsigned long long k) {
  std::vector<unsigned> low(cambi::kLowCounts, 0U);
  std::vector<unsigned> bucket_copy = buckets;
  const cambi::PoolArgs a{&sums, bucket_copy.data(), low.data(), values.data(), values.size(), k};
  const HostCount count;
  // split_kernel and finish_kernel return before their first barrier on
  // the other paths (their first statements): then they can run thread by
  // thread, which is much cheaper here than a block of host threads.
  const bool selects = cambi::pool_path(sums.units, sums.nonzero, k) == cambi::PoolPath::kLargest;
  const auto run_pool_block = [&](const auto& kernel) {
    if (selects) {
      run_grid({1, 1, 1}, {cambi::kPoolThreads, 1, 1}, kernel);
    } else {
      run_each({1, 1, 1}, {cambi::kPoolThreads, 1, 1}, kernel);
    }
  };
  run_pool_block([&] { cambi::split_kernel(a); });
  run_each(
      {static_cast<unsigned>(ceil_div(values.size(), std::size_t{cambi::kPass2Threads})), 1, 1},
      {cambi::kPass2Threads, 1, 1}, [&] { cambi::pass2_kernel(a, count); });
  run_pool_block([&] { cambi::finish_kernel(a, count); });
  run_each({1, 1, 1}, {1, 1, 1}, [&] { cambi::ordered_kernel(a); });
  return sums;
}

struct PassResult {
  double score = 0;
  std::array<std::vector<float>, cambi::kScaleCount> values;  // each scale's, before pooling
  std::vector<std::uint32_t> row_max;
};

template <typename Sample>
PassResult gpu_pass(const Plane& luma, unsigned bpc, const cambi::Setup& setup,
                    const cambi::Geometry& g, const cambi::Params& p) {
  PassResult out;
  const cambi::LumaPlane plane{luma.row<std::uint8_t>(0), luma.stride_bytes(), luma.width(),
                               luma.height()};
  // Positions (the twin's first launch) and the range check.
  std::vector<unsigned> xs(g.width);
  std::vector<unsigned> ys(g.height);
  const bool resampled = !g.xs.empty();
  if (resampled) {
    run_each({1, 1, 1}, {1, 1, 1},
             [&] { cambi::positions_kernel(g.in_width, g.width, xs.data()); });
    run_each({1, 1, 1}, {1, 1, 1},
             [&] { cambi::positions_kernel(g.in_height, g.height, ys.data()); });
    EXPECT_EQ(xs, g.xs);
    EXPECT_EQ(ys, g.ys);
  }
  if (cambi::depth_can_overflow(bpc)) {
    std::vector<std::uint32_t> lanes(std::size_t{luma.height()} * cambi::kPixelThreadsX, 0xDEAD);
    out.row_max.assign(luma.height(), 0xDEAD);
    run_each({1, cambi::pixel_blocks_y(luma.height()), 1}, kPixelBlock,
             [&] { cambi::row_lanes_kernel<Sample>(plane, lanes.data()); });
    run_each({ceil_div(luma.height(), cambi::kRowThreads), 1, 1}, {cambi::kRowThreads, 1, 1},
             [&] { cambi::row_max_kernel(lanes.data(), luma.height(), out.row_max.data()); });
  }
  // The 10-bit picture, its mask, scale 0.
  const unsigned w = g.width;
  const unsigned h = g.height;
  std::vector<std::uint16_t> full(std::size_t{w} * h, 0xBEEF);
  std::vector<std::uint8_t> flags(full.size(), 7);
  std::vector<std::uint8_t> mask(full.size(), 7);
  const cambi::PreprocessArgs pre{plane,
                                  cambi::TenBit(bpc),
                                  resampled ? xs.data() : nullptr,
                                  resampled ? ys.data() : nullptr,
                                  w,
                                  h,
                                  setup.anti_dither,
                                  full.data()};
  run_each(pixel_grid(w, h), kPixelBlock, [&] { cambi::preprocess_kernel<Sample>(pre); });
  run_each(pixel_grid(w, h), kPixelBlock,
           [&] { cambi::derivative_kernel(full.data(), w, h, flags.data()); });
  const int threshold = cambi::flat_threshold(w, h);
  run_grid({pixel_grid(w, h).x, ceil_div(h, cambi::kMaskRows), 1}, kPixelBlock,
           [&] { cambi::mask_kernel(flags.data(), w, h, threshold, mask.data()); });
  std::vector<std::uint16_t> img = full;
  std::vector<std::uint8_t> img_mask = mask;
  if (g.half_first) {
    const std::size_t half = std::size_t{(w + 1) / 2} * ((h + 1) / 2);
    img.assign(half, 0xBEEF);
    img_mask.assign(half, 7);
    const dim3 grid = pixel_grid((w + 1) / 2, (h + 1) / 2);
    run_each(grid, kPixelBlock,
             [&] { cambi::decimate_kernel<std::uint16_t>(full.data(), w, h, img.data()); });
    run_each(grid, kPixelBlock,
             [&] { cambi::decimate_kernel<std::uint8_t>(mask.data(), w, h, img_mask.data()); });
  }
  // The scales.
  const cambi::ContrastArgs contrast = cambi::contrast_args(setup.tables);
  const std::vector<float> reciprocal = cambi::reciprocal_table();
  std::array<double, cambi::kScaleCount> pooled{};
  for (unsigned s = 0; s < cambi::kScaleCount; ++s) {
    const unsigned sw = g.scale_width[s];
    const unsigned sh = g.scale_height[s];
    EXPECT_EQ(img.size(), std::size_t{sw} * sh);
    const bool last = s + 1 == cambi::kScaleCount;
    const std::size_t next = std::size_t{(sw + 1) / 2} * ((sh + 1) / 2);
    std::vector<std::uint16_t> codes(std::size_t{sw} * sh, 0xBEEF);
    std::vector<std::uint16_t> next_img(next, 0xBEEF);
    std::vector<std::uint8_t> next_mask(next, 7);
    const cambi::ModeArgs mode{img.data(),
                               img_mask.data(),
                               sw,
                               sh,
                               contrast.band_base,
                               contrast.band_size,
                               codes.data(),
                               last ? nullptr : next_img.data(),
                               last ? nullptr : next_mask.data()};
    run_each(pixel_grid(sw, sh), kPixelBlock, [&] { cambi::mode_codes_kernel(mode); });
    std::vector<float>& values = out.values[s];
    values.assign(codes.size(), -1.0f);
    ScaleSums sums{};
    std::vector<unsigned> buckets(cambi::kBucketCount, 0U);
    const cambi::ValueArgs va{
        codes.data(),  sw, sh, g.window / 2, reciprocal.data(), values.data(), &sums,
        buckets.data()};
    const HostCount count;
    const dim3 grid{cambi::tile_blocks_x(sw), cambi::tile_blocks_y(sh), 1};
    const auto values_kernel = [&]<unsigned K>() {
      run_grid(grid, {cambi::kPixelThreadsX, cambi::kValueThreadsY, 1},
               [&] { cambi::values_kernel<K>(va, contrast, count); });
    };
    switch (setup.tables.num_diffs) {
      case 1:
        values_kernel.template operator()<1>();
        break;
      case 2:
        values_kernel.template operator()<2>();
        break;
      case 4:
        values_kernel.template operator()<4>();
        break;
      case 8:
        values_kernel.template operator()<8>();
        break;
      case 16:
        values_kernel.template operator()<16>();
        break;
      default:
        values_kernel.template operator()<cambi::kMaxDiffs>();
        break;
    }
    std::vector<float> pooling = values;  // ordered_kernel rearranges its copy
    const unsigned long long k = cambi::topk_count(values.size(), p.topk);
    pooled[s] = cambi::pooled_value(pool_scale(sums, buckets, pooling, k), k);
    img = std::move(next_img);
    img_mask = std::move(next_mask);
  }
  out.score = cambi::weighted_score(pooled, g.window);
  return out;
}

// The twin's outputs for one frame (gpu.cu's collect()), or its error.
Status gpu_frame(const cambi::Params& p, const Picture& ref, const Picture& dist, unsigned index,
                 MapWriter& out, cambi::HeatmapWriter* heatmaps = nullptr) {
  VQX_ASSIGN_OR_RETURN(const cambi::Setup setup, cambi::make_setup(p, dist.format()));
  const unsigned bpc = dist.bpc();
  std::array<double, 2> score{};
  for (unsigned pass = 0; pass < (p.full_ref ? 2U : 1U); ++pass) {
    const Picture& pic = pass == 0 ? dist : ref;
    const cambi::Geometry& g = pass == 0 ? setup.enc : setup.src;
    const PassResult r = bpc == 8 ? gpu_pass<std::uint8_t>(pic.plane(0), bpc, setup, g, p)
                                  : gpu_pass<std::uint16_t>(pic.plane(0), bpc, setup, g, p);
    if (cambi::depth_can_overflow(bpc)) {
      for (std::uint32_t m : r.row_max) {
        if (m > (1U << bpc) - 1) return cambi::sample_above_depth(bpc, m);
      }
    }
    score[pass] = r.score;
    if (pass == 0 && heatmaps != nullptr) {
      for (unsigned s = 0; s < cambi::kScaleCount; ++s) {
        const unsigned w = g.scale_width[s];
        const unsigned h = g.scale_height[s];
        for (unsigned i = 0; i < h; ++i) {
          VQX_RETURN_IF_ERROR(
              heatmaps->write_row(s, index, i, w, h, r.values[s].data() + std::size_t{i} * w));
        }
      }
    }
  }
  cambi::write_scores(p, index, score[0], score[1], out);
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// Pictures and comparisons

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(cambi_family(), options);
}

// Gradients that band (diagonal, quantised to the depth), flat patches,
// and noise in places; `noise` in 8-bit levels.
Picture banded(const PictureFormat& fmt, unsigned seed, double base, double span, int noise) {
  std::mt19937 rng(seed);
  const double scale = static_cast<double>(1U << (fmt.bpc - 8));
  const double w = fmt.width;
  const double h = fmt.height;
  return testutil::grey_chroma::make_picture(fmt, [&](unsigned x, unsigned y) {
    double level = base + span * (x / w + y / h) / 2.0;
    if ((x / 23 + y / 17) % 4 == 0 && noise > 0) {
      level += static_cast<double>(static_cast<int>(rng() % (2 * noise + 1)) - noise);
    }
    if ((x / 40 + y / 30) % 5 == 1) level = base + span / 3;  // flat patches
    const double max = static_cast<double>((1U << fmt.bpc) - 1);
    return static_cast<std::uint32_t>(
        std::clamp(std::lround(level * scale), 0L, static_cast<long>(max)));
  });
}

struct Outputs {
  Status status = Status::Ok();
  std::map<std::size_t, double> values;  // slot -> value (frame 0)
};

Outputs cpu_outputs(const OptionMap& options, const Picture& ref, const Picture& dist) {
  Outputs o;
  auto ex = spec_for(options).make();
  MapWriter out;
  o.status = ex->init(dist.format());
  if (o.status.ok()) o.status = ex->extract(ref, dist, 0, out);
  if (o.status.ok()) o.status = ex->flush(out);
  for (const auto& [key, v] : out.values) o.values[key.first] = v;
  return o;
}

Outputs gpu_outputs(const OptionMap& options, const Picture& ref, const Picture& dist) {
  Outputs o;
  auto params = cambi::read_params(spec_for(options).options);
  EXPECT_TRUE(params.ok());
  MapWriter out;
  o.status = gpu_frame(*params, ref, dist, 0, out);
  for (const auto& [key, v] : out.values) o.values[key.first] = v;
  return o;
}

using testutil::bits;

void expect_same_outputs(const OptionMap& options, const Picture& ref, const Picture& dist,
                         const std::string& what) {
  const Outputs cpu = cpu_outputs(options, ref, dist);
  const Outputs gpu = gpu_outputs(options, ref, dist);
  ASSERT_TRUE(cpu.status.ok()) << what << ": " << cpu.status.message();
  ASSERT_TRUE(gpu.status.ok()) << what << ": " << gpu.status.message();
  ASSERT_EQ(cpu.values.size(), gpu.values.size()) << what;
  for (const auto& [slot, v] : cpu.values) {
    EXPECT_EQ(bits(v), bits(gpu.values.at(slot)))
        << what << ": output " << slot << " cpu " << v << " gpu " << gpu.values.at(slot);
  }
  std::printf("%s: cambi %.17g\n", what.c_str(), cpu.values.at(0));
}

std::string describe(const PictureFormat& f, const OptionMap& options) {
  std::string s = std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
                  std::to_string(f.bpc) + "-bit";
  for (const auto& [k, v] : options) s += " " + k + "=" + v;
  return s;
}

// ---------------------------------------------------------------------------

// One picture pair (banded) and the options it is scored with.
struct Case {
  unsigned w, h, bpc;
  OptionMap options;
  double base, span;
  int noise;
};

void expect_cases(const std::vector<Case>& cases, unsigned seed) {
  for (const Case& c : cases) {
    const PictureFormat fmt = testutil::format(c.w, c.h, c.bpc);
    const Picture dist = banded(fmt, seed++, c.base, c.span, c.noise);
    const Picture ref = banded(fmt, seed++, c.base + 3, c.span / 2, 0);
    expect_same_outputs(c.options, ref, dist, describe(fmt, c.options));
  }
}

// Every depth the family takes, odd sizes, both pooling paths that occur
// on pictures (at most k values non-zero; more, with topk small), every
// num_diffs (1 to 32), the thresholds and EOTFs.
TEST(CambiKernels, OutputsEqualTheCpuTwinBitForBit) {
  expect_cases(
      {
          {300, 220, 8, {}, 60, 40, 2},                             // anti-dithered
          {257, 231, 10, {}, 60, 30, 1},                            // odd sizes
          {241, 216, 9, {{"max_log_contrast", "0"}}, 50, 30, 1},    // K = 1
          {250, 220, 10, {{"max_log_contrast", "0"}}, 50, 8, 0},    // K = 1, steps of 1
          {233, 250, 12, {{"max_log_contrast", "3"}}, 70, 60, 3},   // K = 8, rounding down
          {216, 217, 16, {{"max_log_contrast", "4"}}, 40, 80, 2},   // K = 16
          {300, 219, 11, {{"max_log_contrast", "5"}}, 30, 120, 4},  // K = 32
          {280, 230, 10, {{"topk", "0.0001"}}, 60, 40, 1},          // the k largest
          {280, 230, 8, {{"cambi_topk", "1.0"}}, 60, 40, 1},        // every value
          {260, 240, 10, {{"tvi_threshold", "0.1"}, {"eotf", "pq"}}, 100, 80, 2},
          {260, 240, 10, {{"cambi_vis_lum_threshold", "5"}, {"cambi_eotf", "pq"}}, 40, 60, 1},
      },
      1);
}

// Windows of radius 0 to 32, resampling, the encoding depth, full_ref with
// a source size, clipping.
TEST(CambiKernels, SizesAndOutputsEqualTheCpuTwinBitForBit) {
  expect_cases(
      {
          {320, 230, 10, {{"window_size", "127"}}, 60, 30, 1},  // the widest window
          {320, 230, 10, {{"window_size", "15"}}, 60, 30, 1},   // radius 0
          {600, 420, 10, {{"window_size", "31"}}, 60, 30, 1},
          {400, 300, 10, {{"enc_width", "320"}, {"enc_height", "240"}}, 60, 30, 1},  // resampled
          {400, 300, 10, {{"enc_width", "217"}, {"enc_height", "163"}}, 60, 30, 1},  // odd steps
          {300, 240, 10, {{"enc_bitdepth", "8"}}, 60, 30, 1},  // anti-dithered 10-bit
          {400, 300, 8, {{"full_ref", "true"}}, 60, 30, 2},
          {400,
           300,
           10,
           {{"full_ref", "true"}, {"src_width", "320"}, {"src_height", "240"}},
           60,
           30,
           1},
          {240, 136, 8, {{"cambi_max_val", "0.5"}}, 60, 40, 2},  // clipped
      },
      100);
}

// Flat, all-max, all-zero and noise pictures, and a full-range ramp.
TEST(CambiKernels, AdversarialPicturesEqualTheCpuTwin) {
  const PictureFormat fmt = testutil::format(231, 217, 10);
  std::mt19937 rng(5);
  std::vector<std::pair<const char*, Picture>> pictures;
  pictures.emplace_back("flat", testutil::grey_chroma::flat_picture(fmt, 300));
  pictures.emplace_back("all max", testutil::grey_chroma::flat_picture(fmt, 1023));
  pictures.emplace_back("all zero", testutil::grey_chroma::flat_picture(fmt, 0));
  pictures.emplace_back("noise", testutil::grey_chroma::random_picture(fmt, rng));
  pictures.emplace_back("ramp",
                        testutil::grey_chroma::make_picture(
                            fmt, [](unsigned x, unsigned y) { return (x * 4 + y) % 1024; }));
  // Wide bands two levels apart.
  pictures.emplace_back("steps", testutil::grey_chroma::make_picture(
                                     fmt, [](unsigned x, unsigned) { return 200 + (x / 20) * 2; }));
  for (const auto& [name, pic] : pictures) {
    expect_same_outputs({{"full_ref", "true"}}, pic, pic, name);
    expect_same_outputs({{"topk", "0.0001"}, {"max_log_contrast", "3"}}, pic, pic,
                        std::string(name) + ", topk 0.0001, K 8");
  }
}

// The high-resolution speed-up halves scale 0 (1920x1080 and up).
TEST(CambiKernels, HighResolutionSpeedUpEqualsTheCpuTwin) {
  const PictureFormat fmt = testutil::format(1920, 1080, 8);
  const Picture pic = banded(fmt, 9, 60, 40, 2);
  expect_same_outputs({{"cambi_high_res_speedup", "1080"}}, pic, pic, "1920x1080 hrs=1080");
}

// The widest window (65: radius 32, the tile's largest margin): window_size
// 127 where width + height reach 3024, the smallest scale 32 high. Wide
// vertical steps keep most codes equal down a column (the counts slide).
TEST(CambiKernels, WidestWindowEqualsTheCpuTwin) {
  const PictureFormat fmt = testutil::format(2512, 512, 10);
  const Picture pic = testutil::grey_chroma::make_picture(fmt, [](unsigned x, unsigned y) {
    return 200 + ((x / 40 + y / 200) % 4) + ((x / 300) % 2) * 5;
  });
  expect_same_outputs({{"window_size", "127"}}, pic, pic, "2512x512 window_size=127");
}

// A sample above the depth: the CPU's error, from the row maxima.
TEST(CambiKernels, SamplesAboveTheDepthGiveTheCpuError) {
  const PictureFormat fmt = testutil::format(240, 220, 10);
  Picture bad = banded(fmt, 3, 60, 30, 1);
  bad.plane(0).row<std::uint16_t>(7)[11] = 1500;
  bad.plane(0).row<std::uint16_t>(9)[3] = 1900;  // a later row: not the one reported
  const Picture good = banded(fmt, 4, 60, 30, 1);
  for (const OptionMap& options :
       {OptionMap{}, OptionMap{{"enc_width", "200"}, {"enc_height", "190"}}}) {
    for (const bool bad_dist : {true, false}) {
      OptionMap o = options;
      o["full_ref"] = "true";
      const Picture& dist = bad_dist ? bad : good;
      const Picture& ref = bad_dist ? good : bad;
      const Outputs cpu = cpu_outputs(o, ref, dist);
      const Outputs gpu = gpu_outputs(o, ref, dist);
      ASSERT_FALSE(cpu.status.ok());
      ASSERT_FALSE(gpu.status.ok());
      EXPECT_EQ(cpu.status.message(), gpu.status.message());
    }
  }
}

// The heatmap files the twin's host side writes from the device's values
// equal the CPU twin's, byte for byte.
TEST(CambiKernels, HeatmapFilesEqualTheCpuTwins) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "vqx_cambi_kernels_heatmaps";
  fs::remove_all(root);
  const PictureFormat fmt = testutil::format(250, 217, 10);
  const Picture a = banded(fmt, 21, 60, 30, 1);
  const Picture b = banded(fmt, 22, 80, 50, 2);
  const OptionMap options = {{"heatmaps_path", (root / "cpu").string()}};
  auto ex = spec_for(options).make();
  ASSERT_TRUE(ex->init(fmt).ok());
  MapWriter cpu_out;
  ASSERT_TRUE(ex->extract(a, a, 0, cpu_out).ok());
  ASSERT_TRUE(ex->extract(b, b, 1, cpu_out).ok());
  ASSERT_TRUE(ex->flush(cpu_out).ok());

  auto params = cambi::read_params(spec_for(options).options);
  ASSERT_TRUE(params.ok());
  auto setup = cambi::make_setup(*params, fmt);
  ASSERT_TRUE(setup.ok());
  cambi::HeatmapWriter writer(std::make_shared<OutputFiles>());
  ASSERT_TRUE(writer
                  .open((root / "gpu").string(), setup->enc.width, setup->enc.height,
                        setup->enc.window, setup->max_weight)
                  .ok());
  MapWriter gpu_out;
  ASSERT_TRUE(gpu_frame(*params, a, a, 0, gpu_out, &writer).ok());
  ASSERT_TRUE(gpu_frame(*params, b, b, 1, gpu_out, &writer).ok());
  ASSERT_TRUE(writer.close().ok());
  EXPECT_EQ(cpu_out.values, gpu_out.values);
  unsigned files = 0;
  for (const auto& e : fs::directory_iterator(root / "cpu")) {
    std::ifstream c(e.path(), std::ios::binary);
    std::ifstream g(root / "gpu" / e.path().filename(), std::ios::binary);
    const std::string cpu_bytes((std::istreambuf_iterator<char>(c)), {});
    const std::string gpu_bytes((std::istreambuf_iterator<char>(g)), {});
    EXPECT_FALSE(cpu_bytes.empty()) << e.path();
    EXPECT_EQ(cpu_bytes, gpu_bytes) << e.path().filename();
    ++files;
  }
  EXPECT_EQ(files, cambi::kScaleCount);
  fs::remove_all(root);
}

// The pooling kernels on value arrays of every path, against the CPU's
// pooling (Scorer::scale_score()'s three ways): at most k non-zero, the k
// largest, and sums of 2^29 or more (libvmaf's order), with ties and
// zeros.
TEST(CambiKernels, PoolingEqualsTheCpuOnEveryPath) {
  std::mt19937 rng(17);
  std::vector<std::uint32_t> low(cambi::kLowCounts);
  const std::vector<float> reciprocal = cambi::reciprocal_table();
  unsigned paths[3] = {0, 0, 0};
  for (int trial = 0; trial < 24; ++trial) {
    // Every fourth trial: values that sum past 2^29 (libvmaf's order).
    const bool huge = trial % 4 == 3;
    std::vector<float> values(huge ? 100000 + rng() % 20000 : 500 + rng() % 5000);
    const unsigned zero_share = huge ? 0 : rng() % 4;  // in quarters
    const unsigned counts = huge ? 600 : 300;
    const unsigned count_base = huge ? 1500 : 1;
    for (float& v : values) {
      if (rng() % 4 < zero_share) {
        v = 0.0f;
        continue;
      }
      // As contrast values are: weight * own * other times a reciprocal.
      const int own = static_cast<int>(count_base + rng() % counts);
      const int other = static_cast<int>(count_base + rng() % counts);
      const int weight = static_cast<int>(huge ? 5 + rng() % 5 : 1 + rng() % 9);
      v = cambi::contrast_term(weight, own, other,
                               reciprocal[static_cast<std::size_t>(own + other)]);
    }
    const double topk = trial % 3 == 0 ? 0.01 : (trial % 3 == 1 ? 0.6 : 1.0);
    const unsigned long long k = cambi::topk_count(values.size(), topk);
    // The CPU's sums and pooling.
    ScaleSums sums{};
    std::vector<unsigned> buckets(cambi::kBucketCount, 0U);
    for (float v : values) {
      sums.units += cambi::value_units(v);
      sums.nonzero += v > 0.0f ? 1U : 0U;
      if (cambi::bucket_of(v) != 0) ++buckets[cambi::bucket_of(v)];
    }
    const cambi::PoolPath path = cambi::pool_path(sums.units, sums.nonzero, k);
    std::vector<float> cpu_values = values;
    double cpu = 0;
    switch (path) {
      case cambi::PoolPath::kOrdered:
        cpu = cambi::ordered_largest_sum(cpu_values, k) / static_cast<double>(k);
        break;
      case cambi::PoolPath::kAll:
        cpu = cambi::units_value(sums.units) / static_cast<double>(k);
        break;
      case cambi::PoolPath::kLargest:
        cpu = cambi::largest_sum(values, k, low) / static_cast<double>(k);
        break;
    }
    ++paths[static_cast<unsigned>(path)];
    std::vector<float> gpu_values = values;
    const double gpu = cambi::pooled_value(pool_scale(sums, buckets, gpu_values, k), k);
    EXPECT_EQ(bits(cpu), bits(gpu)) << "trial " << trial << " path " << static_cast<unsigned>(path)
                                    << ": cpu " << cpu << " gpu " << gpu;
  }
  EXPECT_GT(paths[0], 0U);  // ordered
  EXPECT_GT(paths[1], 0U);  // all
  EXPECT_GT(paths[2], 0U);  // the k largest
}

}  // namespace
}  // namespace vqx

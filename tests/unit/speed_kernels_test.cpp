// The SpEED twins' GPU kernels (src/metrics/speed/gpu_kernels.cuh), run here
// on the CPU without a device (gpu_on_host.hpp: each block's threads are
// threads of this process). The kernels' own source is compiled, so their
// indexing, borders, resampling, barriers and order of sums are the GPU
// twin's; only the arithmetic is the CPU's IEEE arithmetic instead of the
// device's (equal by the argument of docs/gpu.md). Their results must equal
// the CPU twin's bit for bit: the band-pass pictures (every depth, frame
// differences, every prescale method up and down, kernel scales), the sums
// of the covariance matrix, and speed_chroma's and speed_temporal's values
// through the twins' sequence of launches and host finish.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_on_host.hpp"  // before the kernels: what nvcc and hipcc provide
#include "metrics/families.hpp"
#include "metrics/speed/bandpass.hpp"
#include "metrics/speed/covariance.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/gpu_kernels.cuh"
#include "metrics/speed/gsm.hpp"
#include "metrics/speed/outputs.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/pointwise.hpp"
#include "metrics/speed/rescale.hpp"
#include "metrics/speed/rows.hpp"
#include "metrics/speed/score.hpp"
#include "metrics/speed/taps.hpp"
#include "test_util.hpp"

#undef __shared__

namespace vqx {
namespace {

using gpu_on_host::run_grid;
using speed::Geometry;
using speed::Params;

// A hashed texture: smooth ramps and waves per plane and frame, with noise
// of `noise` (8-bit units), in [0, 2^bpc).
std::uint32_t textured(unsigned p, unsigned x, unsigned y, unsigned frame, unsigned bpc,
                       unsigned noise) {
  std::uint32_t h = (x + 3 * frame) * 374761393U + y * 668265263U + p * 3266489917U + frame;
  h = (h ^ (h >> 13)) * 1274126177U;
  h ^= h >> 16;
  const double max = static_cast<double>((1U << bpc) - 1);
  const double wave = 0.5 + 0.3 * std::sin(0.07 * (x + 2.0 * frame) + p) * std::cos(0.05 * y) +
                      0.1 * std::sin(0.3 * (x + y) + p);
  const double n = noise == 0 ? 0.0 : (static_cast<double>(h % (2 * noise + 1)) - noise) / 255.0;
  return static_cast<std::uint32_t>(std::lround(std::clamp(wave + n, 0.0, 1.0) * max));
}

Picture picture(const PictureFormat& fmt, unsigned frame, unsigned noise) {
  return testutil::make_picture_per_plane(fmt, [&](unsigned p, unsigned x, unsigned y) {
    return textured(p, x, y, frame, fmt.bpc, noise);
  });
}

template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// ---------------------------------------------------------------------------
// The twins' launches on the host (gpu_band.cu's sequence)

// The kernels' pictures: one plane, or the difference of two.
struct HostPicture {
  const Plane* plane;
  const Plane* minus;  // or null
};

// The device side of one launch, what the twin reads back: the band-pass
// pictures (op_w x op_h each, one after the other), the kLowerEntries sums
// of each, the pivots' verdicts and the blocks' variances; and the factors
// Q^T and R of each.
struct BandResults {
  std::vector<float> band;
  std::vector<double> sums;
  std::vector<float> factors;
  std::vector<int> verdicts;
  std::vector<float> variance;
  std::size_t blocks = 0;
};

template <typename Sample>
BandResults run_band(const std::vector<HostPicture>& pictures, const Geometry& g, const Params& p,
                     unsigned bpc) {
  speed::Pictures<Sample> in{};
  for (std::size_t k = 0; k < pictures.size(); ++k) {
    const HostPicture& h = pictures[k];
    in.picture[k] = {h.plane->row<std::uint8_t>(0), h.plane->stride_bytes(),
                     h.minus == nullptr ? nullptr : h.minus->row<std::uint8_t>(0),
                     h.minus == nullptr ? 0 : h.minus->stride_bytes(), speed::sample_unit(bpc)};
  }
  const std::vector<unsigned char> table = speed::rescale_table(g, p.prescale_method);
  const speed::Resampler r = speed::resampler(table.data(), g, p);
  speed::FilterTaps antialias{};
  speed::FilterTaps blur{};
  EXPECT_TRUE(speed::filter_taps(speed::antialias_taps(p.kernel_scale), antialias));
  EXPECT_TRUE(speed::filter_taps(speed::band_taps(p.kernel_scale), blur));
  const speed::BandShape shape = speed::band_shape(g);
  const auto n = static_cast<unsigned>(pictures.size());
  std::vector<float> decimated(shape.picture_floats * n, -7.0F);
  BandResults out;
  out.band.assign(shape.picture_floats * n, -7.0F);
  out.sums.assign(static_cast<std::size_t>(speed::kLowerEntries) * n, -7.0);
  const dim3 grid{ceil_div(g.op_w, speed::kBandThreads), g.op_h, n};
  run_grid(grid, {speed::kBandThreads, 1, 1},
           [&] { speed::decimate_kernel<Sample>(in, r, antialias, shape, decimated.data()); });
  run_grid(grid, {speed::kBandThreads, 1, 1}, [&] {
    speed::band_kernel<speed::kBandThreads>(decimated.data(), blur, shape, out.band.data());
  });
  run_grid({n, 1, 1}, {speed::kStatsThreads, 1, 1}, [&] {
    speed::stats_kernel<speed::kStatsThreads>(out.band.data(), shape, out.sums.data());
  });
  out.factors.assign(speed::kFactorFloats * n, -7.0F);
  out.verdicts.assign(n, -7);
  out.blocks = g.blocks();
  out.variance.assign(out.blocks * n, -7.0F);
  run_grid({n, 1, 1}, {speed::kQrThreads, 1, 1}, [&] {
    speed::qr_kernel<speed::kQrThreads>(out.sums.data(), shape, out.factors.data(),
                                        out.verdicts.data());
  });
  run_grid({ceil_div(g.blocks(), speed::kSolveThreads), n, 1}, {speed::kSolveThreads, 1, 1}, [&] {
    speed::solve_kernel<speed::kSolveThreads>(out.band.data(), out.factors.data(), shape,
                                              static_cast<int>(g.blocks_x),
                                              static_cast<int>(g.blocks()), out.variance.data());
  });
  return out;
}

// gpu_band.cu's fit(): picture k's fit on the host from what the device
// read back.
bool fit_on_host(const BandResults& r, unsigned k, speed::GsmFit& gsm, const Params& p,
                 speed::BlockStats& out) {
  const std::size_t floats = r.band.size() / r.verdicts.size();
  return gsm.fit_solved(r.sums.data() + static_cast<std::size_t>(speed::kLowerEntries) * k,
                        r.band.data() + floats * k, r.variance.data() + r.blocks * k,
                        r.verdicts[k] != 0, static_cast<float>(p.sigma_nn), out);
}

BandResults band_on_host(const std::vector<HostPicture>& pictures, const Geometry& g,
                         const Params& p, unsigned bpc) {
  return bpc == 8 ? run_band<std::uint8_t>(pictures, g, p, bpc)
                  : run_band<std::uint16_t>(pictures, g, p, bpc);
}

// The CPU twin's band-pass picture of one plane (or difference).
std::vector<float> band_on_cpu(const HostPicture& h, const Geometry& g, const Params& p,
                               unsigned bpc) {
  speed::PlaneRows rows;
  rows.init(g.width, bpc);
  if (h.minus == nullptr) {
    rows.set({h.plane->row<std::uint8_t>(0), h.plane->stride_bytes()});
  } else {
    rows.set({h.plane->row<std::uint8_t>(0), h.plane->stride_bytes()},
             {h.minus->row<std::uint8_t>(0), h.minus->stride_bytes()});
  }
  speed::RescaledRows rescaled;
  speed::RowSource* src = &rows;
  if (p.rescales()) {
    rescaled.init(g.width, g.height, g.scaled_w, g.scaled_h, p.prescale_method);
    rescaled.set_source(&rows);
    src = &rescaled;
  }
  speed::BandPass bp;
  bp.init(g, p);
  std::vector<float> band(std::size_t{g.op_w} * g.op_h, -9.0F);
  bp.run(*src, band.data());
  return band;
}

// The sums of products as covariance.cpp defines them: the window means
// (float chains), then one double chain per entry, row-major.
std::vector<double> sums_by_definition(const float* band, const Geometry& g) {
  const int n = speed::kN;
  const unsigned count = g.sub_w * g.sub_h;
  std::vector<double> mean(static_cast<std::size_t>(n));
  const auto at = [&](int p, unsigned i, unsigned x) {
    return band[(i + static_cast<unsigned>(p) / speed::kBlock) * g.op_w + x +
                static_cast<unsigned>(p) % speed::kBlock];
  };
  for (int p = 0; p < n; ++p) {
    float total = 0.0F;
    for (unsigned i = 0; i < g.sub_h; ++i) {
      for (unsigned x = 0; x < g.sub_w; ++x) total += at(p, i, x);
    }
    mean[static_cast<std::size_t>(p)] = speed::window_mean(total, count);
  }
  std::vector<double> sums(static_cast<std::size_t>(speed::kLowerEntries));
  for (int p = 0; p < n; ++p) {
    for (int q = 0; q <= p; ++q) {
      double s = 0.0;
      for (unsigned i = 0; i < g.sub_h; ++i) {
        for (unsigned x = 0; x < g.sub_w; ++x) {
          s += speed::centred(at(p, i, x), mean[static_cast<std::size_t>(p)]) *
               speed::centred(at(q, i, x), mean[static_cast<std::size_t>(q)]);
        }
      }
      sums[static_cast<std::size_t>(speed::lower_index(p, q))] = s;
    }
  }
  return sums;
}

// The parameters the family reads from `options` (its read_params()).
Params params_of(const OptionMap& options, const ExtractorFamily& family) {
  auto set = OptionSet::parse(family.name, family.options, options);
  EXPECT_TRUE(set.ok()) << set.status().message();
  auto read = speed::read_common(*set, family.name);
  EXPECT_TRUE(read.ok()) << read.status().message();
  Params p = *read;
  if (family.name == std::string("speed_chroma")) {
    p.weight_var_mode = set->get_int("speed_weight_var_mode");
  } else {
    p.use_ref_diff = set->get_bool("speed_use_ref_diff");
  }
  return p;
}

std::string describe(const PictureFormat& fmt, const OptionMap& options) {
  std::string s = std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + " " +
                  std::to_string(fmt.bpc) + "-bit";
  for (const auto& [k, v] : options) s += " " + k + "=" + v;
  return s;
}

// ---------------------------------------------------------------------------

// The band-pass pictures of single planes and of frame differences, every
// depth, the prescale's four methods both ways and two kernel scales:
// decimate_kernel and band_kernel against bandpass.cpp, stats_kernel's sums
// against covariance.cpp's chains, qr_kernel's and solve_kernel's variances
// against gsm.cpp's fit(), bit for bit; a flat picture's singular fit too.
TEST(SpeedKernels, BandPassPicturesEqualTheCpuTwinBitForBit) {
  const std::vector<std::tuple<unsigned, unsigned, unsigned, OptionMap>> cases = {
      {80, 80, 8, {}},  // the smallest: one block
      {420, 330, 10, {}},
      {330, 250, 12, {{"speed_kernelscale", "0.5"}}},
      {401, 330, 16, {{"speed_kernelscale", "3"}}},
      {660, 400, 8, {{"speed_prescale", "0.5"}, {"speed_prescale_method", "bilinear"}}},
      {300, 250, 10, {{"speed_prescale", "1.7"}, {"speed_prescale_method", "nearest"}}},
      {450, 420, 8, {{"speed_prescale", "0.8"}, {"speed_prescale_method", "bicubic"}}},
      {300, 240, 12, {{"speed_prescale", "1.3"}, {"speed_prescale_method", "lanczos4"}}},
      {600, 500, 9, {{"speed_prescale", "0.6"}, {"speed_prescale_method", "lanczos4"}}},
      {81, 83, 8, {{"speed_prescale", "1.0005"}}},  // within the tolerance: no prescale
  };
  unsigned solved = 0;  // regular fits, whose QR solve counts
  for (const auto& [w, h, bpc, options] : cases) {
    const PictureFormat fmt = testutil::format(w, h, bpc, ChromaFormat::k444);
    const Params p = params_of(options, speed_temporal_family());
    const auto g = speed::make_geometry(w, h, p, "test");
    ASSERT_TRUE(g.ok()) << g.status().message();
    const Picture a = picture(fmt, 0, 12);
    const Picture b = picture(fmt, 1, 12);
    const Picture flat = testutil::flat_picture(fmt, 3U << (bpc - 8), 9);  // singular
    const std::vector<HostPicture> pictures = {{&a.plane(0), nullptr},
                                               {&b.plane(1), nullptr},
                                               {&a.plane(0), &b.plane(0)},
                                               {&flat.plane(0), nullptr}};
    const BandResults gpu = band_on_host(pictures, *g, p, bpc);
    speed::GsmFit gsm_gpu(*g);
    speed::GsmFit gsm_cpu(*g);
    speed::BlockStats gpu_stats;
    speed::BlockStats cpu_stats;
    gpu_stats.allocate(g->blocks());
    cpu_stats.allocate(g->blocks());
    for (std::size_t k = 0; k < pictures.size(); ++k) {
      const std::vector<float> cpu = band_on_cpu(pictures[k], *g, p, bpc);
      const float* got = gpu.band.data() + cpu.size() * k;
      EXPECT_EQ(std::memcmp(cpu.data(), got, cpu.size() * sizeof(float)), 0)
          << describe(fmt, options) << ", picture " << k;
      // The sums: each the one chain of covariance.cpp, to the bit.
      const std::vector<double> want = sums_by_definition(cpu.data(), *g);
      const double* sums = gpu.sums.data() + static_cast<std::size_t>(speed::kLowerEntries) * k;
      for (int e = 0; e < speed::kLowerEntries; ++e) {
        ASSERT_TRUE(same_bits(want[static_cast<std::size_t>(e)], sums[e]))
            << describe(fmt, options) << ", picture " << k << ", sum " << e << ": "
            << want[static_cast<std::size_t>(e)] << " vs " << sums[e];
      }
      // And the matrix from them is covariance.cpp's.
      speed::Square from_sums{};
      speed::Square cpu_cov{};
      speed::covariance_from_sums(sums, g->sub_w * g->sub_h, from_sums);
      speed::covariance_matrix(cpu.data(), g->op_w, g->sub_w, g->sub_h, cpu_cov);
      EXPECT_EQ(std::memcmp(from_sums.data(), cpu_cov.data(), sizeof cpu_cov), 0)
          << describe(fmt, options) << ", picture " << k;
      // The QR solve's variances and the fit (gsm.cpp's fit() on the CPU's
      // band-pass picture against fit_solved() on the kernels' results).
      const bool cpu_ok = gsm_cpu.fit(cpu.data(), static_cast<float>(p.sigma_nn), cpu_stats);
      const bool gpu_ok = fit_on_host(gpu, static_cast<unsigned>(k), gsm_gpu, p, gpu_stats);
      EXPECT_EQ(cpu_ok, gpu_ok) << describe(fmt, options) << ", picture " << k;
      if (k == 3) {
        EXPECT_FALSE(cpu_ok) << describe(fmt, options) << ": a flat picture";
      }
      solved += cpu_ok ? 1U : 0U;
      if (cpu_ok) {
        EXPECT_EQ(std::memcmp(cpu_stats.variance.data(), gpu.variance.data() + gpu.blocks * k,
                              gpu.blocks * sizeof(float)),
                  0)
            << describe(fmt, options) << ", picture " << k << ": the kernel's variances";
      }
      EXPECT_EQ(std::memcmp(cpu_stats.variance.data(), gpu_stats.variance.data(),
                            gpu.blocks * sizeof(float)),
                0)
          << describe(fmt, options) << ", picture " << k;
      EXPECT_EQ(std::memcmp(cpu_stats.entropy.data(), gpu_stats.entropy.data(),
                            gpu.blocks * sizeof(float)),
                0)
          << describe(fmt, options) << ", picture " << k;
    }
  }
  EXPECT_GE(solved, 15U);
}

// The sums' order matters: a chain in another order (columns first) gives
// other bits for some entry of a noisy picture, and the kernel's are the
// row-major chain's (held above); this shows the test would see a change.
TEST(SpeedKernels, AnotherOrderOfTheSumsGivesOtherBits) {
  const PictureFormat fmt = testutil::format(640, 400, 10, ChromaFormat::k444);
  const Params p;
  const auto g = speed::make_geometry(fmt.width, fmt.height, p, "test");
  ASSERT_TRUE(g.ok());
  const Picture a = picture(fmt, 3, 60);
  const std::vector<float> band = band_on_cpu({&a.plane(0), nullptr}, *g, p, fmt.bpc);
  const std::vector<double> row_major = sums_by_definition(band.data(), *g);
  unsigned differ = 0;
  for (int q = 0; q < speed::kN; ++q) {
    const int e = speed::lower_index(speed::kN - 1, q);
    const double want = row_major[static_cast<std::size_t>(e)];
    double s = 0.0;
    // Column-major over the same window, the same centred products.
    std::vector<double> mean(speed::kN);
    for (int k = 0; k < speed::kN; ++k) {
      float total = 0.0F;
      for (unsigned i = 0; i < g->sub_h; ++i) {
        for (unsigned x = 0; x < g->sub_w; ++x) {
          total += band[(i + static_cast<unsigned>(k) / speed::kBlock) * g->op_w + x +
                        static_cast<unsigned>(k) % speed::kBlock];
        }
      }
      mean[static_cast<std::size_t>(k)] = speed::window_mean(total, g->sub_w * g->sub_h);
    }
    const int pp = speed::kN - 1;
    for (unsigned x = 0; x < g->sub_w; ++x) {
      for (unsigned i = 0; i < g->sub_h; ++i) {
        const auto at = [&](int k) {
          return band[(i + static_cast<unsigned>(k) / speed::kBlock) * g->op_w + x +
                      static_cast<unsigned>(k) % speed::kBlock];
        };
        s += speed::centred(at(pp), mean[static_cast<std::size_t>(pp)]) *
             speed::centred(at(q), mean[static_cast<std::size_t>(q)]);
      }
    }
    differ += same_bits(s, want) ? 0U : 1U;
  }
  EXPECT_GT(differ, 0U) << "every column-major chain equalled the row-major one";
}

// speed_chroma through the twin's launches (chroma_gpu.cu: U and V of both
// pictures in one launch, then gpu_band.cu's host finish), against the CPU
// extractor, every output, every weight_var_mode, the prescale, the other
// options; 4:2:0, 4:2:2 and 4:4:4, odd sizes, every depth kind.
TEST(SpeedKernels, SpeedChromaThroughTheTwinsLaunchesEqualsTheCpuTwin) {
  const std::vector<std::tuple<unsigned, unsigned, unsigned, ChromaFormat, OptionMap>> cases = {
      {161, 161, 8, ChromaFormat::k420, {}},
      {331, 241, 10, ChromaFormat::k420, {{"speed_weight_var_mode", "1"}}},
      {200, 170, 12, ChromaFormat::k422, {{"speed_weight_var_mode", "2"}}},
      {181, 99, 16, ChromaFormat::k444, {{"speed_weight_var_mode", "3"}}},
      {401, 300, 8, ChromaFormat::k420, {{"speed_weight_var_mode", "4"}}},
      {352,
       288,
       10,
       ChromaFormat::k420,
       {{"speed_weight_var_mode", "5"},
        {"speed_sigma_nn", "0.19"},
        {"speed_nn_floor", "0.1"},
        {"speed_max_val", "45"}}},
      {640,
       360,
       8,
       ChromaFormat::k420,
       {{"speed_weight_var_mode", "6"},
        {"speed_prescale", "0.5"},
        {"speed_prescale_method", "bilinear"}}},
      {300,
       240,
       12,
       ChromaFormat::k444,
       {{"speed_prescale", "1.5"}, {"speed_prescale_method", "lanczos4"}}},
      {250, 250, 9, ChromaFormat::k420, {{"speed_kernelscale", "1.5"}, {"speed_max_val", "0.01"}}},
  };
  for (const auto& [w, h, bpc, chroma, options] : cases) {
    const PictureFormat fmt = testutil::format(w, h, bpc, chroma);
    const Picture ref = picture(fmt, 0, 0);
    const Picture dist = picture(fmt, 1, 30);
    const Params p = params_of(options, speed_chroma_family());
    const auto g = speed::chroma_geometry(fmt, p);
    ASSERT_TRUE(g.ok()) << g.status().message();
    const BandResults gpu = band_on_host({{&ref.plane(1), nullptr},
                                          {&dist.plane(1), nullptr},
                                          {&ref.plane(2), nullptr},
                                          {&dist.plane(2), nullptr}},
                                         *g, p, bpc);
    // gpu_band.cu's fit() and chroma_gpu.cu's collect().
    speed::GsmFit gsm(*g);
    speed::BlockStats a;
    speed::BlockStats b;
    a.allocate(g->blocks());
    b.allocate(g->blocks());
    const auto channel = [&](unsigned r, unsigned d) {
      const bool ref_ok = fit_on_host(gpu, r, gsm, p, a);
      const bool dis_ok = fit_on_host(gpu, d, gsm, p, b);
      return speed::pair_score(ref_ok, a, dis_ok, b, p, p.weight_var_mode);
    };
    const speed::ScoreResult u = channel(0, 1);
    const speed::ScoreResult v = channel(2, 3);
    testutil::LastValueWriter gpu_out;
    speed::write_chroma(u, v, p.max_val, 0, gpu_out);

    const ExtractorSpec spec = testutil::spec_for(speed_chroma_family(), options);
    const std::vector<double> cpu = testutil::output_values(spec, ref, dist);
    ASSERT_EQ(cpu.size(), 3U);
    for (std::size_t i = 0; i < cpu.size(); ++i) {
      EXPECT_TRUE(same_bits(cpu[i], gpu_out.values[i]))
          << describe(fmt, options) << " " << spec.outputs[i].name << ": cpu " << cpu[i] << " gpu "
          << gpu_out.values[i];
    }
  }
}

// speed_temporal through the twin's launches (temporal_gpu.cu: frame i - 1
// minus frame i of the reference and of the distorted, or with
// speed_use_ref_diff the distorted frame i - 1 minus the reference frame i),
// three frames, against the CPU extractor.
TEST(SpeedKernels, SpeedTemporalThroughTheTwinsLaunchesEqualsTheCpuTwin) {
  const std::vector<std::tuple<unsigned, unsigned, unsigned, OptionMap>> cases = {
      {97, 85, 8, {}},
      {320, 181, 10, {{"speed_use_ref_diff", "true"}}},
      {257, 160, 12, {{"speed_sigma_nn", "0.5"}, {"speed_nn_floor", "0.2"}}},
      {200, 200, 16, {{"speed_prescale", "0.7"}, {"speed_prescale_method", "bicubic"}}},
      {171, 171, 8, {{"speed_prescale", "1.2"}, {"speed_prescale_method", "nearest"}}},
      {250, 170, 10, {{"speed_kernelscale", "0.711111"}, {"speed_max_val", "1"}}},
  };
  unsigned nonzero = 0;
  for (const auto& [w, h, bpc, options] : cases) {
    const PictureFormat fmt = testutil::format(w, h, bpc, ChromaFormat::k420);
    std::vector<Picture> refs;
    std::vector<Picture> dists;
    for (unsigned f = 0; f < 3; ++f) {
      refs.push_back(picture(fmt, f, 6));
      dists.push_back(picture(fmt, f, 20));
    }
    const Params p = params_of(options, speed_temporal_family());
    const auto g = speed::temporal_geometry(fmt, p);
    ASSERT_TRUE(g.ok()) << g.status().message();

    const ExtractorSpec spec = testutil::spec_for(speed_temporal_family(), options);
    auto ex = spec.make();
    ASSERT_TRUE(ex->init(fmt).ok());
    testutil::MapWriter cpu;
    testutil::MapWriter gpu;
    speed::GsmFit gsm(*g);
    speed::BlockStats a;
    speed::BlockStats b;
    a.allocate(g->blocks());
    b.allocate(g->blocks());
    for (unsigned f = 0; f < refs.size(); ++f) {
      ASSERT_TRUE(ex->extract(refs[f], dists[f], f, cpu).ok());
      speed::ScoreResult r;
      if (f > 0) {
        const Plane& minus = (p.use_ref_diff ? refs[f] : dists[f]).plane(0);
        const BandResults out = band_on_host(
            {{&refs[f - 1].plane(0), &refs[f].plane(0)}, {&dists[f - 1].plane(0), &minus}}, *g, p,
            bpc);
        const bool ref_ok = fit_on_host(out, 0, gsm, p, a);
        const bool dis_ok = fit_on_host(out, 1, gsm, p, b);
        r = speed::pair_score(ref_ok, a, dis_ok, b, p, 0);
      }
      speed::write_temporal(f, r, gpu);
    }
    ASSERT_EQ(cpu.values.size(), refs.size());
    for (const auto& [key, value] : cpu.values) {
      EXPECT_TRUE(same_bits(value, gpu.values.at(key)))
          << describe(fmt, options) << " frame " << key.second << ": cpu " << value << " gpu "
          << gpu.values.at(key);
    }
    nonzero += cpu.values.at({0, 2}) != 0.0 ? 1U : 0U;
  }
  // One-block pictures may score 0 (a singular fit); the others must not,
  // so that the comparison is of real scores.
  EXPECT_GE(nonzero, 4U);
}

}  // namespace
}  // namespace vqx

// The float_adm, float_vif and float_motion twins' GPU kernels
// (src/metrics/float_common/gpu_kernels.cuh, float_vif/gpu_kernels.cuh,
// float_adm/gpu_kernels.cuh), run here on the CPU without a device
// (gpu_on_host.hpp: each block's threads are threads of this process). The
// kernels' own source is compiled, so their indexing, borders, barriers and
// order of sums are the GPU twins'; only the arithmetic is the CPU's IEEE
// arithmetic instead of the device's (equal by the argument of docs/gpu.md).
// Their results must equal the CPU twins' bit for bit: the filters (both
// steps), the resampler (every method, up and down), the rows' sums of
// absolute differences, and float_vif's, float_adm's and float_motion's
// values through the twins' sequences of launches and host finish, every
// option. The pictures are the smallest that reach each path (a second
// tile of columns, odd sides, every border): the emulated blocks run one
// host thread per GPU thread.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gpu_on_host.hpp"  // before the kernels: what nvcc and hipcc provide
#include "metrics/families.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/csf.hpp"
#include "metrics/float_adm/decouple.hpp"
#include "metrics/float_adm/gpu_kernels.cuh"
#include "metrics/float_adm/scores.hpp"
#include "metrics/float_common/convert.hpp"
#include "metrics/float_common/convolve.hpp"
#include "metrics/float_common/gpu_kernels.cuh"
#include "metrics/float_common/resample.hpp"
#include "metrics/float_common/rows.hpp"
#include "metrics/float_motion/geometry.hpp"
#include "metrics/float_motion/sad.hpp"
#include "metrics/float_motion/series.hpp"
#include "metrics/float_vif/cpu.hpp"
#include "metrics/float_vif/gaussian.hpp"
#include "metrics/float_vif/geometry.hpp"
#include "metrics/float_vif/gpu_kernels.cuh"
#include "metrics/float_vif/scores.hpp"
#include "metrics/float_vif/statistic.hpp"
#include "test_util.hpp"

#undef __shared__

namespace vqx {
namespace {

using float_common::FloatImage;
using float_common::ImageSource;
using float_common::ImageTarget;
using float_common::PlaneSource;
using float_common::ScaleMethod;
using gpu_on_host::run_grid;

unsigned blocks(unsigned n, unsigned per_block) { return ceil_div(n, per_block); }

// A device-style float image on the host: rows `pitch` floats apart, the
// padding poisoned.
struct HostImage {
  unsigned width = 0;
  unsigned height = 0;
  std::size_t pitch = 0;
  std::vector<float> data;
  HostImage() = default;
  HostImage(unsigned w, unsigned h)
      : width(w), height(h), pitch(std::size_t{w} + 3), data(pitch * h, std::nanf("")) {}
  [[nodiscard]] ImageSource source() const { return {data.data(), pitch}; }
  [[nodiscard]] ImageTarget target() {
    return {data.data(), pitch, static_cast<int>(width), static_cast<int>(height)};
  }
};

template <typename Sample>
PlaneSource<Sample> plane_source(const Plane& p, unsigned bpc) {
  return {p.row<std::uint8_t>(0), p.stride_bytes(), float_common::sample_unit(bpc)};
}

FloatImage to_float(const Plane& p, unsigned bpc, unsigned w, unsigned h) {
  FloatImage img;
  img.resize(w, h);
  float_common::plane_to_float(p, bpc, img);
  return img;
}

void expect_same(const HostImage& gpu, const FloatImage& cpu, const std::string& what) {
  ASSERT_EQ(gpu.width, cpu.width()) << what;
  ASSERT_EQ(gpu.height, cpu.height()) << what;
  for (unsigned y = 0; y < cpu.height(); ++y) {
    EXPECT_EQ(std::memcmp(gpu.data.data() + gpu.pitch * y, cpu.row(y), sizeof(float) * cpu.width()),
              0)
        << what << ": row " << y;
  }
}

using testutil::bits;

// Smooth content plus noise (of `noise` times the peak) in [0, 2^bpc).
Picture textured(const PictureFormat& fmt, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::textured_picture(fmt, rng, noise, 0.11, 0.07);
}

Picture distorted(const Picture& base, std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  return testutil::distorted(base, rng, noise);
}

// A video of one picture (pictures are move-only).
std::vector<Picture> one(Picture p) {
  std::vector<Picture> v;
  v.push_back(std::move(p));
  return v;
}

// The host's kernel launches (the twins' gpu_images.cuh launches).

template <int Step, typename Source>
void run_filter(const Source& src, unsigned src_w, unsigned src_h,
                const float_common::FilterTaps& taps, HostImage& out) {
  const ImageTarget t = out.target();
  // The kernel the twins launch for this filter (its count unrolled or not).
  float_common::with_tap_count(taps.count, [&]<int kCount>() {
    run_grid(
        {blocks(out.width, float_common::kFilterX), blocks(out.height, float_common::kFilterY)},
        {float_common::kFilterX, float_common::kFilterY}, [&] {
          float_common::filter_kernel<Step, Source, kCount>(src, static_cast<int>(src_w),
                                                            static_cast<int>(src_h), taps, t);
        });
  });
}

// The resampler's axes as the twins see them (the uploaded table's arrays).
float_common::AxisView axis_view(const float_common::Resampler::Axis& a) {
  return {a.index.data(), a.weight.data(), a.frac.data()};
}

template <typename Source>
void run_resample(const Source& src, const float_common::Resampler& r, HostImage& out) {
  const ImageTarget t = out.target();
  run_grid(
      {blocks(out.width, float_common::kResampleX), blocks(out.height, float_common::kResampleY)},
      {float_common::kResampleX, float_common::kResampleY}, [&] {
        float_common::resample_kernel<Source>(src, r.method(), axis_view(r.columns()),
                                              axis_view(r.rows()), t);
      });
}

std::vector<float> run_row_abs_difference(const HostImage& a, const HostImage& b) {
  std::vector<float> rows(a.height, std::nanf(""));
  run_grid({blocks(a.height, float_common::kSadRows)}, {float_common::kSadThreads}, [&] {
    float_common::row_abs_difference_kernel<ImageSource>(
        a.source(), b.source(), static_cast<int>(a.width), static_cast<int>(a.height), rows.data());
  });
  return rows;
}

// ---------------------------------------------------------------------------
// The shared steps

// A plane's rows through FloatRows' ring are its float image's rows, for a
// window of neighbouring rows read at once and mirrored at the edges, as the
// filters read them (the ring holds exactly the window), at 8 and 10 bits.
TEST(FloatKernels, RowsThroughTheRingAreThePlanesFloatRows) {
  for (const unsigned bpc : {8U, 10U}) {
    const PictureFormat fmt = testutil::format(37, 23, bpc);
    const Picture pic = textured(fmt, bpc, 0.2);
    const FloatImage whole = to_float(pic.plane(0), bpc, fmt.width, fmt.height);
    constexpr int kWindow = 7;
    float_common::FloatRows rows;
    rows.reserve(fmt.width, kWindow);
    rows.read_plane(pic.plane(0), bpc, fmt.width, fmt.height);
    ASSERT_EQ(rows.width(), fmt.width);
    ASSERT_EQ(rows.height(), fmt.height);
    const int h = static_cast<int>(fmt.height);
    for (int centre = 0; centre < h; ++centre) {
      std::array<const float*, kWindow> held{};
      std::array<unsigned, kWindow> which{};
      for (int k = 0; k < kWindow; ++k) {
        which[k] = static_cast<unsigned>(float_common::reflect(centre - kWindow / 2 + k, h));
        held[k] = rows.row(which[k]);
      }
      for (int k = 0; k < kWindow; ++k) {
        ASSERT_EQ(std::memcmp(held[k], whole.row(which[k]), sizeof(float) * fmt.width), 0)
            << bpc << "-bit, centre " << centre << ", row " << which[k];
      }
    }
    // A float image's rows are its own.
    rows.read_image(whole);
    EXPECT_EQ(rows.row(5), whole.row(5));
  }
}

// filter_kernel<1> is filter_image(); filter_kernel<2> is VIF's decimation
// (the vertical pass at every second row, the horizontal at every second
// column: weighted_rows, mirror_pad, filter_row_even), from the luma and
// from a float image; one and two tiles of columns, the narrowest sides.
TEST(FloatKernels, FiltersEqualTheCpuFilters) {
  const std::vector<std::vector<float>> filters = {
      {float_motion::kFilter5.begin(), float_motion::kFilter5.end()},
      {float_motion::kFilter3.begin(), float_motion::kFilter3.end()},
      float_vif::gaussian_filter(0, 1.0f),
      float_vif::gaussian_filter(1, 2.0f)};
  for (const auto& [w, h, bpc] : std::vector<std::tuple<unsigned, unsigned, unsigned>>{
           {10, 19, 8}, {37, 23, 10}, {70, 9, 16}}) {
    const PictureFormat fmt = testutil::format(w, h, bpc);
    const Picture pic = textured(fmt, w + h, 0.05);
    const FloatImage src = to_float(pic.plane(0), bpc, w, h);
    HostImage src_h(w, h);
    for (unsigned y = 0; y < h; ++y) std::memcpy(&src_h.data[src_h.pitch * y], src.row(y), 4 * w);
    for (const auto& taps : filters) {
      const auto n = static_cast<unsigned>(taps.size());
      if (w < float_common::min_side_for_taps(n) || h < float_common::min_side_for_taps(n)) {
        continue;
      }
      const std::string what = std::to_string(w) + "x" + std::to_string(h) + " " +
                               std::to_string(bpc) + "-bit, " + std::to_string(n) + " taps";
      const float_common::FilterTaps ft = float_common::filter_taps(taps);
      // Step 1.
      FloatImage cpu;
      cpu.resize(w, h);
      std::vector<float> scratch(float_common::filter_scratch_size(w, n));
      float_common::filter_image(taps, src, cpu, scratch);
      HostImage gpu(w, h);
      if (bpc == 8) {
        run_filter<1>(plane_source<std::uint8_t>(pic.plane(0), bpc), w, h, ft, gpu);
      } else {
        run_filter<1>(plane_source<std::uint16_t>(pic.plane(0), bpc), w, h, ft, gpu);
      }
      expect_same(gpu, cpu, what + ", step 1 from the luma");
      HostImage gpu_f(w, h);
      run_filter<1>(src_h.source(), w, h, ft, gpu_f);
      expect_same(gpu_f, cpu, what + ", step 1 from floats");
      // Step 2, as float_vif/cpu.cpp decimates.
      FloatImage half;
      half.resize(w / 2, h / 2);
      std::vector<float> padded(w + 2 * (n / 2));
      std::array<const float*, float_common::kMaxTaps> rows{};
      for (unsigned i = 0; i < h / 2; ++i) {
        for (unsigned k = 0; k < n; ++k) {
          rows[k] = src.row(static_cast<unsigned>(float_common::reflect(
              static_cast<int>(2 * i + k) - static_cast<int>(n / 2), static_cast<int>(h))));
        }
        float* pad = padded.data() + n / 2;
        float_common::weighted_rows(taps, rows.data(), w, pad);
        float_common::mirror_pad(pad, w, n / 2);
        float_common::filter_row_even(taps, pad, w / 2, half.row(i));
      }
      HostImage gpu_half(w / 2, h / 2);
      run_filter<2>(src_h.source(), w, h, ft, gpu_half);
      expect_same(gpu_half, half, what + ", step 2");
    }
  }
}

// resample_kernel is the Resampler: every method, down and up, odd sizes.
TEST(FloatKernels, ResampleEqualsTheResampler) {
  const unsigned w = 37;
  const unsigned h = 23;
  const PictureFormat fmt = testutil::format(w, h, 10);
  const Picture pic = textured(fmt, 3, 0.05);
  const FloatImage src = to_float(pic.plane(0), 10, w, h);
  for (const ScaleMethod m : {ScaleMethod::kNearest, ScaleMethod::kBilinear, ScaleMethod::kBicubic,
                              ScaleMethod::kLanczos4}) {
    for (const auto& [dw, dh] :
         std::vector<std::pair<unsigned, unsigned>>{{19, 12}, {50, 35}, {18, 40}}) {
      float_common::Resampler r;
      r.init(m, w, h, dw, dh);
      FloatImage cpu;
      cpu.resize(dw, dh);
      r.run(src, cpu);
      HostImage gpu(dw, dh);
      run_resample(plane_source<std::uint16_t>(pic.plane(0), 10), r, gpu);
      expect_same(gpu, cpu,
                  "method " + std::to_string(static_cast<int>(m)) + " to " + std::to_string(dw) +
                      "x" + std::to_string(dh));
    }
  }
}

// The rows' sums of |a - b| give sad.cpp's mean: three tiles of columns, a
// partial block of rows.
TEST(FloatKernels, RowAbsDifferencesGiveTheCpuMean) {
  for (const auto& [w, h] : std::vector<std::pair<unsigned, unsigned>>{{300, 13}, {5, 3}}) {
    const PictureFormat fmt = testutil::format(w, h, 8);
    const Picture a = textured(fmt, 1, 0.1);
    const Picture b = distorted(a, 2, 0.1);
    const FloatImage fa = to_float(a.plane(0), 8, w, h);
    const FloatImage fb = to_float(b.plane(0), 8, w, h);
    HostImage ha(w, h);
    HostImage hb(w, h);
    for (unsigned y = 0; y < h; ++y) {
      std::memcpy(&ha.data[ha.pitch * y], fa.row(y), 4 * w);
      std::memcpy(&hb.data[hb.pitch * y], fb.row(y), 4 * w);
    }
    const std::vector<float> rows = run_row_abs_difference(ha, hb);
    const float gpu = float_motion::mean_of_rows(rows.data(), w, h);
    const float cpu = float_motion::mean_abs_difference(fa, fb);
    EXPECT_EQ(float_common::bits_of(gpu), float_common::bits_of(cpu)) << w << "x" << h;
  }
}

// ---------------------------------------------------------------------------
// The twins, through their launches

// Every value the CPU extractor of `family` with `options` writes for the
// video (frames of ref and dist), in order of writing.
std::vector<testutil::RecordingWriter::Entry> cpu_run(const ExtractorFamily& family,
                                                      const OptionMap& options,
                                                      const std::vector<Picture>& ref,
                                                      const std::vector<Picture>& dist) {
  const ExtractorSpec spec = testutil::spec_for(family, options);
  auto ex = spec.make();
  EXPECT_TRUE(ex->init(ref[0].format()).ok());
  testutil::RecordingWriter out;
  for (unsigned i = 0; i < ref.size(); ++i) {
    const Status st = ex->extract(ref[i], dist[i], i, out);
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_TRUE(ex->flush(out).ok());
  return out.entries;
}

void expect_same_entries(const std::vector<testutil::RecordingWriter::Entry>& gpu,
                         const std::vector<testutil::RecordingWriter::Entry>& cpu,
                         const std::string& what, double rel_tolerance = 0.0) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    EXPECT_EQ(gpu[i].slot, cpu[i].slot) << what << ": entry " << i;
    EXPECT_EQ(gpu[i].frame, cpu[i].frame) << what << ": entry " << i;
    if (rel_tolerance == 0.0) {
      EXPECT_EQ(bits(gpu[i].value), bits(cpu[i].value))
          << what << ": slot " << cpu[i].slot << " frame " << cpu[i].frame << " gpu "
          << gpu[i].value << " cpu " << cpu[i].value;
    } else {
      EXPECT_LE(std::abs(gpu[i].value - cpu[i].value), rel_tolerance * std::abs(cpu[i].value))
          << what << ": slot " << cpu[i].slot << " frame " << cpu[i].frame;
    }
  }
}

// "name=value:name=value" as an option map.
OptionMap options_of(const std::string& text) {
  OptionMap m;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find(':', at);
    const std::string kv = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    const std::size_t eq = kv.find('=');
    m[kv.substr(0, eq)] = kv.substr(eq + 1);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return m;
}

// --- float_vif ---------------------------------------------------------------

// float_vif's gpu.cu, step for step: prescale, then per scale the
// decimation and the statistics; the host adds the rows and writes.
template <typename Sample>
void vif_twin_frame(const Picture& ref, const Picture& dist, const float_vif::Config& config,
                    unsigned index, FeatureWriter& out) {
  const PictureFormat fmt = ref.format();
  const float_vif::Params& p = config.params;
  const float_vif::Prescale scaled = float_vif::prescaled_size(fmt, config).value();
  const float_vif::Scales scales =
      float_vif::scale_sizes(scaled.width, scaled.height, static_cast<float>(p.kernelscale),
                             p.skip_scale0)
          .value();
  const float_vif::StatParams stat = float_vif::make_stat_params(p.gain_limit, p.sigma_nsq);
  const int first = p.skip_scale0 ? 1 : 0;
  std::array<HostImage, float_vif::kScales> r;
  std::array<HostImage, float_vif::kScales> d;
  float_vif::FrameSums sums{};
  auto stats = [&](int s, const auto& a, const auto& b) {
    using Source = std::decay_t<decltype(a)>;
    const unsigned h = scales.h[s];
    std::vector<float> num(h, std::nanf(""));
    std::vector<float> den(h, std::nanf(""));
    const float_common::FilterTaps taps = float_common::filter_taps(scales.filters[s]);
    // The kernel the twin launches for this filter (its count unrolled or not).
    float_common::with_tap_count(taps.count, [&]<int kCount>() {
      run_grid({blocks(h, float_vif::kStatRows)}, {float_vif::kStatThreads}, [&] {
        float_vif::stats_kernel<Source, kCount>(a, b, static_cast<int>(scales.w[s]),
                                                static_cast<int>(h), taps, stat, num.data(),
                                                den.data());
      });
    });
    sums[s] = float_vif::add_rows(num.data(), den.data(), static_cast<int>(h));
  };
  auto from = [&](const auto& a, const auto& b) {
    if (first == 0) stats(0, a, b);
    for (int s = 1; s < float_vif::kScales; ++s) {
      r[s] = HostImage(scales.w[s], scales.h[s]);
      d[s] = HostImage(scales.w[s], scales.h[s]);
      const float_common::FilterTaps taps = float_common::filter_taps(scales.filters[s]);
      if (s == 1) {
        run_filter<2>(a, scales.w[0], scales.h[0], taps, r[1]);
        run_filter<2>(b, scales.w[0], scales.h[0], taps, d[1]);
      } else {
        run_filter<2>(r[s - 1].source(), scales.w[s - 1], scales.h[s - 1], taps, r[s]);
        run_filter<2>(d[s - 1].source(), scales.w[s - 1], scales.h[s - 1], taps, d[s]);
      }
      stats(s, r[s].source(), d[s].source());
    }
  };
  const auto a = plane_source<Sample>(ref.plane(0), fmt.bpc);
  const auto b = plane_source<Sample>(dist.plane(0), fmt.bpc);
  if (scaled.rescale) {
    float_common::Resampler rs;
    rs.init(config.method, fmt.width, fmt.height, scaled.width, scaled.height);
    r[0] = HostImage(scaled.width, scaled.height);
    d[0] = HostImage(scaled.width, scaled.height);
    run_resample(a, rs, r[0]);
    run_resample(b, rs, d[0]);
    from(r[0].source(), d[0].source());
  } else {
    from(a, b);
  }
  float_vif::write_scores(sums, p, index, out);
}

float_vif::Config vif_config(const std::string& options) {
  const OptionMap m = options_of(options);
  const ExtractorSpec spec = testutil::spec_for(float_vif_family(), m);
  (void)spec;
  float_vif::Config c;
  auto set = [&](const char* name, auto& field) {
    auto it = m.find(name);
    if (it == m.end()) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>) {
      field = it->second == "true";
    } else if constexpr (std::is_same_v<std::decay_t<decltype(field)>, std::string>) {
      field = it->second;
    } else {
      field = std::stod(it->second);
    }
  };
  float_vif::Params& p = c.params;
  set(float_vif::kOptDebug, p.debug);
  set(float_vif::kOptGainLimit, p.gain_limit);
  set(float_vif::kOptKernelScale, p.kernelscale);
  set(float_vif::kOptPrescale, p.prescale);
  set(float_vif::kOptScale1MinVal, p.min_val[0]);
  set(float_vif::kOptScale2MinVal, p.min_val[1]);
  set(float_vif::kOptScale3MinVal, p.min_val[2]);
  set(float_vif::kOptPrescaleMethod, p.prescale_method);
  set(float_vif::kOptSigmaNsq, p.sigma_nsq);
  set(float_vif::kOptSkipScale0, p.skip_scale0);
  c.method = float_common::parse_scale_method(p.prescale_method).value();
  return c;
}

// Every option at 8 bits (66 columns; the kernel scale 2 the widest filter
// the picture takes), the defaults at 10 and 16 bits and odd sides, and at
// 260 columns (stats_kernel's whole steps of kStatCols columns, whose row
// chains read four terms at a time, and a part of one, at scales 0 and 1).
TEST(FloatKernels, VifTwinEqualsTheCpuTwinBitForBit) {
  const std::vector<std::string> variants = {
      "debug=true",
      "debug=true:vif_skip_scale0=true",
      "vif_enhn_gain_limit=1.0:vif_sigma_nsq=0.5:debug=true",
      "vif_kernelscale=2.0:debug=true",
      "vif_kernelscale=0.5:vif_scale1_min_val=0.9:vif_scale3_min_val=0.99",
      "vif_prescale=0.5:vif_prescale_method=bicubic:debug=true",
      "vif_prescale=1.5:vif_prescale_method=lanczos4",
      "vif_prescale=0.8:vif_prescale_method=bilinear",
      "vif_prescale=1.25:vif_prescale_method=nearest"};
  for (const auto& [w, h, bpc] : std::vector<std::tuple<unsigned, unsigned, unsigned>>{
           {66, 34, 8}, {41, 36, 10}, {40, 33, 16}, {260, 24, 8}}) {
    const PictureFormat fmt = testutil::format(w, h, bpc);
    const std::vector<Picture> ref = one(textured(fmt, w, 0.03));
    const std::vector<Picture> dist = one(distorted(ref[0], h, 0.04));
    for (const std::string& v : variants) {
      // Every option on the 66-column picture; the defaults on the others.
      if (w != 66 && v != variants.front()) continue;
      const std::string what =
          std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) + "-bit " + v;
      const float_vif::Config config = vif_config(v);
      const bool fits = float_vif::prescaled_size(fmt, config).ok() &&
                        float_vif::scale_sizes(float_vif::prescaled_size(fmt, config)->width,
                                               float_vif::prescaled_size(fmt, config)->height,
                                               static_cast<float>(config.params.kernelscale),
                                               config.params.skip_scale0)
                            .ok();
      if (!fits) continue;
      testutil::RecordingWriter gpu;
      if (bpc == 8) {
        vif_twin_frame<std::uint8_t>(ref[0], dist[0], config, 0, gpu);
      } else {
        vif_twin_frame<std::uint16_t>(ref[0], dist[0], config, 0, gpu);
      }
      expect_same_entries(gpu.entries, cpu_run(float_vif_family(), options_of(v), ref, dist), what);
    }
  }
}

// --- float_adm ---------------------------------------------------------------

// float_adm's gpu.cu, step for step.
template <typename Sample>
void adm_twin_frame(const Picture& ref, const Picture& dist, const float_adm::Params& p,
                    unsigned index, FeatureWriter& out) {
  using float_adm::kBands;
  using float_adm::kScales;
  const PictureFormat fmt = ref.format();
  const auto weights = float_adm::csf_weights(p);
  const float cos_sq = float_adm::cos_1deg_squared();
  std::array<HostImage, kScales> ra;
  std::array<HostImage, kScales> da;
  float_adm::FrameSums frame{};
  unsigned w = fmt.width;
  unsigned h = fmt.height;
  auto scale = [&](int s, const auto& a, const auto& b) {
    using Source = std::decay_t<decltype(a)>;
    const unsigned in_w = w;
    const unsigned in_h = h;
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    const float_adm::ScaleGeometry g = float_adm::scale_geometry(w, h);
    const bool skipped = s == 0 && p.skip_scale0;
    const bool keep_a = s < kScales - 1;
    std::array<HostImage, kBands> rh;
    std::array<HostImage, kBands> dh;
    for (int k = 0; k < kBands; ++k) {
      rh[k] = HostImage(w, h);
      dh[k] = HostImage(w, h);
    }
    if (keep_a) {
      ra[s] = HostImage(w, h);
      da[s] = HostImage(w, h);
    }
    const float_adm::BandTargets rt = {keep_a ? ra[s].data.data() : nullptr,
                                       keep_a ? ra[s].pitch : 0,
                                       rh[0].data.data(),
                                       rh[1].data.data(),
                                       rh[2].data.data(),
                                       rh[0].pitch};
    const float_adm::BandTargets dt = {keep_a ? da[s].data.data() : nullptr,
                                       keep_a ? da[s].pitch : 0,
                                       dh[0].data.data(),
                                       dh[1].data.data(),
                                       dh[2].data.data(),
                                       dh[0].pitch};
    run_grid({blocks(w, float_adm::kDwtX), blocks(h, float_adm::kDwtY)},
             {float_adm::kDwtX, float_adm::kDwtY}, [&] {
               float_adm::dwt_kernel<Source>(a, b, static_cast<int>(in_w), static_cast<int>(in_h),
                                             float_adm::dwt_taps(), skipped, rt, dt,
                                             static_cast<int>(w), static_cast<int>(h));
             });
    if (skipped) {
      frame[s] = {0.0f, float_adm::kSkippedScaleDen, 0.0f};
      return;
    }
    float_adm::BandSources bands{};
    for (int k = 0; k < kBands; ++k) {
      bands.ref[k] = rh[k].data.data();
      bands.dist[k] = dh[k].data.data();
    }
    bands.pitch = rh[0].pitch;
    float_adm::MaskArgs args{};
    args.w = static_cast<int>(w);
    args.h = static_cast<int>(h);
    args.sums = g.sums;
    args.weights = weights[s];
    args.gain_limit = p.enhn_gain_limit;
    args.cos_1deg_sq = cos_sq;
    args.bypass = p.bypass_cm != 0;
    args.cubes = float_adm::Norm{p.p_norm}.cubes();
    args.p_float = static_cast<float>(p.p_norm);
    const auto rows = static_cast<unsigned>(g.sums.bottom - g.sums.top);
    std::vector<float> row_sums(std::size_t{rows} * float_adm::kRowSums, std::nanf(""));
    run_grid({blocks(rows, float_adm::kMaskRows)}, {float_adm::kMaskThreads},
             [&] { float_adm::masking_kernel(bands, args, row_sums.data()); });
    const float_adm::ScaleBandSums bs =
        float_adm::add_rows(row_sums.data(), static_cast<int>(rows));
    frame[s] = float_adm::finish_scale(bs.num, bs.den, bs.aim, g, p);
  };
  scale(0, plane_source<Sample>(ref.plane(0), fmt.bpc),
        plane_source<Sample>(dist.plane(0), fmt.bpc));
  for (int s = 1; s < kScales; ++s) scale(s, ra[s - 1].source(), da[s - 1].source());
  float_adm::write_scores(frame, p, fmt.width, fmt.height, index, out);
}

float_adm::Params adm_params(const OptionMap& m) {
  float_adm::Params p;
  auto num = [&](const char* name, auto& field) {
    auto it = m.find(name);
    if (it == m.end()) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>) {
      field = it->second == "true";
    } else {
      field = static_cast<std::decay_t<decltype(field)>>(std::stod(it->second));
    }
  };
  num(float_adm::kOptDebug, p.debug);
  num(float_adm::kOptEnhnGainLimit, p.enhn_gain_limit);
  num(float_adm::kOptNormViewDist, p.norm_view_dist);
  num(float_adm::kOptNoiseWeight, p.noise_weight);
  num(float_adm::kOptCsfScale, p.csf_scale);
  num(float_adm::kOptCsfDiagScale, p.csf_diag_scale);
  num(float_adm::kOptRefDisplayHeight, p.ref_display_height);
  num(float_adm::kOptCsfMode, p.csf_mode);
  num(float_adm::kOptBypassCm, p.bypass_cm);
  num(float_adm::kOptAdm3ApplyHm, p.adm3_apply_hm);
  num(float_adm::kOptPNorm, p.p_norm);
  num(float_adm::kOptDlmWeight, p.dlm_weight);
  num(float_adm::kOptMinVal, p.min_val);
  for (int k = 0; k < float_adm::kScales; ++k) {
    num(float_adm::kOptF1[k], p.f1[k]);
    num(float_adm::kOptF2[k], p.f2[k]);
  }
  num(float_adm::kOptSkipAimScale, p.skip_aim_scale);
  num(float_adm::kOptSkipScale0, p.skip_scale0);
  return p;
}

// Every option at 41x23 10-bit; the defaults at 17x17 (the smallest), 150
// columns (two tiles of the masking at scale 0), 8 to 16 bits, flat and
// all-max pictures (no reference detail).
TEST(FloatKernels, AdmTwinEqualsTheCpuTwinBitForBit) {
  const std::vector<std::string> variants = {
      "debug=true",
      "adm_enhn_gain_limit=1.0:debug=true",
      "adm_csf_mode=1:adm_norm_view_dist=4.5:adm_csf_scale=2.0:adm_csf_diag_scale=0.5",
      "adm_csf_mode=2:adm_ref_display_height=2160:adm_noise_weight=0.5",
      "adm_bypass_cm=1:adm_dlm_weight=0.3:adm_adm3_apply_hm=true",
      "adm_skip_scale0=true:adm_skip_aim_scale=2:debug=true",
      "adm_f1s0=0.5:adm_f2s1=2.0:adm_f1s3=0.0:adm_min_val=0.9"};
  struct Case {
    unsigned w, h, bpc;
    int content;  // 0 textured, 1 flat, 2 all max
  };
  for (const Case& c : std::vector<Case>{
           {17, 17, 8, 0}, {41, 23, 10, 0}, {170, 17, 16, 0}, {33, 18, 8, 1}, {20, 20, 12, 2}}) {
    const PictureFormat fmt = testutil::format(c.w, c.h, c.bpc);
    const std::uint32_t max = (1U << c.bpc) - 1;
    const std::uint32_t grey = testutil::mid_grey(fmt);
    const std::vector<Picture> ref =
        one(c.content == 0 ? textured(fmt, c.w, 0.03)
                           : testutil::flat_picture(fmt, c.content == 1 ? max / 3 : max, grey));
    const std::vector<Picture> dist =
        one(c.content == 2 ? testutil::flat_picture(fmt, max, grey) : distorted(ref[0], c.h, 0.05));
    for (const std::string& v : variants) {
      if (c.w != 41 && v != variants.front()) continue;  // the options at one size
      const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " " +
                               std::to_string(c.bpc) + "-bit content " + std::to_string(c.content) +
                               " " + v;
      const OptionMap m = options_of(v);
      testutil::RecordingWriter gpu;
      if (c.bpc == 8) {
        adm_twin_frame<std::uint8_t>(ref[0], dist[0], adm_params(m), 0, gpu);
      } else {
        adm_twin_frame<std::uint16_t>(ref[0], dist[0], adm_params(m), 0, gpu);
      }
      expect_same_entries(gpu.entries, cpu_run(float_adm_family(), m, ref, dist), what);
    }
  }
}

// adm_p_norm other than 3: the terms' power is libm's powf on the CPU and
// a double pow rounded to float on the device (docs/gpu.md): within the
// GPU column's 1e-6.
TEST(FloatKernels, AdmTwinWithAPowerOtherThanThreeIsWithinTheTolerance) {
  const PictureFormat fmt = testutil::format(41, 23, 10);
  const std::vector<Picture> ref = one(textured(fmt, 5, 0.03));
  const std::vector<Picture> dist = one(distorted(ref[0], 6, 0.05));
  for (const std::string v : {"adm_p_norm=2.0:debug=true", "adm_p_norm=4.5:adm_bypass_cm=1"}) {
    const OptionMap m = options_of(v);
    testutil::RecordingWriter gpu;
    adm_twin_frame<std::uint16_t>(ref[0], dist[0], adm_params(m), 0, gpu);
    expect_same_entries(gpu.entries, cpu_run(float_adm_family(), m, ref, dist), v, 1e-6);
  }
}

// --- float_motion ------------------------------------------------------------

// float_motion's gpu.cu, step for step, over the whole video: each frame's
// planes blurred (and halved) into entry t % 2, the rows' sums against the
// entry before, the host's means and the shared Series.
template <typename Sample>
std::vector<testutil::RecordingWriter::Entry> motion_twin_run(const std::vector<Picture>& ref,
                                                              const float_motion::Params& p) {
  const PictureFormat fmt = ref[0].format();
  const std::vector<float_motion::PlaneGeometry> planes =
      float_motion::plane_geometry(fmt, p).value();
  const float_common::FilterTaps taps =
      float_common::filter_taps(float_motion::blur_filter(p.filter_size));
  float_motion::Series series(p);
  testutil::RecordingWriter out;
  std::array<std::vector<HostImage>, 2> full;
  std::array<std::vector<HostImage>, 2> half;
  for (unsigned t = 0; t < ref.size(); ++t) {
    double score = 0.0;
    if (!p.force_zero) {
      std::vector<HostImage>& cf = full[t % 2];
      std::vector<HostImage>& ch = half[t % 2];
      cf.resize(planes.size());
      ch.resize(planes.size());
      for (std::size_t q = 0; q < planes.size(); ++q) {
        const float_motion::PlaneGeometry& g = planes[q];
        cf[q] = HostImage(g.width, g.height);
        run_filter<1>(plane_source<Sample>(ref[t].plane(static_cast<unsigned>(q)), fmt.bpc),
                      g.width, g.height, taps, cf[q]);
        if (p.add_scale1) {
          ch[q] = HostImage(g.half_width, g.half_height);
          run_resample(cf[q].source(), g.halver, ch[q]);
        }
      }
      if (t > 0) {
        for (std::size_t q = 0; q < planes.size(); ++q) {
          const float_motion::PlaneGeometry& g = planes[q];
          const std::vector<float> rows = run_row_abs_difference(full[(t - 1) % 2][q], cf[q]);
          const float fv = float_motion::mean_of_rows(rows.data(), g.width, g.height);
          float hv = 0.0f;
          if (p.add_scale1) {
            const std::vector<float> hr = run_row_abs_difference(half[(t - 1) % 2][q], ch[q]);
            hv = float_motion::mean_of_rows(hr.data(), g.half_width, g.half_height);
          }
          score += static_cast<double>(float_motion::plane_value(fv, hv, p.add_scale1));
        }
      }
    }
    series.add(t, score, out);
  }
  series.flush(out);
  return out.entries;
}

float_motion::Params motion_params(const OptionMap& m) {
  float_motion::Params p;
  auto set = [&](const char* name, auto& field) {
    auto it = m.find(name);
    if (it == m.end()) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>) {
      field = it->second == "true";
    } else {
      field = static_cast<std::decay_t<decltype(field)>>(std::stod(it->second));
    }
  };
  set(float_motion::kOptDebug, p.debug);
  set(float_motion::kOptForceZero, p.force_zero);
  set(float_motion::kOptFpsWeight, p.fps_weight);
  set(float_motion::kOptBlendFactor, p.blend_factor);
  set(float_motion::kOptBlendOffset, p.blend_offset);
  set(float_motion::kOptAddScale1, p.add_scale1);
  set(float_motion::kOptFilterSize, p.filter_size);
  set(float_motion::kOptAddUv, p.add_uv);
  set(float_motion::kOptMaxVal, p.max_val);
  return p;
}

// Every option, four frames (one and two for the edge cases), 4:2:0 with
// odd sides (libvmaf's chroma sides), 4:2:2, 4:4:4, 8 to 16 bits.
TEST(FloatKernels, MotionTwinEqualsTheCpuTwinBitForBit) {
  const std::vector<std::string> variants = {
      "debug=true",
      "debug=false:motion_filter_size=3",
      "motion_filter_size=1:motion_fps_weight=2.0:motion_max_val=3.0",
      "motion_add_scale1=true:motion_blend_factor=0.5:motion_blend_offset=10.0",
      "motion_add_uv=true:motion_add_scale1=true",
      "motion_force_zero=true"};
  struct Case {
    unsigned w, h, bpc;
    ChromaFormat chroma;
    unsigned frames;
  };
  for (const Case& c : std::vector<Case>{{41, 23, 8, ChromaFormat::k420, 4},
                                         {20, 17, 10, ChromaFormat::k422, 3},
                                         {140, 12, 16, ChromaFormat::k444, 2},
                                         {12, 12, 12, ChromaFormat::k420, 1}}) {
    const PictureFormat fmt = testutil::format(c.w, c.h, c.bpc, c.chroma);
    std::vector<Picture> ref;
    std::vector<Picture> dist;
    for (unsigned t = 0; t < c.frames; ++t) {
      ref.push_back(textured(fmt, 100 + t, 0.02 + 0.02 * t));
      dist.push_back(distorted(ref.back(), t, 0.03));
    }
    for (const std::string& v : variants) {
      // Every option at 41x23; the defaults and the chroma elsewhere.
      if (c.w != 41 && v != variants.front() && v.find("add_uv") == std::string::npos) continue;
      const OptionMap m = options_of(v);
      const float_motion::Params p = motion_params(m);
      if (!float_motion::plane_geometry(fmt, p).ok()) continue;
      const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h) + " " +
                               std::to_string(c.bpc) + "-bit, " + std::to_string(c.frames) +
                               " frames " + v;
      const auto gpu = c.bpc == 8 ? motion_twin_run<std::uint8_t>(ref, p)
                                  : motion_twin_run<std::uint16_t>(ref, p);
      expect_same_entries(gpu, cpu_run(float_motion_family(), m, ref, dist), what);
    }
  }
}

}  // namespace
}  // namespace vqx

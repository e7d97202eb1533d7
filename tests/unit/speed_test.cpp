// Unit tests of SpEED ("speed_chroma" and "speed_temporal"): the filters,
// the sizes, the 25x25 linear algebra and the resamplers against values
// worked out by hand, and the extractors against libvmaf's speed.c on small
// synthetic pictures; options, names, refusals and temporal bookkeeping.
//
// The reference values of the extractor tests were computed by libvmaf's
// speed.c (scalar C build) on the pictures of sample() below written as Y4M;
// VQX reproduces them bit for bit (the corpus pairs too). The tolerance only
// leaves room for a last-bit difference in a libm log2/exp elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/speed/geometry.hpp"
#include "metrics/speed/linalg.hpp"
#include "metrics/speed/params.hpp"
#include "metrics/speed/rescale.hpp"
#include "metrics/speed/rows.hpp"
#include "metrics/speed/taps.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

constexpr double kTol = 1e-6;

// ---------------------------------------------------------------------------
// Helpers

// A hash of a sample position: the texture of the test pictures.
std::uint32_t mix(std::uint32_t x, std::uint32_t y, std::uint32_t f, std::uint32_t p,
                  std::uint32_t salt) {
  std::uint32_t h =
      x * 374761393U + y * 668265263U + f * 2246822519U + p * 3266489917U + salt * 2654435761U;
  h = (h ^ (h >> 13)) * 1274126177U;
  return h ^ (h >> 16);
}

// Reference sample of plane p at (x, y) in frame f: a ramp with texture that
// pans 2 samples a frame; deeper depths get random low bits. The distorted
// picture adds noise in [-4, 4] (8-bit units).
std::uint32_t ref_sample(unsigned x, unsigned y, unsigned f, unsigned p, unsigned bpc) {
  const unsigned xs = x + 2 * f;
  std::uint32_t v = (xs * 3 + y * 2 + p * 40 + mix(xs, y, 0, p, 0) % 64) % 256;
  if (bpc > 8) {
    v = (v << (bpc - 8)) | (mix(xs, y, 0, p, 2) % (1U << (bpc - 8)));
  }
  return v;
}
std::uint32_t dist_sample(unsigned x, unsigned y, unsigned f, unsigned p, unsigned bpc) {
  const int noise = static_cast<int>(mix(x, y, f, p, 1) % 9) - 4;
  const int v = static_cast<int>(ref_sample(x, y, f, p, bpc)) + noise * (1 << (bpc - 8));
  return static_cast<std::uint32_t>(std::clamp(v, 0, (1 << bpc) - 1));
}

using SampleFn = std::uint32_t (*)(unsigned, unsigned, unsigned, unsigned, unsigned);

Picture make_picture(const PictureFormat& fmt, unsigned frame, SampleFn fn) {
  return testutil::make_picture_per_plane(
      fmt, [&](unsigned p, unsigned x, unsigned y) { return fn(x, y, frame, p, fmt.bpc); });
}

using testutil::format;
using testutil::MapWriter;

// Runs a family over `frames` frames of the test pictures: (ref, dist) =
// (ref_sample, dist_sample) unless `identical`. Values by (slot, frame).
struct RunResult {
  Status status;
  std::vector<std::string> names;
  std::map<std::pair<std::size_t, unsigned>, double> values;
};
RunResult run(const ExtractorFamily& family, const OptionMap& options, const PictureFormat& fmt,
              unsigned frames, bool identical = false) {
  RunResult r;
  auto spec = family.make_spec(options);
  if (!spec.ok()) {
    r.status = spec.status();
    return r;
  }
  for (const auto& o : spec->outputs) {
    r.names.push_back(o.name);
  }
  auto ex = spec->make();
  r.status = ex->init(fmt);
  if (!r.status.ok()) {
    return r;
  }
  MapWriter w;
  for (unsigned i = 0; i < frames; ++i) {
    const Picture ref = make_picture(fmt, i, ref_sample);
    const Picture dist = make_picture(fmt, i, identical ? ref_sample : dist_sample);
    r.status = ex->extract(ref, dist, i, w);
    if (!r.status.ok()) {
      return r;
    }
  }
  r.status = ex->flush(w);
  r.values = w.values;
  return r;
}

// Expected chroma values per frame: u, v, uv.
struct Uvs {
  double u;
  double v;
  double uv;
};
void expect_chroma(const RunResult& r, const std::vector<Uvs>& expected) {
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.values.size(), 3 * expected.size());
  for (unsigned f = 0; f < expected.size(); ++f) {
    EXPECT_NEAR(r.values.at({0, f}), expected[f].u, kTol) << "u, frame " << f;
    EXPECT_NEAR(r.values.at({1, f}), expected[f].v, kTol) << "v, frame " << f;
    EXPECT_NEAR(r.values.at({2, f}), expected[f].uv, kTol) << "uv, frame " << f;
  }
}
void expect_temporal(const RunResult& r, const std::vector<double>& expected) {
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  ASSERT_EQ(r.values.size(), expected.size());
  for (unsigned f = 0; f < expected.size(); ++f) {
    EXPECT_NEAR(r.values.at({0, f}), expected[f], kTol) << "frame " << f;
  }
}

// libvmaf speed.c on 192x176 4:4:4 8-bit (and the same chroma samples in
// 385x353 4:2:0 and 384x176 4:2:2), default options.
const std::vector<Uvs> kChroma192x176 = {
    {2.8665084838867188, 2.6127090454101562, 2.7396087646484375},
    {1.3002719879150391, 2.2036819458007812, 1.7519769668579102},
    {1.1678028106689453, 0.72933578491210938, 0.94856929779052734},
};

// ---------------------------------------------------------------------------
// Filters, sizes, linear algebra, resampling

TEST(SpeedTaps, GaussiansOfTheReference) {
  // Anti-aliasing: 9 taps, sigma = 2 * 9 / 5 = 3.6; band: 3 taps,
  // sigma = 3 / 5 = 0.6; both normalised to sum 1.
  const speed::Taps aa = speed::antialias_taps(1.0);
  ASSERT_EQ(aa.f.size(), 9U);
  double sum = 0;
  for (int i = -4; i <= 4; ++i) {
    sum += std::exp(-0.5 * i * i / (3.6 * 3.6));
  }
  for (int i = -4; i <= 4; ++i) {
    EXPECT_NEAR(aa.f[static_cast<std::size_t>(i + 4)], std::exp(-0.5 * i * i / (3.6 * 3.6)) / sum,
                1e-7);
  }
  const speed::Taps band = speed::band_taps(1.0);
  ASSERT_EQ(band.f.size(), 3U);
  const double side = std::exp(-0.5 / 0.36);
  EXPECT_NEAR(band.f[0], side / (1 + 2 * side), 1e-7);
  EXPECT_NEAR(band.f[1], 1 / (1 + 2 * side), 1e-7);
  EXPECT_EQ(band.f[0], band.f[2]);

  // Sizes: (2^(4 - scale) + 1) * kernel scale, rounded up to odd, >= 3.
  EXPECT_EQ(speed::antialias_taps(0.5).f.size(), 5U);   // 4.5 -> 5
  EXPECT_EQ(speed::antialias_taps(2.0).f.size(), 19U);  // 18 -> 19
  EXPECT_EQ(speed::band_taps(0.5).f.size(), 3U);        // 1 -> 3
  EXPECT_EQ(speed::band_taps(2.0).f.size(), 5U);        // 4 -> 5
  EXPECT_EQ(speed::band_taps(3.0).f.size(), 7U);        // 6 -> 7
}

speed::Params params_with_prescale(double prescale) {
  speed::Params p;
  p.prescale = prescale;
  return p;
}

TEST(SpeedGeometry, SizesOf1080p) {
  const auto g = speed::make_geometry(1920, 1080, speed::Params{}, "test");
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->op_w, 120U);  // 1920 / 16
  EXPECT_EQ(g->op_h, 67U);   // 1080 / 16, truncated
  EXPECT_EQ(g->blocks_x, 24U);
  EXPECT_EQ(g->blocks_y, 13U);
  EXPECT_EQ(g->trunc_w, 120U);
  EXPECT_EQ(g->trunc_h, 65U);
  EXPECT_EQ(g->sub_w, 116U);
  EXPECT_EQ(g->sub_h, 61U);

  const auto half = speed::make_geometry(1920, 1080, params_with_prescale(0.5), "test");
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(half->scaled_w, 960U);
  EXPECT_EQ(half->scaled_h, 540U);
  EXPECT_EQ(half->op_h, 33U);
  // (int)(1920 * 0.6 + 0.5) = 1152, (int)(1081 * 0.6 + 0.5) = 649.
  const auto g6 = speed::make_geometry(1920, 1081, params_with_prescale(0.6), "test");
  ASSERT_TRUE(g6.ok());
  EXPECT_EQ(g6->scaled_w, 1152U);
  EXPECT_EQ(g6->scaled_h, 649U);
  // Within 1e-3 of 1 the picture is not rescaled and keeps its size.
  const auto nearly = speed::make_geometry(1920, 1080, params_with_prescale(1.0009), "test");
  ASSERT_TRUE(nearly.ok());
  EXPECT_EQ(nearly->scaled_w, 1920U);
}

TEST(SpeedGeometry, RefusesPicturesWithoutABlock) {
  EXPECT_TRUE(speed::make_geometry(80, 80, speed::Params{}, "x").ok());
  const auto narrow = speed::make_geometry(79, 1080, speed::Params{}, "speed_test: the planes");
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.status().code(), Errc::kUnsupported);
  EXPECT_NE(narrow.status().message().find("speed_test: the planes (79x1080) are too small"),
            std::string::npos)
      << narrow.status().message();
  EXPECT_NE(narrow.status().message().find("at least 80x80"), std::string::npos);
  EXPECT_FALSE(speed::make_geometry(1080, 79, speed::Params{}, "x").ok());

  // With a prescale the minimum grows: (int)(w * 0.5 + 0.5) >= 80 from 159.
  EXPECT_EQ(speed::min_side(params_with_prescale(0.5)), 159U);
  EXPECT_EQ(speed::min_side(params_with_prescale(2.0)), 40U);
  EXPECT_EQ(speed::min_side(speed::Params{}), 80U);
  const auto small = speed::make_geometry(158, 400, params_with_prescale(0.5), "x");
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.status().message().find("at least 159x159 samples with speed_prescale=0.5"),
            std::string::npos)
      << small.status().message();
  EXPECT_TRUE(speed::make_geometry(159, 400, params_with_prescale(0.5), "x").ok());
}

TEST(SpeedLinalg, EigenvaluesOfKnownMatrices) {
  using speed::kN;
  // The second-difference matrix (2 on the diagonal, -1 beside it) has the
  // eigenvalues 2 - 2 cos(k pi / (n + 1)), k = 1..n.
  speed::Square a{};
  for (int i = 0; i < kN; ++i) {
    a[static_cast<std::size_t>(i * kN + i)] = 2;
    if (i + 1 < kN) {
      a[static_cast<std::size_t>(i * kN + i + 1)] = -1;
      a[static_cast<std::size_t>((i + 1) * kN + i)] = -1;
    }
  }
  speed::Vector e = speed::symmetric_eigenvalues(a);
  std::sort(e.begin(), e.end());
  for (int k = 1; k <= kN; ++k) {
    EXPECT_NEAR(e[static_cast<std::size_t>(k - 1)],
                2 - 2 * std::cos(k * std::numbers::pi / (kN + 1)), 2e-5)
        << k;
  }

  // A diagonal matrix is already diagonal.
  speed::Square d{};
  for (int i = 0; i < kN; ++i) {
    d[static_cast<std::size_t>(i * kN + i)] = static_cast<float>(i + 1);
  }
  const speed::Vector de = speed::symmetric_eigenvalues(d);
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(de[static_cast<std::size_t>(i)], static_cast<float>(i + 1));
  }
}

TEST(SpeedLinalg, QrSolvesAndDetectsSingularMatrices) {
  using speed::kN;
  // A = M'M + 25 I (well conditioned); b has 3 columns.
  speed::Square m{};
  for (std::size_t i = 0; i < m.size(); ++i) {
    m[i] = static_cast<float>(mix(static_cast<std::uint32_t>(i), 0, 0, 0, 3) % 200) / 100.0F - 1;
  }
  speed::Square a{};
  for (int i = 0; i < kN; ++i) {
    for (int j = 0; j < kN; ++j) {
      double s = i == j ? kN : 0;
      for (int k = 0; k < kN; ++k) {
        s += m[static_cast<std::size_t>(k * kN + i)] * m[static_cast<std::size_t>(k * kN + j)];
      }
      a[static_cast<std::size_t>(i * kN + j)] = static_cast<float>(s);
    }
  }
  constexpr std::size_t kCols = 3;
  std::vector<float> b(kN * kCols);
  for (std::size_t i = 0; i < b.size(); ++i) {
    b[i] = static_cast<float>(i % 7) - 3;
  }
  std::vector<float> x(kN * kCols);
  speed::QrSolver solver;
  solver.init(kCols);
  ASSERT_TRUE(solver.solve(a, b.data(), x.data()));
  for (int i = 0; i < kN; ++i) {
    for (std::size_t c = 0; c < kCols; ++c) {
      double ax = 0;
      for (int k = 0; k < kN; ++k) {
        ax += static_cast<double>(a[static_cast<std::size_t>(i * kN + k)]) *
              x[static_cast<std::size_t>(k) * kCols + c];
      }
      EXPECT_NEAR(ax, b[static_cast<std::size_t>(i) * kCols + c], 1e-4);
    }
  }
  // diag(1, ..., 1, 0) has no inverse: R's last pivot vanishes. (The
  // extractor tests the eigenvalues first; a matrix of zeros, for one,
  // turns the QR decomposition into NaNs, which no pivot test catches.)
  speed::Square singular{};
  for (int i = 0; i + 1 < kN; ++i) {
    singular[static_cast<std::size_t>(i * kN + i)] = 1;
  }
  EXPECT_FALSE(solver.solve(singular, b.data(), x.data()));
}

// Rows of a picture given by a function of (x, y).
class FunctionRows final : public speed::RowSource {
 public:
  FunctionRows(unsigned width, float (*fn)(unsigned, unsigned)) : width_(width), fn_(fn) {}
  void row(unsigned y, float* out) override {
    for (unsigned x = 0; x < width_; ++x) {
      out[x] = fn_(x, y);
    }
  }

 private:
  unsigned width_;
  float (*fn_)(unsigned, unsigned);
};

TEST(SpeedRescale, InterpolatesAsTheReference) {
  // Bilinear halving of a ramp samples it at 2x + 0.5 (between two samples).
  FunctionRows ramp(64, [](unsigned x, unsigned) { return static_cast<float>(x); });
  speed::RescaledRows half;
  half.init(64, 8, 32, 4, speed::ScaleMethod::kBilinear);
  half.set_source(&ramp);
  std::vector<float> out(32);
  half.row(1, out.data());
  for (unsigned x = 0; x < 32; ++x) {
    EXPECT_EQ(out[x], 2.0F * static_cast<float>(x) + 0.5F) << x;
  }

  // Nearest doubling repeats every sample.
  FunctionRows rows(10, [](unsigned x, unsigned y) { return static_cast<float>(10 * y + x); });
  speed::RescaledRows twice;
  twice.init(10, 10, 20, 20, speed::ScaleMethod::kNearest);
  twice.set_source(&rows);
  out.assign(20, 0);
  twice.row(7, out.data());  // source row 3
  for (unsigned x = 0; x < 20; ++x) {
    EXPECT_EQ(out[x], static_cast<float>(30 + x / 2)) << x;
  }

  // The bicubic and lanczos4 weights sum to 1: a flat picture stays flat.
  FunctionRows flat(40, [](unsigned, unsigned) { return 17.0F; });
  for (const auto method : {speed::ScaleMethod::kBicubic, speed::ScaleMethod::kLanczos4}) {
    speed::RescaledRows r;
    r.init(40, 40, 27, 33, method);
    r.set_source(&flat);
    out.assign(27, 0);
    for (unsigned y : {0U, 16U, 32U}) {
      r.row(y, out.data());
      for (unsigned x = 0; x < 27; ++x) {
        EXPECT_NEAR(out[x], 17.0F, 2e-5) << x << "," << y;
      }
    }
  }

  // The same size is a copy, whatever the method.
  speed::RescaledRows same;
  same.init(10, 10, 10, 10, speed::ScaleMethod::kLanczos4);
  same.set_source(&rows);
  out.assign(10, 0);
  same.row(4, out.data());
  for (unsigned x = 0; x < 10; ++x) {
    EXPECT_EQ(out[x], static_cast<float>(40 + x));
  }
}

TEST(SpeedRows, SamplesBecomeCentredFloats) {
  // v / 2^(bpc - 8) - 128, and the difference of two planes.
  const std::uint16_t a[3] = {0, 512, 65535};
  const std::uint16_t b[3] = {4, 0, 256};
  speed::PlaneRows rows;
  rows.init(3, 10);
  rows.set({reinterpret_cast<const std::uint8_t*>(a), sizeof a});
  float out[3];
  rows.row(0, out);
  EXPECT_EQ(out[0], -128.0F);
  EXPECT_EQ(out[1], 0.0F);
  EXPECT_EQ(out[2], 65535.0F / 4 - 128);
  rows.set({reinterpret_cast<const std::uint8_t*>(a), sizeof a},
           {reinterpret_cast<const std::uint8_t*>(b), sizeof b});
  rows.row(0, out);
  EXPECT_EQ(out[0], -1.0F);
  EXPECT_EQ(out[1], 128.0F);
  EXPECT_EQ(out[2], (65535.0F - 256.0F) / 4);

  const std::uint8_t c[2] = {0, 255};
  speed::PlaneRows eight;
  eight.init(2, 8);
  eight.set({c, sizeof c});
  eight.row(0, out);
  EXPECT_EQ(out[0], -128.0F);
  EXPECT_EQ(out[1], 127.0F);
}

// ---------------------------------------------------------------------------
// speed_chroma against libvmaf

TEST(SpeedChroma, MatchesReference444And8Bit) {
  expect_chroma(run(speed_chroma_family(), {}, format(192, 176, 8, ChromaFormat::k444), 3),
                kChroma192x176);
}

TEST(SpeedChroma, MatchesReferenceWithMode3AndSigma) {
  expect_chroma(run(speed_chroma_family(), {{"speed_weight_var_mode", "3"}, {"snn", "0.5"}},
                    format(192, 176, 8, ChromaFormat::k444), 3),
                {
                    {0.45225906372070312, 0.63311767578125, 0.54268836975097656},
                    {0.26926422119140625, 0.34539031982421875, 0.3073272705078125},
                    {0.18829727172851562, 0.4825439453125, 0.33542060852050781},
                });
}

TEST(SpeedChroma, MatchesReference420And10Bit) {
  expect_chroma(run(speed_chroma_family(), {}, format(384, 352, 10, ChromaFormat::k420), 2),
                {
                    {2.8641738891601562, 2.4977035522460938, 2.680938720703125},
                    {1.2935543060302734, 2.1998138427734375, 1.7466840744018555},
                });
}

TEST(SpeedChroma, OddSizesUseTheTruncatedChromaSize) {
  // libvmaf takes w / 2 x h / 2 of a 4:2:0 picture: 385x353 gives the
  // 192x176 chroma of the 4:4:4 test, whose samples are the same.
  expect_chroma(run(speed_chroma_family(), {}, format(385, 353, 8, ChromaFormat::k420), 2),
                {kChroma192x176[0], kChroma192x176[1]});
  // 4:2:2 halves the width only.
  expect_chroma(run(speed_chroma_family(), {}, format(384, 176, 8, ChromaFormat::k422), 2),
                {kChroma192x176[0], kChroma192x176[1]});
}

TEST(SpeedChroma, MatchesReferenceWithLanczosPrescaleAndMaxVal) {
  // u of frame 1 exceeds speed_max_val = 2.5 and is clipped; uv is computed
  // from the unclipped u, then clipped.
  const RunResult r = run(
      speed_chroma_family(),
      {{"speed_prescale", "0.6"}, {"speed_prescale_method", "lanczos4"}, {"speed_max_val", "2.5"}},
      format(384, 352, 8, ChromaFormat::k444), 2);
  expect_chroma(r, {
                       {1.8443222045898438, 2.00311279296875, 1.9237174987792969},
                       {2.5, 2.3948478698730469, 2.4802722930908203},
                   });
  ASSERT_EQ(r.names.size(), 3U);
  EXPECT_EQ(r.names[0], "speed_chroma_u_mxv_2.5_ps_0.6_psm_lanczos4");
}

TEST(SpeedChroma, IdenticalPicturesScoreZero) {
  const RunResult r =
      run(speed_chroma_family(), {}, format(192, 176, 8, ChromaFormat::k444), 2, true);
  expect_chroma(r, {{0, 0, 0}, {0, 0, 0}});
}

TEST(SpeedChroma, FlatPlanesAreSingularAndScoreZero) {
  // Constant chroma: every covariance is 0, both pictures are singular.
  const PictureFormat fmt = format(192, 176, 8, ChromaFormat::k444);
  auto spec = speed_chroma_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  auto ex = spec->make();
  ASSERT_TRUE(ex->init(fmt).ok());
  auto flat = [](unsigned x, unsigned y, unsigned f, unsigned p, unsigned bpc) -> std::uint32_t {
    return p == 0 ? ref_sample(x, y, f, p, bpc) : 128;
  };
  const Picture ref = make_picture(fmt, 0, flat);
  const Picture dist = make_picture(fmt, 0, flat);
  MapWriter w;
  ASSERT_TRUE(ex->extract(ref, dist, 0, w).ok());
  EXPECT_EQ(w.values.at({0, 0}), 0.0);
  EXPECT_EQ(w.values.at({1, 0}), 0.0);
  EXPECT_EQ(w.values.at({2, 0}), 0.0);
}

TEST(SpeedChroma, RefusesMonochromeAndTooSmallInput) {
  const RunResult mono = run(speed_chroma_family(), {}, format(640, 480, 8, ChromaFormat::k400), 1);
  ASSERT_FALSE(mono.status.ok());
  EXPECT_EQ(mono.status.code(), Errc::kUnsupported);
  EXPECT_NE(mono.status.message().find("4:0:0"), std::string::npos) << mono.status.message();

  // 176x144 4:2:0 (where libvmaf crashes): 88x72 chroma planes.
  const RunResult qcif = run(speed_chroma_family(), {}, format(176, 144, 8, ChromaFormat::k420), 1);
  ASSERT_FALSE(qcif.status.ok());
  EXPECT_EQ(qcif.status.message(),
            "speed_chroma: the U and V planes (88x72) are too small: SpEED needs at least 80x80 "
            "samples, so that the plane decimated by 16 holds one 5x5 block");
  // 159 wide truncates to 79 chroma samples; 160 is enough.
  EXPECT_FALSE(
      run(speed_chroma_family(), {}, format(159, 400, 8, ChromaFormat::k420), 1).status.ok());
  EXPECT_TRUE(
      run(speed_chroma_family(), {}, format(160, 160, 8, ChromaFormat::k420), 1).status.ok());
}

// ---------------------------------------------------------------------------
// speed_temporal against libvmaf

TEST(SpeedTemporal, MatchesReferenceMonochrome12Bit) {
  expect_temporal(run(speed_temporal_family(), {}, format(192, 176, 12, ChromaFormat::k400), 3),
                  {0, 5.2272071838378906, 8.77337646484375});
}

TEST(SpeedTemporal, MatchesReference16BitWithRefDiff) {
  const RunResult r = run(speed_temporal_family(), {{"speed_use_ref_diff", "true"}},
                          format(192, 176, 16, ChromaFormat::k420), 3);
  expect_temporal(r, {0, 2.4990921020507812, 5.6014480590820312});
  ASSERT_EQ(r.names.size(), 1U);
  EXPECT_EQ(r.names[0], "speed_temporal_urd");
}

TEST(SpeedTemporal, MatchesReferenceWithBicubicPrescale) {
  expect_temporal(run(speed_temporal_family(), {{"ps", "0.7"}, {"psm", "bicubic"}},
                      format(384, 352, 8, ChromaFormat::k444), 2),
                  {0, 5.4371542930603027});
}

TEST(SpeedTemporal, MaxValNamesTheOutputButClipsNothing) {
  const RunResult r = run(speed_temporal_family(), {{"speed_max_val", "1"}},
                          format(192, 176, 12, ChromaFormat::k400), 2);
  expect_temporal(r, {0, 5.2272071838378906});
  EXPECT_EQ(r.names[0], "speed_temporal_mxv_1");
}

TEST(SpeedTemporal, IdenticalSequencesScoreZero) {
  expect_temporal(
      run(speed_temporal_family(), {}, format(192, 176, 8, ChromaFormat::k420), 3, true),
      {0, 0, 0});
}

TEST(SpeedTemporal, NeedsFramesInOrderAndAFittingSize) {
  auto spec = speed_temporal_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  EXPECT_TRUE(spec->temporal);
  auto ex = spec->make();
  const PictureFormat fmt = format(192, 176, 8, ChromaFormat::k420);
  const Picture pic = make_picture(fmt, 0, ref_sample);
  MapWriter w;
  EXPECT_EQ(ex->extract(pic, pic, 0, w).code(), Errc::kInternal);  // before init()
  ASSERT_TRUE(ex->init(fmt).ok());
  EXPECT_EQ(ex->extract(pic, pic, 1, w).code(), Errc::kInternal);  // frame 0 first
  ASSERT_TRUE(ex->extract(pic, pic, 0, w).ok());
  const Picture other = make_picture(format(192, 176, 10, ChromaFormat::k420), 1, ref_sample);
  EXPECT_EQ(ex->extract(other, other, 1, w).code(), Errc::kMismatch);

  // The luma of 176x144 is enough; 79 rows are not.
  EXPECT_TRUE(
      run(speed_temporal_family(), {}, format(176, 144, 8, ChromaFormat::k420), 2).status.ok());
  const RunResult small =
      run(speed_temporal_family(), {}, format(200, 79, 8, ChromaFormat::k420), 1);
  ASSERT_FALSE(small.status.ok());
  EXPECT_NE(small.status.message().find("speed_temporal: the luma planes (200x79) are too small"),
            std::string::npos)
      << small.status.message();
}

// ---------------------------------------------------------------------------
// Options and names

TEST(SpeedOptions, NamesFollowTheReference) {
  // The vmaf_v1.0.16 models' speed_chroma options.
  auto spec = speed_chroma_family().make_spec({{"speed_nn_floor", "0.1"},
                                               {"speed_sigma_nn", "0.19"},
                                               {"speed_weight_var_mode", "5"},
                                               {"speed_max_val", "45"},
                                               {"speed_prescale", "0.5"},
                                               {"speed_prescale_method", "bilinear"},
                                               {"speed_kernelscale", "1.0"}});
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->outputs.size(), 3U);
  EXPECT_EQ(spec->outputs[0].name,
            "speed_chroma_u_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5");
  EXPECT_EQ(spec->outputs[1].name,
            "speed_chroma_v_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5");
  EXPECT_EQ(spec->outputs[2].name,
            "speed_chroma_uv_mxv_45_nnf_0.1_ps_0.5_psm_bilinear_snn_0.19_wvm_5");
  EXPECT_FALSE(spec->temporal);

  // Aliases, and the kernel scale's suffix.
  auto ks = speed_temporal_family().make_spec({{"ks", "2"}, {"nnf", "0.5"}});
  ASSERT_TRUE(ks.ok());
  EXPECT_EQ(ks->outputs[0].name, "speed_temporal_ks_2_nnf_0.5");

  // Defaults: bare names.
  EXPECT_EQ(speed_chroma_family().make_spec({})->outputs[2].name, "speed_chroma_uv");
  EXPECT_EQ(speed_temporal_family().make_spec({})->outputs[0].name, "speed_temporal");

  // Model feature names.
  const auto& provides = speed_chroma_family().provides;
  ASSERT_EQ(provides.size(), 3U);
  EXPECT_STREQ(provides[2].model_name, "Speed_chroma_feature_speed_chroma_uv_score");
  EXPECT_STREQ(provides[2].base, "speed_chroma_uv");
  EXPECT_STREQ(speed_temporal_family().provides[0].model_name,
               "Speed_temporal_feature_speed_temporal_score");
}

TEST(SpeedOptions, BadValuesAreRefused) {
  const std::vector<OptionMap> bad_chroma = {
      {{"speed_kernelscale", "0.8"}},  // in bounds, not a supported scale
      {{"speed_kernelscale", "5"}},    // out of bounds
      {{"speed_prescale", "0.05"}},    // below 0.1
      {{"speed_prescale_method", "area"}},
      {{"speed_sigma_nn", "2.5"}},
      {{"speed_nn_floor", "-0.1"}},
      {{"speed_max_val", "1001"}},
      {{"speed_weight_var_mode", "7"}},
      {{"speed_use_ref_diff", "true"}},  // a speed_temporal option
      {{"speed_sigma_nn", "abc"}},
  };
  for (const OptionMap& o : bad_chroma) {
    const auto spec = speed_chroma_family().make_spec(o);
    ASSERT_FALSE(spec.ok()) << o.begin()->first;
    EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
    EXPECT_NE(spec.status().message().find("speed_chroma"), std::string::npos);
  }
  EXPECT_FALSE(speed_temporal_family().make_spec({{"speed_weight_var_mode", "1"}}).ok());
  EXPECT_FALSE(speed_temporal_family().make_spec({{"urd", "maybe"}}).ok());
  // Every listed kernel scale is accepted, within 1e-3.
  EXPECT_TRUE(speed_chroma_family().make_spec({{"ks", "3.7113"}}).ok());  // 360 / 97
  EXPECT_TRUE(speed_chroma_family().make_spec({{"ks", "0.4444"}}).ok());  // 1 / 2.25
}

}  // namespace
}  // namespace vqx

// Unit tests of the PSNR-HVS extractor ("psnr_hvs"): scores equal to
// libvmaf's on synthetic pictures (every chroma format, 8 to 12 bits, several
// block chunks per row), a flat picture by hand, the integer DCT's range,
// options, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/psnr_hvs/cpu.hpp"
#include "metrics/psnr_hvs/params.hpp"
#include "test_util.hpp"

// dct.hpp expects the loop macro of cpu.cpp; a plain loop suffices.
#define VQX_HVS_LANE_LOOP
#include "metrics/psnr_hvs/dct.hpp"

namespace vqx {
namespace {

// ---------------------------------------------------------------------------
// Helpers

using testutil::LastValueWriter;

enum class Pattern { kRampNoise, kFlat, kIdentical };

// The synthetic pictures the expected values were computed on (with
// libvmaf 3.2.0's psnr_hvs.c): a diagonal ramp, and the ramp plus +-5 (8-bit
// units) of hashed noise (testutil::ramp_sample); or flat planes of values
// a (ref) and b (dist).
Picture make_picture(const PictureFormat& fmt, Pattern pattern, bool dist, unsigned a = 0,
                     unsigned b = 0) {
  Picture out = testutil::new_picture(fmt);
  testutil::fill_planes(out, [&](unsigned p, unsigned x, unsigned y) -> std::uint32_t {
    if (pattern == Pattern::kFlat) return dist ? b : a;
    return testutil::ramp_sample(p, x, y, fmt.bpc, dist && pattern == Pattern::kRampNoise);
  });
  return out;
}

std::unique_ptr<Extractor> make_extractor() {
  auto spec = psnr_hvs_family().make_spec({});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec->make();
}

// psnr_hvs_y, _cb, _cr, psnr_hvs of one frame pair.
std::array<double, 4> run(const PictureFormat& fmt, Pattern pattern, unsigned a = 0,
                          unsigned b = 0) {
  auto ex = make_extractor();
  const Status st = ex->init(fmt);
  EXPECT_TRUE(st.ok()) << st.message();
  const Picture ref = make_picture(fmt, pattern, false, a, b);
  const Picture dist = make_picture(fmt, pattern, true, a, b);
  LastValueWriter w(std::nan(""));
  const Status xs = ex->extract(ref, dist, 7, w);
  EXPECT_TRUE(xs.ok()) << xs.message();
  EXPECT_EQ(w.values.size(), 4U);
  EXPECT_EQ(w.last_frame, 7U);
  w.values.resize(4, std::nan(""));
  return {w.values[0], w.values[1], w.values[2], w.values[3]};
}

using testutil::format;

// ---------------------------------------------------------------------------
// Scores

struct LibvmafCase {
  ChromaFormat chroma;
  unsigned bpc, w, h;
  std::array<double, 4> expected;  // libvmaf's output, printed with %.17g
};

TEST(PsnrHvs, EqualsLibvmafOnSyntheticPictures) {
  const LibvmafCase cases[] = {
      {ChromaFormat::k420,
       8,
       64,
       48,
       {46.572706257389463, 46.9323041511037, 49.461199245836966, 46.825399133615704}},
      {ChromaFormat::k444,
       10,
       40,
       24,
       {45.298268275046595, 48.792649160460762, 48.577444008001066, 45.795961184070535}},
      {ChromaFormat::k422,
       12,
       48,
       32,
       {46.214022693307683, 47.63071236309991, 47.466315421643728, 46.449992899517405}},
      {ChromaFormat::k420,
       9,
       32,
       32,
       {46.157210701816268, 45.664141066503134, 46.118902035195958, 46.101506698700433}},
      // 19 blocks per luma row: more than one chunk of lanes.
      {ChromaFormat::k420,
       8,
       136,
       24,
       {46.48252215312035, 48.096915999109171, 49.928346722601411, 46.872189599736814}},
      {ChromaFormat::k420,
       10,
       136,
       24,
       {47.370536394868132, 49.673362958628253, 48.986194755282085, 47.696085572571654}},
  };
  for (const LibvmafCase& c : cases) {
    SCOPED_TRACE(std::string(to_string(c.chroma)) + " " + std::to_string(c.bpc) + "-bit " +
                 std::to_string(c.w) + "x" + std::to_string(c.h));
    const auto got = run(format(c.w, c.h, c.bpc, c.chroma), Pattern::kRampNoise);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], c.expected[i]) << "output " << i;
  }
}

// An odd size: the luma plane is the same as libvmaf's (its chroma planes
// round down, ours up, so only luma is compared).
TEST(PsnrHvs, OddSizeLumaEqualsLibvmaf) {
  const auto got = run(format(37, 29, 8, ChromaFormat::k420), Pattern::kRampNoise);
  EXPECT_EQ(got[0], 46.058573542291825);
  for (double v : got) EXPECT_TRUE(std::isfinite(v));
}

// One 8x8 block per plane, flat 100 against flat 102: only the DC
// coefficient differs (it is never masked), by its DCT difference d, so
// each plane's error is (d * csf[0][0])^2 / 64 / 255^2 in float.
TEST(PsnrHvs, FlatBlockByHand) {
  std::array<std::array<std::int32_t, 8>, 8> ref{};
  std::array<std::array<std::int32_t, 8>, 8> dist{};
  for (auto& r : ref) r.fill(100);
  for (auto& r : dist) r.fill(102);
  auto dct2 = [](std::array<std::array<std::int32_t, 8>, 8> x) {
    std::array<std::array<std::int32_t, 8>, 8> cols{};  // cols[j] = DCT of column j
    for (int j = 0; j < 8; ++j) {
      std::array<std::int32_t, 8> c{};
      for (int i = 0; i < 8; ++i) c[i] = x[i][j];
      cols[j] = psnr_hvs::fdct8(c);
    }
    std::array<std::array<std::int32_t, 8>, 8> out{};
    for (int i = 0; i < 8; ++i) {
      std::array<std::int32_t, 8> r{};
      for (int j = 0; j < 8; ++j) r[j] = cols[j][i];
      out[i] = psnr_hvs::fdct8(r);
    }
    return out;
  };
  const auto cr = dct2(ref);
  const auto cd = dct2(dist);
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      if (i == 0 && j == 0) continue;
      EXPECT_EQ(cr[i][j], 0);
      EXPECT_EQ(cd[i][j], 0);
    }
  }
  const float d = static_cast<float>(cd[0][0] - cr[0][0]);
  EXPECT_EQ(d, 15.0f);  // the DC gain is about 7.5, rounded in the lifting steps

  const auto got = run(format(8, 8, 8, ChromaFormat::k444), Pattern::kFlat, 100, 102);
  const psnr_hvs::Table* tables[3] = {&psnr_hvs::kCsfY, &psnr_hvs::kCsfCb, &psnr_hvs::kCsfCr};
  double errors[3];
  for (int p = 0; p < 3; ++p) {
    const float w = d * (*tables[p])[0][0];
    const float e = w * w / 64.0f / 65025.0f;
    errors[p] = e;
    EXPECT_EQ(got[p], -10.0 * std::log10(errors[p])) << "plane " << p;
  }
  EXPECT_EQ(got[3], -10.0 * std::log10(0.8 * errors[0] + 0.1 * (errors[1] + errors[2])));
  // And libvmaf's output for these pictures.
  EXPECT_EQ(got[0], 38.483763543310907);
  EXPECT_EQ(got[3], 38.078644671221056);
}

TEST(PsnrHvs, IdenticalPicturesScoreInfinity) {
  for (ChromaFormat c : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
    const auto got = run(format(32, 32, 10, c), Pattern::kIdentical);
    for (double v : got) EXPECT_EQ(v, std::numeric_limits<double>::infinity());
  }
}

TEST(PsnrHvs, MaskIsTheSquaredScaledCsf) {
  const psnr_hvs::Weights w = psnr_hvs::make_weights(psnr_hvs::kCsfY);
  for (int k = 0; k < psnr_hvs::kBlockArea; ++k) {
    const double scaled = static_cast<double>(w.csf[k]) * 0.3885746225901003;
    EXPECT_EQ(w.mask[k], static_cast<float>(scaled * scaled));
  }
  EXPECT_EQ(w.csf[0], 1.6193873005f);
  EXPECT_EQ(w.csf[63], 0.109083846276f);
}

// ---------------------------------------------------------------------------
// The DCT

TEST(PsnrHvsDct, ZeroAndFlatColumns) {
  std::array<std::int32_t, 8> zero{};
  EXPECT_EQ(psnr_hvs::fdct8(zero), zero);
  std::array<std::int32_t, 8> flat{};
  flat.fill(1000);
  const auto out = psnr_hvs::fdct8(flat);
  for (int k = 1; k < 8; ++k) EXPECT_EQ(out[k], 0) << k;
  EXPECT_GT(out[0], 2800);  // about sqrt(8) * 1000
  EXPECT_LT(out[0], 2850);
}

// An integer that records the largest magnitude of every value and product
// the DCT computes, to show that int32 suffices.
struct Tracked {
  std::int64_t v;
};
std::int64_t g_largest = 0;
Tracked note(std::int64_t v) {
  g_largest = std::max(g_largest, v < 0 ? -v : v);
  return {v};
}
Tracked operator+(Tracked a, Tracked b) { return note(a.v + b.v); }
Tracked operator-(Tracked a, Tracked b) { return note(a.v - b.v); }
Tracked operator+(Tracked a, std::int32_t b) { return note(a.v + b); }
Tracked operator*(Tracked a, std::int32_t b) { return note(a.v * b); }
Tracked operator>>(Tracked a, int s) { return note(a.v >> s); }
Tracked& operator+=(Tracked& a, Tracked b) { return a = a + b; }
Tracked& operator-=(Tracked& a, Tracked b) { return a = a - b; }
bool operator<(Tracked a, int b) { return a.v < b; }

// The worst inputs for each coefficient at 12 bits (0 or 4095 following the
// sign of its basis function, and the opposite), plus random 0/4095 blocks.
TEST(PsnrHvsDct, TwelveBitSamplesStayWithinInt32) {
  const std::int32_t max = 4095;
  std::vector<std::array<std::array<std::int32_t, 8>, 8>> blocks;
  for (int u = 0; u < 8; ++u) {
    for (int v = 0; v < 8; ++v) {
      std::array<std::array<std::int32_t, 8>, 8> pos{};
      std::array<std::array<std::int32_t, 8>, 8> neg{};
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
          const double basis = std::cos((2 * i + 1) * u * std::numbers::pi / 16) *
                               std::cos((2 * j + 1) * v * std::numbers::pi / 16);
          pos[i][j] = basis >= 0 ? max : 0;
          neg[i][j] = basis >= 0 ? 0 : max;
        }
      }
      blocks.push_back(pos);
      blocks.push_back(neg);
    }
  }
  std::mt19937 rng(5);
  for (int n = 0; n < 2000; ++n) {
    std::array<std::array<std::int32_t, 8>, 8> b{};
    for (auto& r : b) {
      for (auto& x : r) x = (rng() & 1) != 0 ? max : 0;
    }
    blocks.push_back(b);
  }
  g_largest = 0;
  std::int64_t largest_coefficient = 0;
  for (const auto& b : blocks) {
    std::array<std::array<Tracked, 8>, 8> cols{};
    for (int j = 0; j < 8; ++j) {
      std::array<Tracked, 8> c{};
      for (int i = 0; i < 8; ++i) c[i] = {b[i][j]};
      cols[j] = psnr_hvs::fdct8(c);
    }
    for (int i = 0; i < 8; ++i) {
      std::array<Tracked, 8> r{};
      for (int j = 0; j < 8; ++j) r[j] = cols[j][i];
      for (const Tracked& t : psnr_hvs::fdct8(r)) {
        largest_coefficient = std::max(largest_coefficient, t.v < 0 ? -t.v : t.v);
      }
    }
  }
  EXPECT_LT(g_largest, std::int64_t{1} << 31);
  // The masking energy squares coefficients in int, as libvmaf does.
  EXPECT_LT(largest_coefficient * largest_coefficient, std::int64_t{1} << 31);
}

// ---------------------------------------------------------------------------
// Names, options, errors

TEST(PsnrHvs, OutputNamesAndProvidedFeatures) {
  auto spec = psnr_hvs_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  ASSERT_EQ(spec->outputs.size(), 4U);
  EXPECT_EQ(spec->outputs[0].name, "psnr_hvs_y");
  EXPECT_EQ(spec->outputs[1].name, "psnr_hvs_cb");
  EXPECT_EQ(spec->outputs[2].name, "psnr_hvs_cr");
  EXPECT_EQ(spec->outputs[3].name, "psnr_hvs");
  EXPECT_FALSE(spec->temporal);
  EXPECT_EQ(std::string(psnr_hvs_family().name), "psnr_hvs");
  EXPECT_EQ(psnr_hvs_family().provides.size(), 4U);
}

TEST(PsnrHvs, HasNoOptions) {
  auto spec = psnr_hvs_family().make_spec({{"enable_chroma", "false"}});
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(spec.status().message().find("psnr_hvs"), std::string::npos);
  EXPECT_NE(spec.status().message().find("enable_chroma"), std::string::npos);
}

TEST(PsnrHvs, RefusesWhatLibvmafRefuses) {
  auto ex = make_extractor();
  const Status mono = ex->init(format(64, 64, 8, ChromaFormat::k400));
  EXPECT_EQ(mono.code(), Errc::kUnsupported);
  EXPECT_NE(mono.message().find("4:0:0"), std::string::npos);
  for (unsigned bpc : {13U, 16U}) {
    const Status deep = ex->init(format(64, 64, bpc, ChromaFormat::k420));
    EXPECT_EQ(deep.code(), Errc::kUnsupported);
    EXPECT_NE(deep.message().find("bit depth"), std::string::npos);
  }
}

TEST(PsnrHvs, RefusesPlanesSmallerThanABlock) {
  auto ex = make_extractor();
  // 4:2:0 14x14 has 7x7 chroma planes.
  const Status small = ex->init(format(14, 14, 8, ChromaFormat::k420));
  EXPECT_EQ(small.code(), Errc::kUnsupported);
  EXPECT_NE(small.message().find("8x8"), std::string::npos);
  EXPECT_TRUE(ex->init(format(16, 16, 8, ChromaFormat::k420)).ok());
  EXPECT_TRUE(ex->init(format(8, 8, 8, ChromaFormat::k444)).ok());
}

TEST(PsnrHvs, RefusesAFrameOfAnotherFormat) {
  auto ex = make_extractor();
  ASSERT_TRUE(ex->init(format(32, 32, 8, ChromaFormat::k420)).ok());
  const Picture a =
      make_picture(format(32, 32, 10, ChromaFormat::k420), Pattern::kRampNoise, false);
  LastValueWriter w(std::nan(""));
  const Status st = ex->extract(a, a, 0, w);
  EXPECT_EQ(st.code(), Errc::kMismatch);
}

TEST(PsnrHvs, ExtractBeforeInitIsAnError) {
  auto ex = make_extractor();
  const Picture a = make_picture(format(32, 32, 8, ChromaFormat::k420), Pattern::kRampNoise, false);
  LastValueWriter w(std::nan(""));
  EXPECT_EQ(ex->extract(a, a, 0, w).code(), Errc::kInternal);
}

}  // namespace
}  // namespace vqx

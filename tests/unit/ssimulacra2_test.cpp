// Unit tests of the SSIMULACRA2 extractor ("ssimulacra2"): the test vectors
// made with libjxl (tests/data/ssimulacra2, README.md there says how), the
// colour conversion against its definition, the blur against a plain double
// recursion, the scale count, and the extractor's options, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/ssimulacra2/blur.hpp"
#include "metrics/ssimulacra2/colour.hpp"
#include "metrics/ssimulacra2/cpu.hpp"
#include "metrics/ssimulacra2/params.hpp"
#include "metrics/ssimulacra2/xyb.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;

fs::path data_dir() {
  if (const char* dir = std::getenv("VQX_TEST_DATA_DIR")) return fs::path(dir) / "ssimulacra2";
#ifdef VQX_TEST_DATA_DIR
  return fs::path(VQX_TEST_DATA_DIR) / "ssimulacra2";
#else
  return fs::path("tests/data/ssimulacra2");
#endif
}

class LastValueWriter final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned frame, double v) override {
    last_slot = slot;
    last_frame = frame;
    value = v;
    ++count;
  }
  std::size_t last_slot = 99;
  unsigned last_frame = 99;
  double value = -1e300;
  int count = 0;
};

using testutil::new_picture;

void set_sample(Picture& pic, unsigned p, unsigned x, unsigned y, unsigned v) {
  if (pic.bpc() > 8) {
    pic.plane(p).row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
  } else {
    pic.plane(p).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
  }
}

// Planar samples as the vectors store them: 8-bit as bytes, deeper as
// little-endian 16-bit words.
Picture load_raw(const fs::path& path, const PictureFormat& fmt) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  Picture pic = new_picture(fmt);
  EXPECT_EQ(bytes.size(), fmt.packed_frame_bytes()) << path;
  if (bytes.size() != fmt.packed_frame_bytes()) return pic;
  std::size_t pos = 0;
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
      for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
        unsigned v = bytes[pos++];
        if (fmt.bpc > 8) v |= static_cast<unsigned>(bytes[pos++]) << 8;
        set_sample(pic, p, x, y, v);
      }
    }
  }
  return pic;
}

// Deterministic noise around `mean` (in units of the full scale).
Picture noise_picture(const PictureFormat& fmt, std::uint32_t seed, double mean, double amp) {
  Picture pic = new_picture(fmt);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-amp, amp);
  const double max = std::ldexp(1.0, static_cast<int>(fmt.bpc)) - 1;
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
      for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
        const double v = std::clamp(mean + u(gen), 0.0, 1.0) * max;
        set_sample(pic, p, x, y, static_cast<unsigned>(std::lround(v)));
      }
    }
  }
  return pic;
}

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(ssimulacra2_family(), options);
}

// The score of one frame pair through the extractor.
double score_of(const Picture& ref, const Picture& dist, const OptionMap& options = {}) {
  const ExtractorSpec spec = spec_for(options);
  auto ex = spec.make();
  const Status init = ex->init(ref.format());
  EXPECT_TRUE(init.ok()) << init.message();
  LastValueWriter out;
  const Status st = ex->extract(ref, dist, 0, out);
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(out.count, 1);
  return out.value;
}

ChromaFormat chroma_of(const std::string& s) {
  if (s == "400") return ChromaFormat::k400;
  if (s == "422") return ChromaFormat::k422;
  if (s == "444") return ChromaFormat::k444;
  return ChromaFormat::k420;
}

// ---------------------------------------------------------------------------
// Test vectors from libjxl

TEST(Ssimulacra2Vectors, MatchLibjxl) {
  std::ifstream in(data_dir() / "vectors.json");
  ASSERT_TRUE(in.good()) << data_dir();
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_GE(doc["vectors"].size(), 10U);
  double max_err = 0;
  for (const auto& v : doc["vectors"]) {
    const PictureFormat fmt{v["width"].get<unsigned>(), v["height"].get<unsigned>(),
                            v["bpc"].get<unsigned>(), chroma_of(v["chroma"].get<std::string>())};
    const Picture ref = load_raw(data_dir() / v["ref"].get<std::string>(), fmt);
    const Picture dist = load_raw(data_dir() / v["dist"].get<std::string>(), fmt);
    OptionMap options;
    for (const auto& [key, value] : v["options"].items()) {
      options[key] = value.get<std::string>();
    }
    const double expected = v["libjxl"].get<double>();
    const double got = score_of(ref, dist, options);
    // VQX rounds as libjxl's AVX2 build does, so the two agree to the last
    // bits of the double sums (ARCHITECTURE.md allows 1e-3).
    EXPECT_NEAR(got, expected, 1e-6) << v["name"].get<std::string>();
    max_err = std::max(max_err, std::abs(got - expected));
  }
  RecordProperty("max_abs_error", std::to_string(max_err));
}

// ---------------------------------------------------------------------------
// Scores

TEST(Ssimulacra2, IdenticalPicturesScore100) {
  for (const auto chroma :
       {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444, ChromaFormat::k400}) {
    for (const unsigned bpc : {8U, 10U, 12U, 16U}) {
      const PictureFormat fmt{41, 23, bpc, chroma};
      const Picture a = noise_picture(fmt, 7, 0.5, 0.3);
      EXPECT_EQ(score_of(a, a), 100.0) << to_string(chroma) << " " << bpc;
    }
  }
}

TEST(Ssimulacra2, MoreDistortionScoresLower) {
  const PictureFormat fmt{64, 48, 8, ChromaFormat::k420};
  const Picture ref = noise_picture(fmt, 1, 0.5, 0.2);
  Picture mild = new_picture(fmt);
  Picture strong = new_picture(fmt);
  std::mt19937 gen(2);
  for (unsigned p = 0; p < 3; ++p) {
    for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
      for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
        const int v = static_cast<int>(ref.plane(p).at(x, y));
        const int n = static_cast<int>(gen() % 9) - 4;
        set_sample(mild, p, x, y, static_cast<unsigned>(std::clamp(v + n, 0, 255)));
        set_sample(strong, p, x, y, static_cast<unsigned>(std::clamp(v + 6 * n, 0, 255)));
      }
    }
  }
  const double s_mild = score_of(ref, mild);
  const double s_strong = score_of(ref, strong);
  EXPECT_LT(s_mild, 100.0);
  EXPECT_LT(s_strong, s_mild);
}

// Grey 4:0:0 is 4:4:4 with zero chroma.
TEST(Ssimulacra2, GreyEqualsNeutralChroma) {
  const PictureFormat grey{40, 30, 10, ChromaFormat::k400};
  const PictureFormat colour{40, 30, 10, ChromaFormat::k444};
  const Picture ga = noise_picture(grey, 3, 0.5, 0.3);
  const Picture gb = noise_picture(grey, 4, 0.5, 0.3);
  Picture ca = new_picture(colour);
  Picture cb = new_picture(colour);
  for (unsigned y = 0; y < 30; ++y) {
    for (unsigned x = 0; x < 40; ++x) {
      set_sample(ca, 0, x, y, ga.plane(0).at(x, y));
      set_sample(cb, 0, x, y, gb.plane(0).at(x, y));
      for (unsigned p = 1; p < 3; ++p) {
        set_sample(ca, p, x, y, 512);
        set_sample(cb, p, x, y, 512);
      }
    }
  }
  EXPECT_EQ(score_of(ga, gb), score_of(ca, cb));
}

TEST(Ssimulacra2, DeterministicAcrossInstancesAndCalls) {
  const PictureFormat fmt{77, 45, 12, ChromaFormat::k422};
  const Picture a = noise_picture(fmt, 5, 0.4, 0.3);
  const Picture b = noise_picture(fmt, 6, 0.4, 0.3);
  const ExtractorSpec spec = spec_for({});
  auto e1 = spec.make();
  auto e2 = spec.make();
  ASSERT_TRUE(e1->init(fmt).ok());
  ASSERT_TRUE(e2->init(fmt).ok());
  LastValueWriter w1;
  LastValueWriter w2;
  ASSERT_TRUE(e1->extract(a, b, 3, w1).ok());
  const double first = w1.value;
  ASSERT_TRUE(e1->extract(a, b, 4, w1).ok());
  ASSERT_TRUE(e2->extract(a, b, 3, w2).ok());
  EXPECT_EQ(w1.value, first);
  EXPECT_EQ(w2.value, first);
  EXPECT_EQ(w1.last_frame, 4U);
  EXPECT_EQ(w1.last_slot, 0U);
}

// ---------------------------------------------------------------------------
// Sizes

TEST(Ssimulacra2, ScaleCountFollowsLibjxl) {
  using ssimulacra2::scale_count;
  EXPECT_EQ(scale_count(7, 100), 0U);
  EXPECT_EQ(scale_count(8, 8), 2U);    // 8 -> 4: the 1:2 scale is still computed
  EXPECT_EQ(scale_count(15, 15), 3U);  // 15 -> 8 -> 4
  EXPECT_EQ(scale_count(20, 300), 3U);
  EXPECT_EQ(scale_count(100, 100), 5U);  // 100 -> 50 -> 25 -> 13 -> 7
  EXPECT_EQ(scale_count(176, 144), 6U);  // 144 -> 72 -> 36 -> 18 -> 9 -> 5
  EXPECT_EQ(scale_count(1920, 1080), 6U);
}

TEST(Ssimulacra2, RefusesPicturesSmallerThan8x8) {
  const ExtractorSpec spec = spec_for({});
  for (const auto& [w, h] : {std::pair{7U, 8U}, std::pair{8U, 7U}, std::pair{1U, 1U}}) {
    auto ex = spec.make();
    const Status st = ex->init(PictureFormat{w, h, 8, ChromaFormat::k420});
    EXPECT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Errc::kUnsupported);
    EXPECT_NE(st.message().find("ssimulacra2"), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("8x8"), std::string::npos) << st.message();
  }
  auto ex = spec.make();
  EXPECT_TRUE(ex->init(PictureFormat{8, 8, 8, ChromaFormat::k420}).ok());
}

TEST(Ssimulacra2, RefusesFramesOfAnotherFormat) {
  const ExtractorSpec spec = spec_for({});
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(PictureFormat{16, 16, 8, ChromaFormat::k420}).ok());
  const Picture a = new_picture(PictureFormat{16, 16, 10, ChromaFormat::k420});
  LastValueWriter out;
  const Status st = ex->extract(a, a, 0, out);
  EXPECT_EQ(st.code(), Errc::kMismatch);
  EXPECT_EQ(out.count, 0);
}

// ---------------------------------------------------------------------------
// Options and names

TEST(Ssimulacra2, OutputNames) {
  EXPECT_EQ(spec_for({}).outputs.at(0).name, "ssimulacra2");
  EXPECT_EQ(spec_for({{"matrix", "bt709"}, {"transfer", "srgb"}}).outputs.at(0).name,
            "ssimulacra2");
  EXPECT_EQ(spec_for({{"matrix", "bt601"}}).outputs.at(0).name, "ssimulacra2_matrix_bt601");
  EXPECT_EQ(spec_for({{"transfer", "bt1886"}, {"range", "full"}}).outputs.at(0).name,
            "ssimulacra2_range_full_transfer_bt1886");
  EXPECT_NE(spec_for({}).key, spec_for({{"range", "full"}}).key);
  EXPECT_EQ(spec_for({}).outputs.size(), 1U);
  EXPECT_FALSE(spec_for({}).temporal);
}

TEST(Ssimulacra2, RefusesBadOptions) {
  for (const OptionMap& bad : {OptionMap{{"matrix", "bt2100"}}, OptionMap{{"range", "tv"}},
                               OptionMap{{"transfer", "pq"}}, OptionMap{{"sigma", "2"}}}) {
    const auto spec = ssimulacra2_family().make_spec(bad);
    ASSERT_FALSE(spec.ok());
    EXPECT_NE(spec.status().message().find("ssimulacra2"), std::string::npos)
        << spec.status().message();
  }
  const auto spec = ssimulacra2_family().make_spec({{"matrix", "bt2100"}});
  EXPECT_NE(spec.status().message().find("bt709, bt601, bt2020"), std::string::npos)
      << spec.status().message();
}

// ---------------------------------------------------------------------------
// Colour conversion

// The definition in double (colour.hpp).
double transfer_exact(ssimulacra2::Transfer t, double v) {
  using ssimulacra2::Transfer;
  v = std::clamp(v, 0.0, 1.0);
  switch (t) {
    case Transfer::kSrgb:
      return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    case Transfer::kBt709:
      return v < 0.081 ? v / 4.5 : std::pow((v + 0.099) / 1.099, 1 / 0.45);
    case Transfer::kBt1886:
      return std::pow(v, 2.4);
    case Transfer::kLinear:
      break;
  }
  return v;
}

struct Rgb {
  float r, g, b;
};

Rgb convert_one(const ssimulacra2::Params& params, unsigned bpc, ChromaFormat chroma, unsigned y,
                unsigned cb, unsigned cr) {
  const PictureFormat fmt{8, 2, bpc, chroma};
  Picture pic = new_picture(fmt);
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    for (unsigned yy = 0; yy < fmt.plane_height(p); ++yy) {
      for (unsigned x = 0; x < fmt.plane_width(p); ++x) {
        set_sample(pic, p, x, yy, p == 0 ? y : p == 1 ? cb : cr);
      }
    }
  }
  ssimulacra2::LinearRgbConverter conv;
  conv.init(fmt, params);
  std::vector<float> r(8), g(8), b(8);
  conv.convert_row(pic, 1, r.data(), g.data(), b.data());
  return {r[5], g[5], b[5]};
}

TEST(Ssimulacra2Colour, BlackWhiteAndGreyAtEveryDepth) {
  const ssimulacra2::Params p;  // BT.709, limited, sRGB
  for (const unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    const unsigned k = 1U << (bpc - 8);
    const Rgb black = convert_one(p, bpc, ChromaFormat::k420, 16 * k, 128 * k, 128 * k);
    const Rgb white = convert_one(p, bpc, ChromaFormat::k420, 235 * k, 128 * k, 128 * k);
    const Rgb below = convert_one(p, bpc, ChromaFormat::k420, 4 * k, 128 * k, 128 * k);
    EXPECT_EQ(black.r, 0.0f);
    EXPECT_EQ(black.g, 0.0f);
    EXPECT_EQ(black.b, 0.0f);
    EXPECT_NEAR(white.r, 1.0f, 1e-6f);
    EXPECT_NEAR(white.g, 1.0f, 1e-6f);
    EXPECT_NEAR(white.b, 1.0f, 1e-6f);
    EXPECT_EQ(below.r, 0.0f);  // clamped, as an integer RGB picture would hold it
  }
  ssimulacra2::Params full;
  full.range = ssimulacra2::Range::kFull;
  const Rgb white10 = convert_one(full, 10, ChromaFormat::k444, 1023, 512, 512);
  EXPECT_NEAR(white10.g, 1.0f, 1e-6f);
  const Rgb grey = convert_one(p, 8, ChromaFormat::k400, 126, 0, 0);
  EXPECT_EQ(grey.r, grey.g);
  EXPECT_EQ(grey.g, grey.b);
}

TEST(Ssimulacra2Colour, MatchesTheDefinitionForEveryMatrixRangeAndCurve) {
  using ssimulacra2::Matrix;
  using ssimulacra2::Range;
  using ssimulacra2::Transfer;
  const double weights[3][2] = {{0.2126, 0.0722}, {0.299, 0.114}, {0.2627, 0.0593}};
  const Matrix matrices[3] = {Matrix::kBt709, Matrix::kBt601, Matrix::kBt2020};
  std::mt19937 gen(11);
  double max_err = 0;
  for (int m = 0; m < 3; ++m) {
    for (const Range range : {Range::kLimited, Range::kFull}) {
      for (const Transfer t :
           {Transfer::kSrgb, Transfer::kBt709, Transfer::kBt1886, Transfer::kLinear}) {
        ssimulacra2::Params p;
        p.matrix = matrices[m];
        p.range = range;
        p.transfer = t;
        for (int i = 0; i < 40; ++i) {
          const unsigned bpc = 8 + 2 * (i % 5);
          const unsigned max = (1U << bpc) - 1;
          const auto y = static_cast<unsigned>(gen() % (max + 1));
          const auto cb = static_cast<unsigned>(gen() % (max + 1));
          const auto cr = static_cast<unsigned>(gen() % (max + 1));
          const Rgb got = convert_one(p, bpc, ChromaFormat::k444, y, cb, cr);
          const double k = std::ldexp(1.0, static_cast<int>(bpc) - 8);
          double yn, pb, pr;
          if (range == Range::kLimited) {
            yn = (y - 16 * k) / (219 * k);
            pb = (cb - 128 * k) / (224 * k);
            pr = (cr - 128 * k) / (224 * k);
          } else {
            yn = y / static_cast<double>(max);
            pb = (cb - std::ldexp(1.0, static_cast<int>(bpc) - 1)) / max;
            pr = (cr - std::ldexp(1.0, static_cast<int>(bpc) - 1)) / max;
          }
          const double kr = weights[m][0];
          const double kb = weights[m][1];
          const double r = yn + 2 * (1 - kr) * pr;
          const double b = yn + 2 * (1 - kb) * pb;
          const double g = (yn - kr * r - kb * b) / (1 - kr - kb);
          max_err = std::max({max_err, std::abs(got.r - transfer_exact(t, r)),
                              std::abs(got.g - transfer_exact(t, g)),
                              std::abs(got.b - transfer_exact(t, b))});
        }
      }
    }
  }
  // Float arithmetic and the interpolated table: a few float ulps of 1.
  EXPECT_LT(max_err, 5e-7);
}

TEST(Ssimulacra2Colour, ChromaIsReplicatedNotFiltered) {
  // 4:2:0, 10 wide: chroma column c covers luma columns 2c and 2c + 1 (and
  // row pairs). A red chroma sample at column 2 must colour luma 4 and 5 only.
  const PictureFormat fmt{10, 4, 8, ChromaFormat::k420};
  Picture pic = new_picture(fmt);
  for (unsigned y = 0; y < 4; ++y) {
    for (unsigned x = 0; x < 10; ++x) set_sample(pic, 0, x, y, 126);
  }
  for (unsigned y = 0; y < 2; ++y) {
    for (unsigned x = 0; x < 5; ++x) {
      set_sample(pic, 1, x, y, 128);
      set_sample(pic, 2, x, y, x == 2 ? 200 : 128);
    }
  }
  ssimulacra2::LinearRgbConverter conv;
  conv.init(fmt, {});
  std::vector<float> r(10), g(10), b(10);
  conv.convert_row(pic, 3, r.data(), g.data(), b.data());
  for (unsigned x = 0; x < 10; ++x) {
    if (x == 4 || x == 5) {
      EXPECT_GT(r[x], g[x]) << x;
    } else {
      EXPECT_EQ(r[x], g[x]) << x;
    }
  }
}

// ---------------------------------------------------------------------------
// XYB and blur

TEST(Ssimulacra2Xyb, CubeRootIsWithinAFewUlps) {
  for (float v = 1e-4f; v < 2.0f; v *= 1.0137f) {
    const float got = ssimulacra2::cube_root(v);
    const float want = std::cbrt(v);
    EXPECT_NEAR(got, want, 6 * (std::nextafter(want, 10.0f) - want)) << v;
  }
  EXPECT_EQ(ssimulacra2::cube_root(0.0f), 0.0f);
}

TEST(Ssimulacra2Xyb, GreyHasNoChromaAndBlackIsTheOffsets) {
  const float zero[1] = {0.0f};
  float x[1], y[1], b[1];
  ssimulacra2::linear_to_xyb(zero, zero, zero, 1, x, y, b);
  EXPECT_NEAR(x[0], ssimulacra2::kPositiveXOffset, 1e-6f);
  EXPECT_NEAR(y[0], ssimulacra2::kPositiveYOffset, 1e-6f);
  EXPECT_NEAR(b[0], ssimulacra2::kPositiveBOffset, 1e-6f);
  const float grey[1] = {0.5f};
  ssimulacra2::linear_to_xyb(grey, grey, grey, 1, x, y, b);
  // The first two opsin rows sum to 1 each, so grey mixes equally: X = 0.
  EXPECT_NEAR(x[0], ssimulacra2::kPositiveXOffset, 1e-6f);
  EXPECT_GT(y[0], 0.3f);
}

// The blur of random rows against the plain recursion in double.
TEST(Ssimulacra2Blur, MatchesThePlainRecursion) {
  using namespace ssimulacra2;
  const BlurCoefficients k = blur_coefficients(kBlurSigma);
  EXPECT_EQ(k.radius, kBlurRadius);
  const auto reference = [&](const std::vector<double>& in) {
    const int n = static_cast<int>(in.size());
    std::vector<double> out(in.size());
    double p1[3] = {};
    double p2[3] = {};
    for (int i = -kBlurRadius + 1; i < n; ++i) {
      const int l = i - kBlurRadius - 1;
      const int r = i + kBlurRadius - 1;
      const double s = (l >= 0 ? in[l] : 0.0) + (r < n ? in[r] : 0.0);
      double o = 0;
      for (int f = 0; f < 3; ++f) {
        const double y = k.n2[f] * s - k.d1[f] * p1[f] - p2[f];
        p2[f] = p1[f];
        p1[f] = y;
        o += y;
      }
      if (i >= 0) out[i] = o;
    }
    return out;
  };
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (unsigned width = 1; width <= 41; ++width) {
    // Horizontal: 8 rows of a and b; check quantities a^2 and b.
    std::vector<std::vector<float>> a(kGroupRows, std::vector<float>(width));
    std::vector<std::vector<float>> b(kGroupRows, std::vector<float>(width));
    const float* a_rows[kGroupRows];
    const float* b_rows[kGroupRows];
    for (unsigned l = 0; l < kGroupRows; ++l) {
      for (unsigned x = 0; x < width; ++x) {
        a[l][x] = u(gen);
        b[l][x] = u(gen);
      }
      a_rows[l] = a[l].data();
      b_rows[l] = b[l].data();
    }
    std::vector<float> storage((3 * (width + kPadLeft + kPadRight)) * kGroupRows + 16);
    auto* lanes = reinterpret_cast<Lanes8*>(
        (reinterpret_cast<std::uintptr_t>(storage.data()) + 63) & ~std::uintptr_t{63});
    std::vector<float> outs(kQuantities * kGroupRows * width);
    float* out[kQuantities][kGroupRows];
    for (unsigned q = 0; q < kQuantities; ++q) {
      for (unsigned l = 0; l < kGroupRows; ++l) {
        out[q][l] = outs.data() + (q * kGroupRows + l) * width;
      }
    }
    const unsigned padded = width + kPadLeft + kPadRight;
    horizontal_group(a_rows, b_rows, width, k, lanes, lanes + padded, lanes + 2 * padded, out);
    for (unsigned l = 0; l < kGroupRows; ++l) {
      std::vector<double> sq(width);
      std::vector<double> bd(width);
      for (unsigned x = 0; x < width; ++x) {
        sq[x] = static_cast<double>(a[l][x] * a[l][x]);
        bd[x] = b[l][x];
      }
      const auto want_sq = reference(sq);
      const auto want_b = reference(bd);
      for (unsigned x = 0; x < width; ++x) {
        EXPECT_NEAR(out[kAA][l][x], want_sq[x], 2e-6) << width << " " << l << " " << x;
        EXPECT_NEAR(out[kB][l][x], want_b[x], 2e-6) << width << " " << l << " " << x;
      }
    }
    // Vertical: a column of `width` rows (one sample wide).
    std::vector<double> col(width);
    for (auto& v : col) v = u(gen);
    const auto want = reference(col);
    std::vector<float> state(6, 0.0f);
    float* prev1[3] = {&state[0], &state[1], &state[2]};
    float* prev2[3] = {&state[3], &state[4], &state[5]};
    const float zero = 0.0f;
    for (int n = -kBlurRadius + 1; n < static_cast<int>(width); ++n) {
      const int top = n - kBlurRadius - 1;
      const int bottom = n + kBlurRadius - 1;
      const float t = top >= 0 ? static_cast<float>(col[top]) : zero;
      const float bo = bottom < static_cast<int>(width) ? static_cast<float>(col[bottom]) : zero;
      float o = 0;
      vertical_step(&t, &bo, 1, k, prev1, prev2, &o);
      std::swap(prev1, prev2);
      if (n >= 0) {
        EXPECT_NEAR(o, want[n], 2e-6) << width << " " << n;
      }
    }
  }
}

TEST(Ssimulacra2Blur, WeightsSumToOne) {
  const auto k = ssimulacra2::blur_coefficients(ssimulacra2::kBlurSigma);
  // A constant input far from the edges comes out unchanged: the three
  // filters' gains n2_k * 2 / (1 + d1_k + 1) add up to 1.
  double gain = 0;
  for (int f = 0; f < 3; ++f) gain += 2.0 * k.n2[f] / (2.0 + k.d1[f]);
  EXPECT_NEAR(gain, 1.0, 1e-6);
}

}  // namespace
}  // namespace vqx

// Unit tests of the CIEDE2000 extractor ("ciede"): scores equal to libvmaf's
// on synthetic pictures (every chroma format, 8 to 16 bits, libvmaf's 4:2:2
// addressing), a grey pair by hand, the batch paths against the scalar
// definition (delta_e_steps.hpp, color_steps.hpp: the GPU twin's) bit for
// bit, the elementary functions' accuracy and the definition's distance
// from libm's arithmetic (libvmaf's), options, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "metrics/ciede/batch.hpp"
#include "metrics/ciede/caches.hpp"
#include "metrics/ciede/color.hpp"
#include "metrics/ciede/color_steps.hpp"
#include "metrics/ciede/delta_e_steps.hpp"
#include "metrics/ciede/elementary.hpp"
#include "metrics/ciede/lab_batch.hpp"
#include "metrics/families.hpp"
#include "simd_targets.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

// ---------------------------------------------------------------------------
// Helpers

class CiedeWriter final : public FeatureWriter {
 public:
  void write(std::size_t slot, unsigned frame, double v) override {
    EXPECT_EQ(slot, 0U);
    value = v;
    last_frame = frame;
    ++writes;
  }
  double value = std::nan("");
  unsigned last_frame = 0;
  int writes = 0;
};

enum class Pattern { kRampNoise, kFlat, kIdentical };

using testutil::format;

// The synthetic pictures the expected values were computed on (with
// libvmaf 3.2.0's ciede.c): a diagonal ramp, and the ramp plus +-5 (8-bit
// units) of hashed noise (testutil::ramp_sample); or flat planes,
// `flat_ref` and `flat_dist`.
Picture make_picture(const PictureFormat& fmt, Pattern pattern, bool dist,
                     const unsigned* flat_ref = nullptr, const unsigned* flat_dist = nullptr) {
  Picture out = testutil::new_picture(fmt);
  testutil::fill_planes(out, [&](unsigned p, unsigned x, unsigned y) -> std::uint32_t {
    if (pattern == Pattern::kFlat) return dist ? flat_dist[p] : flat_ref[p];
    return testutil::ramp_sample(p, x, y, fmt.bpc, dist && pattern == Pattern::kRampNoise);
  });
  return out;
}

std::unique_ptr<Extractor> make_extractor() {
  auto spec = ciede_family().make_spec({});
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  return spec->make();
}

double run(const Picture& ref, const Picture& dist) {
  auto ex = make_extractor();
  const Status st = ex->init(ref.format());
  EXPECT_TRUE(st.ok()) << st.message();
  CiedeWriter w;
  const Status xs = ex->extract(ref, dist, 3, w);
  EXPECT_TRUE(xs.ok()) << xs.message();
  EXPECT_EQ(w.writes, 1);
  EXPECT_EQ(w.last_frame, 3U);
  return w.value;
}

double run(const PictureFormat& fmt, Pattern pattern) {
  return run(make_picture(fmt, pattern, false), make_picture(fmt, pattern, true));
}

// ---------------------------------------------------------------------------
// Scores

struct LibvmafCase {
  ChromaFormat chroma;
  unsigned bpc, w, h;
  double expected;  // libvmaf's output, printed with %.17g
};

TEST(Ciede, EqualsLibvmafOnSyntheticPictures) {
  const LibvmafCase cases[] = {
      {ChromaFormat::k420, 8, 32, 16, 39.527614353650556},
      {ChromaFormat::k444, 10, 24, 16, 40.225954842522853},
      {ChromaFormat::k420, 12, 16, 16, 38.547106195322911},
      {ChromaFormat::k444, 16, 16, 8, 39.267205227741925},
      // More unequal pixels in a row than one batch holds.
      {ChromaFormat::k420, 8, 300, 4, 40.725777746587795},
      {ChromaFormat::k444, 12, 300, 2, 41.250938090336049},
  };
  for (const LibvmafCase& c : cases) {
    SCOPED_TRACE(std::string(to_string(c.chroma)) + " " + std::to_string(c.bpc) + "-bit " +
                 std::to_string(c.w) + "x" + std::to_string(c.h));
    EXPECT_EQ(run(format(c.w, c.h, c.bpc, c.chroma), Pattern::kRampNoise), c.expected);
  }
}

// libvmaf reads 4:2:2 chroma at full width from its half-width rows: past
// the chroma width it finds the zero padding up to the 32-sample aligned
// stride, then the next row (cpu.cpp). 80 and 96 wide pictures have 40 and
// 48 chroma samples per row, a 64-sample stride, so both effects show.
TEST(Ciede, EqualsLibvmafOn422WithItsChromaAddressing) {
  EXPECT_EQ(run(format(80, 8, 10, ChromaFormat::k422), Pattern::kRampNoise), 41.380985482589757);
  EXPECT_EQ(run(format(96, 4, 8, ChromaFormat::k422), Pattern::kRampNoise), 41.260204259427297);
  EXPECT_EQ(run(format(300, 4, 8, ChromaFormat::k422), Pattern::kRampNoise), 41.023910280943028);
}

TEST(Ciede, IdenticalPicturesScoreInfinity) {
  for (ChromaFormat c : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
    EXPECT_EQ(run(format(16, 16, 8, c), Pattern::kIdentical),
              std::numeric_limits<double>::infinity());
  }
}

// Grey 100 against grey 101 (8-bit, limited range): the colours differ in
// lightness only (up to rounding), so CIEDE2000 is |dL| / (k_L S_L) with
// libvmaf's k_L = 0.65, and the score 45 - 20 log10 of that. Here dL and S_L
// come from the textbook formulas in double.
TEST(Ciede, GreyPairByHand) {
  const unsigned ref[3] = {100, 128, 128};
  const unsigned dist[3] = {101, 128, 128};
  const PictureFormat fmt = format(16, 16, 8, ChromaFormat::k444);
  const double got = run(make_picture(fmt, Pattern::kFlat, false, ref, dist),
                         make_picture(fmt, Pattern::kFlat, true, ref, dist));
  EXPECT_EQ(got, 48.56693607688532);  // libvmaf's output

  auto lightness = [](double y8) {
    const double e = (y8 - 16.0) / 219.0;  // R' = G' = B'
    const double lin = std::pow((e + 0.055) / 1.055, 2.4);
    return 116.0 * std::cbrt(lin) - 16.0;  // Y of a grey is its linear value
  };
  const double l1 = lightness(100);
  const double l2 = lightness(101);
  const double mean = (l1 + l2) / 2 - 50;
  const double s_l = 1 + 0.015 * mean * mean / std::sqrt(20 + mean * mean);
  const double de = (l2 - l1) / (0.65 * s_l);
  EXPECT_NEAR(got, 45 - 20 * std::log10(de), 1e-4);
}

// The caches carry colours from frame to frame; a frame's score must not
// depend on what came before.
TEST(Ciede, ScoreDoesNotDependOnEarlierFrames) {
  const PictureFormat fmt = format(300, 4, 8, ChromaFormat::k420);
  const Picture a = make_picture(fmt, Pattern::kRampNoise, false);
  const Picture b = make_picture(fmt, Pattern::kRampNoise, true);
  const double fresh = run(a, b);
  auto ex = make_extractor();
  ASSERT_TRUE(ex->init(fmt).ok());
  CiedeWriter w;
  ASSERT_TRUE(ex->extract(b, a, 0, w).ok());
  ASSERT_TRUE(ex->extract(a, b, 1, w).ok());
  EXPECT_EQ(w.value, fresh);
  ASSERT_TRUE(ex->extract(a, b, 2, w).ok());
  EXPECT_EQ(w.value, fresh);
}

TEST(Ciede, OddSizesGiveFiniteScores) {
  for (ChromaFormat c : {ChromaFormat::k420, ChromaFormat::k422, ChromaFormat::k444}) {
    const double v = run(format(33, 7, 10, c), Pattern::kRampNoise);
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GT(v, 30.0);
  }
}

// ---------------------------------------------------------------------------
// The batch paths give the scalar definition's values bit for bit.

template <typename T>
::testing::AssertionResult same_bits(T want, T got) {
  if (std::memcmp(&want, &got, sizeof want) == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "want " << want << ", got " << got;
}

// compute_differences() is written with Highway (batch_simd.cpp): every
// target the CPU runs, on batches of every fill (the stages run over whole
// groups of vectors; the lanes past the count must not matter), with
// colours that reach each branch of the definition: close colours, zero and
// -0.0 components (achromatic colours, hues at 0 and pi), opposite hues
// (delta h' and the hue sum near +-pi), and hue ratios at atan2's interval
// ends (b / a' near 0.21 and 0.70 and their inverses).
TEST(CiedeBatch, DifferencesEqualTheScalarDefinition) {
  std::uniform_real_distribution<float> l(0.0f, 100.0f);
  std::uniform_real_distribution<float> ab(-130.0f, 130.0f);
  std::uniform_real_distribution<float> small(-1e-3f, 1e-3f);
  std::uniform_real_distribution<float> nudge(-1e-5f, 1e-5f);
  const float specials[] = {0.0f,   -0.0f, 1e-30f, -1e-30f, 1e-6f,
                            -1e-6f, 0.5f,  -0.5f,  127.0f,  -128.0f};
  constexpr int kSpecials = static_cast<int>(std::size(specials));
  const float ratios[] = {0.21f, 0.70f, 1.0f / 0.21f, 1.0f / 0.70f, 1.0f};
  auto batch = std::make_unique<ciede::PairBatch>();
  test::for_each_simd_target([&](const std::string&) {
    std::mt19937_64 rng(11);
    long checked = 0;
    long expected = 0;
    for (int round = 0; round < 600; ++round) {
      // Full batches, and every other round a random fill.
      const int fill = round % 2 == 0 ? ciede::PairBatch::kCapacity
                                      : 1 + static_cast<int>(rng() % ciede::PairBatch::kCapacity);
      batch->count = 0;
      while (batch->count < fill) {
        ciede::Lab c1{l(rng), ab(rng), ab(rng)};
        ciede::Lab c2{l(rng), ab(rng), ab(rng)};
        switch (rng() % 7) {
          case 0:  // close colours
            c2 = {c1.l + small(rng), c1.a + small(rng), c1.b + small(rng)};
            break;
          case 1:  // special components (achromatic, hues at 0 and pi, ...)
            c1.a = specials[rng() % kSpecials];
            c1.b = specials[rng() % kSpecials];
            c2.a = specials[rng() % kSpecials];
            c2.b = (rng() % 2) != 0 ? specials[rng() % kSpecials] : c2.b;
            break;
          case 2:  // opposite hues
            c2.a = -c1.a;
            c2.b = -c1.b;
            break;
          case 3: {  // |b| / |a| at atan2's interval ends, either way round
            const float r = ratios[rng() % std::size(ratios)] * (1.0f + nudge(rng));
            c1.b = c1.a * r * ((rng() % 2) != 0 ? 1.0f : -1.0f);
            c2.a = c2.b * r;
            break;
          }
          default:
            break;
        }
        batch->add(c1, -1, c2, -1);
      }
      expected += fill;
      ciede::compute_differences(*batch);
      const ciede::PairBatch::Work& w = batch->work;
      for (int i = 0; i < batch->count; ++i) {
        SCOPED_TRACE("pair " + std::to_string(batch->l1[i]) + " " + std::to_string(batch->a1[i]) +
                     " " + std::to_string(batch->b1[i]) + " / " + std::to_string(batch->l2[i]) +
                     " " + std::to_string(batch->a2[i]) + " " + std::to_string(batch->b2[i]));
        // Every stage's values, floats and doubles, bit for bit: a float
        // difference hides most changes in the doubles behind it.
        namespace steps = ciede::steps;
        const float a1 = batch->a1[i];
        const float b1 = batch->b1[i];
        const float a2 = batch->a2[i];
        const float b2 = batch->b2[i];
        const steps::ChromaTerms c = steps::chroma_terms(a1, b1, a2, b2);
        ASSERT_TRUE(same_bits(steps::a_weight(c.chroma1, c.chroma2), w.g[i]));
        ASSERT_TRUE(same_bits(c.chroma1, w.chroma1[i]) && same_bits(c.chroma2, w.chroma2[i]));
        ASSERT_TRUE(same_bits(c.a1p, w.a1p[i]) && same_bits(c.a2p, w.a2p[i]));
        ASSERT_TRUE(same_bits(c.mean_cp, w.mean_cp[i]) && same_bits(c.delta_cp, w.delta_cp[i]));
        ASSERT_TRUE(same_bits(c.root_cp, w.root_cp[i]));
        const double root_ratio = steps::root_ratio(c.mean_cp);
        ASSERT_TRUE(same_bits(root_ratio, w.root_ratio[i]));
        const float h1 = steps::hue_angle(b1, c.a1p);
        const float h2 = steps::hue_angle(b2, c.a2p);
        ASSERT_TRUE(same_bits(h1, w.h1[i]) && same_bits(h2, w.h2[i]));
        const float mean_h = steps::mean_hue(h1, h2);
        ASSERT_TRUE(same_bits(mean_h, w.mean_h[i]));
        ASSERT_TRUE(same_bits(steps::delta_big_hue(h1, h2, c.chroma1, c.chroma2, c.root_cp),
                              w.delta_big_h[i]));
        ASSERT_TRUE(same_bits(static_cast<float>(steps::hue_weighting(mean_h)), w.t[i]));
        ASSERT_TRUE(same_bits(steps::rotation_term(mean_h, root_ratio), w.r_t[i]));
        const float want = steps::ciede2000({batch->l1[i], a1, b1}, {batch->l2[i], a2, b2});
        ASSERT_TRUE(same_bits(want, batch->difference[i]))
            << want << " vs " << batch->difference[i];
        ++checked;
      }
    }
    EXPECT_EQ(checked, expected);
  });
}

TEST(CiedeBatch, LabColoursEqualTheScalarDefinition) {
  std::mt19937_64 rng(12);
  auto batch = std::make_unique<ciede::LabBatch>();
  for (unsigned bpc : {8U, 10U, 12U, 16U}) {
    SCOPED_TRACE(std::to_string(bpc) + "-bit");
    const ciede::YuvScale scale = ciede::yuv_scale(bpc);
    const unsigned max = (1U << bpc) - 1;
    for (int round = 0; round < 500; ++round) {
      batch->count = 0;
      while (batch->count < ciede::LabBatch::kCapacity) {
        unsigned s[3];
        for (unsigned& v : s) {
          // Mostly anywhere, sometimes at the ends of the range.
          const unsigned r = static_cast<unsigned>(rng() % 16);
          v = r == 0 ? 0 : (r == 1 ? max : static_cast<unsigned>(rng() % (max + 1)));
        }
        batch->add(ciede::pack_yuv(s[0], s[1], s[2]));
      }
      ciede::compute_labs(*batch, scale);
      for (int i = 0; i < batch->count; ++i) {
        const std::uint64_t k = batch->key[i];
        const ciede::Lab want = ciede::steps::lab_of(static_cast<double>(k >> 32),
                                                     static_cast<double>((k >> 16) & 0xFFFF),
                                                     static_cast<double>(k & 0xFFFF), scale);
        const ciede::Lab got = batch->lab(i);
        ASSERT_EQ(std::memcmp(&want, &got, sizeof want), 0)
            << "yuv " << (k >> 32) << " " << ((k >> 16) & 0xFFFF) << " " << (k & 0xFFFF);
      }
    }
  }
}

// Each elementary function's error against libm, in units of 2^-52
// relative: a few units (what the definition's distance from libvmaf's
// arithmetic rests on: CiedeDefinition below).
TEST(CiedeElementary, ErrorsAgainstLibmAreAFewUnitsInTheLastPlace) {
  std::mt19937_64 rng(13);
  auto rel = [](double a, double b) {
    return (b == 0 ? std::fabs(a) : std::fabs(a - b) / std::fabs(b)) / 0x1p-52;
  };
  std::uniform_real_distribution<double> angle(-40.0, 40.0);
  // sin_within_half_pi's interval, and a float's rounding past its ends
  // (delta h' / 2 of a float delta h' folded to float pi).
  std::uniform_real_distribution<double> half_pi_angle(-std::numbers::pi / 2 - 1e-7,
                                                       std::numbers::pi / 2 + 1e-7);
  std::uniform_real_distribution<double> coord(-200.0, 200.0);
  std::uniform_real_distribution<double> neg(-700.0, 0.0);
  std::uniform_real_distribution<double> base(0.04, 5.0);
  double worst_sin = 0, worst_cos = 0, worst_atan2 = 0, worst_exp = 0, worst_pow = 0;
  for (int i = 0; i < 500000; ++i) {
    const double x = angle(rng);
    worst_sin = std::max(worst_sin, rel(ciede::elementary::sin(x), std::sin(x)));
    worst_cos = std::max(worst_cos, rel(ciede::elementary::cos(x), std::cos(x)));
    const double h = half_pi_angle(rng);
    worst_sin = std::max(worst_sin, rel(ciede::elementary::sin_within_half_pi(h), std::sin(h)));
    const double y = coord(rng);
    const double z = coord(rng);
    worst_atan2 = std::max(worst_atan2, rel(ciede::elementary::atan2(y, z), std::atan2(y, z)));
    const double e = neg(rng);
    worst_exp = std::max(worst_exp, rel(ciede::elementary::exp(e), std::exp(e)));
    const double b = base(rng);
    worst_pow = std::max(worst_pow, rel(ciede::elementary::pow(b, 2.4), std::pow(b, 2.4)));
    worst_pow =
        std::max(worst_pow, rel(ciede::elementary::pow(b, 1.0 / 3.0), std::pow(b, 1.0 / 3.0)));
  }
  // Near the zeros of sin and cos, where range reduction matters most.
  for (int k = -25; k <= 25; ++k) {
    double x = std::nextafter(std::nextafter(k * std::numbers::pi / 2, -1e9), -1e9);
    for (int n = 0; n < 5; ++n, x = std::nextafter(x, 1e9)) {
      worst_sin = std::max(worst_sin, rel(ciede::elementary::sin(x), std::sin(x)));
      worst_cos = std::max(worst_cos, rel(ciede::elementary::cos(x), std::cos(x)));
    }
  }
  // Exact special cases.
  EXPECT_EQ(ciede::elementary::sin(0.0), 0.0);
  EXPECT_EQ(ciede::elementary::sin_within_half_pi(0.0), 0.0);
  EXPECT_EQ(ciede::elementary::atan2(0.0, 1.0), 0.0);
  EXPECT_EQ(ciede::elementary::atan2(0.0, -1.0), std::numbers::pi);
  EXPECT_EQ(ciede::elementary::atan2(0.0, 0.0), 0.0);
  EXPECT_EQ(ciede::elementary::exp(0.0), 1.0);
  EXPECT_LE(worst_sin, 16.0);
  EXPECT_LE(worst_cos, 16.0);
  EXPECT_LE(worst_atan2, 16.0);
  EXPECT_LE(worst_exp, 16.0);
  EXPECT_LE(worst_pow, 16.0);
}

// T from one sincos and the multiple-angle formulas is the four cosines'
// T to a few units of 2^-52, and the same float (what libvmaf keeps).
TEST(CiedeDefinition, HueWeightingIsTheFourCosines) {
  constexpr double kPi = std::numbers::pi;
  const auto four_cosines = [](float mean_h) {
    const double h = mean_h;
    return 1.0 - ciede::kT1 * std::cos(h - ciede::kT1Phase) + ciede::kT2 * std::cos(2.0 * h) +
           ciede::kT3 * std::cos(3.0 * h + ciede::kT3Phase) -
           ciede::kT4 * std::cos(4.0 * h - ciede::kT4Phase);
  };
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<float> hue(0.0f, static_cast<float>(2 * kPi));
  int float_differs = 0;
  double worst = 0;
  for (int i = 0; i < 1000000; ++i) {
    const float h = hue(rng);
    const double want = four_cosines(h);
    const double got = ciede::steps::hue_weighting(h);
    worst = std::max(worst, std::fabs(got - want));
    float_differs += static_cast<float>(got) != static_cast<float>(want) ? 1 : 0;
  }
  EXPECT_LE(worst, 8 * 0x1p-52);
  // libm's cos against VQX's: the float T may differ where T lies within a
  // few units of 2^-52 of a half-way point between floats, about 1 in 10^7.
  EXPECT_LE(float_differs, 2);
}

// ---------------------------------------------------------------------------
// The definition against libvmaf's arithmetic: libvmaf calls libm (pow,
// powf, sin, cos, atan2, exp); the definition calls elementary.hpp. The
// same float and double steps otherwise (this transcription was the CPU
// twin's own code until issue 14).

namespace libm {

float lab_f(double t) {
  return static_cast<float>(ciede::steps::on_cube_root_segment(t)
                                ? std::pow(t, ciede::kLabCubeRootExponent)
                                : ciede::steps::lab_f_linear(t));
}

double linearise(double c) {
  return ciede::steps::on_gamma_segment(c) ? std::pow(ciede::steps::gamma_base(c), ciede::kGamma)
                                           : ciede::steps::linear_segment(c);
}

ciede::Lab lab(double y, double u, double v, const ciede::YuvScale& s) {
  namespace st = ciede::steps;
  const st::Rgb p = st::rgb_prime(y, u, v, s);
  const double r = linearise(p.r);
  const double g = linearise(p.g);
  const double b = linearise(p.b);
  return st::lab_from_f(lab_f(st::x_over_white(st::xyz_row<0>(r, g, b))),
                        lab_f(st::xyz_row<1>(r, g, b)),
                        lab_f(st::z_over_white(st::xyz_row<2>(r, g, b))));
}

float hue_angle(float b, float a_prime) {
  if (b == 0.0f && a_prime == 0.0f) return 0.0f;
  float h = static_cast<float>(std::atan2(static_cast<double>(b), static_cast<double>(a_prime)));
  if (h < 0.0f) h = static_cast<float>(static_cast<double>(h) + ciede::steps::kTwoPi);
  return h;
}

float ciede2000(const ciede::Lab& c1, const ciede::Lab& c2) {
  namespace st = ciede::steps;
  using st::kPi;
  using st::kTwoPi;
  const float chroma1 = st::chroma(c1.a, c1.b);
  const float chroma2 = st::chroma(c2.a, c2.b);
  const float mean_c = (chroma1 + chroma2) / 2.0f;
  const double c7 = std::pow(static_cast<double>(mean_c), 7.0);
  const double g = 1.0 - std::sqrt(c7 / (c7 + std::pow(ciede::kChromaPivot, 7.0)));
  const float a1p = static_cast<float>(st::a_prime(c1.a, g));
  const float a2p = static_cast<float>(st::a_prime(c2.a, g));
  const float c1p = st::chroma(a1p, c1.b);
  const float c2p = st::chroma(a2p, c2.b);
  const float mean_cp = (c1p + c2p) / 2.0f;
  const float h1 = hue_angle(c1.b, a1p);
  const float h2 = hue_angle(c2.b, a2p);
  float delta_h = 0.0f;
  if (chroma1 != 0.0f && chroma2 != 0.0f) {
    const float d = h2 - h1;
    if (static_cast<double>(std::fabs(d)) <= kPi) {
      delta_h = d;
    } else if (h2 <= h1) {
      delta_h = static_cast<float>(static_cast<double>(d) + kTwoPi);
    } else {
      delta_h = static_cast<float>(static_cast<double>(d) - kTwoPi);
    }
  }
  const float delta_big_h = static_cast<float>(2.0 * std::sqrt(static_cast<double>(c1p * c2p)) *
                                               std::sin(static_cast<double>(delta_h) / 2.0));
  const float sum = h1 + h2;
  const float mean_h = std::fabs(static_cast<double>(h1 - h2)) > kPi
                           ? static_cast<float>((static_cast<double>(sum) + kTwoPi) / 2.0)
                           : static_cast<float>(static_cast<double>(sum) / 2.0);
  const double hh = mean_h;
  const float t = static_cast<float>(1.0 - ciede::kT1 * std::cos(hh - kPi / 6.0) +
                                     ciede::kT2 * std::cos(2.0 * hh) +
                                     ciede::kT3 * std::cos(3.0 * hh + kPi / 30.0) -
                                     ciede::kT4 * std::cos(4.0 * hh - 7.0 * kPi / 20.0));
  const float c7f = std::pow(mean_cp, 7.0f);
  const float ratio = c7f / (c7f + std::pow(static_cast<float>(ciede::kChromaPivot), 7.0f));
  const float angle_deg =
      static_cast<float>(ciede::kRtMaxDeg * std::exp(st::rotation_exponent(mean_h)));
  const float r_t =
      static_cast<float>(-2.0 * std::sqrt(static_cast<double>(ratio)) *
                         std::sin(static_cast<double>(st::rotation_angle(angle_deg))));
  return st::combine(c1.l, c2.l, mean_cp, c2p - c1p, delta_big_h, t, r_t);
}

}  // namespace libm

// Random pixel pairs, 8 to 12 bits, close colours (as in video): the
// definition's Lab colours and colour differences are libm's (measured: all
// 600000 colours and 300000 differences equal). Where they could differ:
// glibc's powf(x, 7) is not correctly rounded (about 7 in 10^4 of its
// results are a float off the correctly rounded one, which the definition
// gives but near half-way points), and the elementary functions are a few
// double ulps off libm's, which shows only where a result lies that close
// to a float rounding boundary. The bounds below are generous guards.
TEST(CiedeDefinition, StaysWithinAFewFloatUlpsOfLibmsArithmetic) {
  std::mt19937_64 rng(17);
  long pairs = 0;
  long differing = 0;
  long labs = 0;
  long differing_labs = 0;
  double worst = 0.0;  // relative difference of a colour difference
  for (unsigned bpc : {8U, 10U, 12U}) {
    const ciede::YuvScale scale = ciede::yuv_scale(bpc);
    const int max = (1 << bpc) - 1;
    std::uniform_int_distribution<int> any(0, max);
    std::uniform_int_distribution<int> near(-(1 << (bpc - 6)), 1 << (bpc - 6));
    for (int i = 0; i < 100000; ++i) {
      int a[3];
      int b[3];
      for (int k = 0; k < 3; ++k) {
        a[k] = any(rng);
        b[k] = std::clamp(a[k] + near(rng), 0, max);
      }
      const ciede::Lab la = ciede::steps::lab_of(a[0], a[1], a[2], scale);
      const ciede::Lab lb = ciede::steps::lab_of(b[0], b[1], b[2], scale);
      const ciede::Lab ma = libm::lab(a[0], a[1], a[2], scale);
      const ciede::Lab mb = libm::lab(b[0], b[1], b[2], scale);
      labs += 2;
      differing_labs +=
          (std::memcmp(&la, &ma, sizeof la) != 0) + (std::memcmp(&lb, &mb, sizeof lb) != 0);
      // The differences of the same colours, so that only the difference's
      // own arithmetic is compared.
      const float ours = ciede::steps::ciede2000(ma, mb);
      const float theirs = libm::ciede2000(ma, mb);
      ++pairs;
      if (ours != theirs) {
        ++differing;
        worst = std::max(worst, std::fabs(static_cast<double>(ours) - theirs) / theirs);
      }
    }
  }
  std::printf(
      "colour differences unlike libm's: %ld of %ld, worst relative %.3g; Lab colours: %ld of "
      "%ld\n",
      differing, pairs, worst, differing_labs, labs);
  EXPECT_LE(differing, pairs / 200);
  EXPECT_LE(worst, 4 * 0x1p-23);  // a few float units in the last place
  EXPECT_LE(differing_labs, labs / 10000);
}

// ---------------------------------------------------------------------------
// Names, options, errors

TEST(Ciede, OutputNameAndProvidedFeature) {
  auto spec = ciede_family().make_spec({});
  ASSERT_TRUE(spec.ok());
  ASSERT_EQ(spec->outputs.size(), 1U);
  EXPECT_EQ(spec->outputs[0].name, "ciede2000");
  EXPECT_FALSE(spec->temporal);
  EXPECT_EQ(std::string(ciede_family().name), "ciede");
  ASSERT_EQ(ciede_family().provides.size(), 1U);
  EXPECT_EQ(std::string(ciede_family().provides[0].model_name), "ciede2000");
}

TEST(Ciede, HasNoOptions) {
  auto spec = ciede_family().make_spec({{"kl", "1"}});
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(spec.status().message().find("ciede"), std::string::npos);
}

TEST(Ciede, RefusesLumaOnlyPictures) {
  auto ex = make_extractor();
  const Status st = ex->init(format(16, 16, 8, ChromaFormat::k400));
  EXPECT_EQ(st.code(), Errc::kUnsupported);
  EXPECT_NE(st.message().find("4:0:0"), std::string::npos);
}

TEST(Ciede, AcceptsEveryDepth) {
  for (unsigned bpc = 8; bpc <= 16; ++bpc) {
    const double v = run(format(16, 8, bpc, ChromaFormat::k420), Pattern::kRampNoise);
    EXPECT_TRUE(std::isfinite(v)) << bpc;
  }
}

TEST(Ciede, RefusesAFrameOfAnotherFormat) {
  auto ex = make_extractor();
  ASSERT_TRUE(ex->init(format(16, 16, 8, ChromaFormat::k420)).ok());
  const Picture a = make_picture(format(16, 16, 8, ChromaFormat::k444), Pattern::kRampNoise, false);
  CiedeWriter w;
  EXPECT_EQ(ex->extract(a, a, 0, w).code(), Errc::kMismatch);
}

TEST(Ciede, ExtractBeforeInitIsAnError) {
  auto ex = make_extractor();
  const Picture a = make_picture(format(16, 16, 8, ChromaFormat::k420), Pattern::kRampNoise, false);
  CiedeWriter w;
  EXPECT_EQ(ex->extract(a, a, 0, w).code(), Errc::kInternal);
}

}  // namespace
}  // namespace vqx

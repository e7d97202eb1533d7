// Unit tests of the integer ADM extractor ("adm"): exact values against
// libvmaf on small synthetic pictures, invariants (identical and flat
// pictures, bit depths, impairments), the decoupling's exact floating-point
// division against a plain integer reference, options, names and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "metrics/adm/cpu.hpp"
#include "metrics/adm/decouple.hpp"
#include "metrics/adm/params.hpp"
#include "metrics/families.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

// ---------------------------------------------------------------------------
// Helpers

using testutil::LastValueWriter;

using SampleFn = std::function<std::uint32_t(int x, int y)>;

Picture make_picture(unsigned w, unsigned h, unsigned bpc, const SampleFn& f) {
  PictureFormat fmt;
  fmt.width = w;
  fmt.height = h;
  fmt.bpc = bpc;
  fmt.chroma = ChromaFormat::k420;
  auto pic = Picture::make(fmt);
  EXPECT_TRUE(pic.ok());
  Plane& p = pic->plane(0);
  for (unsigned y = 0; y < h; ++y) {
    for (unsigned x = 0; x < w; ++x) {
      const std::uint32_t v = f(static_cast<int>(x), static_cast<int>(y));
      if (bpc == 8) {
        p.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
      } else {
        p.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
      }
    }
  }
  return std::move(pic).value();
}

// The synthetic pair the expected values below were computed on with
// libvmaf's integer_adm.c: a texture, and the same with its contrast
// reduced by a quarter plus hashed noise of +-10, 8-bit values shifted up to
// `bpc` bits.
std::uint32_t synthetic(int x, int y, unsigned bpc, bool distorted) {
  int v = ((x * 5 + y * 3) % 256 + (((x * x + 3 * y * y + x * y) >> 2) & 63)) % 256;
  if (distorted) {
    const std::uint32_t hash =
        (static_cast<std::uint32_t>(x) * 73856093u) ^ (static_cast<std::uint32_t>(y) * 19349663u);
    const int noise = static_cast<int>((hash >> 8) % 21) - 10;
    v = v - ((v - 128) >> 2) + noise;
    v = v < 0 ? 0 : (v > 255 ? 255 : v);
  }
  return static_cast<std::uint32_t>(v) << (bpc - 8);
}

Picture synthetic_picture(unsigned w, unsigned h, unsigned bpc, bool distorted) {
  return make_picture(w, h, bpc, [=](int x, int y) { return synthetic(x, y, bpc, distorted); });
}

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(integer_adm_family(), options);
}

// Runs the extractor on one pair; every output in slot order.
std::vector<double> run(const OptionMap& options, const Picture& ref, const Picture& dis) {
  const ExtractorSpec spec = spec_for(options);
  if (!spec.make_cpu) return {};
  return testutil::output_values(spec, ref, dis);
}

// Slots of the default outputs.
enum : std::size_t { kAdm2, kAim, kAdm3, kScale0, kScale1, kScale2, kScale3 };

// ---------------------------------------------------------------------------
// Exact values: computed by libvmaf's own integer_adm.c (plain C path) on
// the synthetic pairs above, printed with %.17g.

struct Expected7 {
  const char* what;
  unsigned w, h, bpc;
  OptionMap options;
  std::vector<double> values;
};

TEST(AdmExtractor, MatchesLibvmafExactly) {
  const std::vector<Expected7> cases = {
      {"default",
       67,
       45,
       8,
       {},
       {0.77126520391304387, 0.0078762146939936658, 0.88169449460952509, 0.81345223666562461,
        0.79245519130811726, 0.76558999432729435, 0.74783452154471763}},
      {"egl=1",
       67,
       45,
       8,
       {{"adm_enhn_gain_limit", "1"}},
       {0.77113601112841712, 0.0079313217168848118, 0.88160234470576615, 0.8133905912324193,
        0.79230559789481769, 0.7651011087992281, 0.74782633389285746}},
      {"csf=3, scale 0 skipped",
       67,
       45,
       8,
       {{"adm_csf_mode", "3"}, {"adm_skip_scale0", "true"}},
       {0.76325143727503997, 0.0046755600837858633, 0.87928793859562704, 0.0, 0.80680442895223925,
        0.77123949890529742, 0.7478343778530655}},
      {"vmaf_v1.0.16_1d5h_2160 options",
       67,
       45,
       8,
       {{"adm_csf_mode", "2"},
        {"adm_dlm_weight", "0.7"},
        {"adm_enhn_gain_limit", "1"},
        {"adm_min_val", "0.5"},
        {"adm_noise_weight", "0.02"},
        {"adm_norm_view_dist", "1.5"},
        {"adm_ref_display_height", "2160"}},
       {0.76587174390264978, 0.0057329998372311437, 0.83439032078068553, 0.82486548311835495,
        0.79570998042453756, 0.76130480927917787, 0.74556613802099259}},
      {"AIM skipped, fractional egl, nw",
       67,
       45,
       8,
       {{"adm_skip_aim", "true"}, {"adm_enhn_gain_limit", "3.7"}, {"adm_noise_weight", "0.5"}},
       {0.80652731916306419, 0.0, 0.9032636595815321, 0.86677829681703489, 0.83915640334960451,
        0.80259654618508647, 0.75941029087746981}},
      {"10-bit 40x33",
       40,
       33,
       10,
       {},
       {0.77330209075112888, 0.0074324021998976482, 0.88293484427561564, 0.81642633262522479,
        0.78201969142547545, 0.78112971132308062, 0.75747996823630326}},
      {"12-bit 33x40, csf=2 at 5H",
       33,
       40,
       12,
       {{"adm_csf_mode", "2"}, {"adm_norm_view_dist", "5"}},
       {0.77574761380615564, 0.0023586854081167541, 0.88669446419901943, 0.89863508281605975,
        0.82242790783402353, 0.79235350398665105, 0.75247413575148148}},
  };
  for (const Expected7& c : cases) {
    SCOPED_TRACE(c.what);
    const Picture ref = synthetic_picture(c.w, c.h, c.bpc, false);
    const Picture dis = synthetic_picture(c.w, c.h, c.bpc, true);
    const std::vector<double> got = run(c.options, ref, dis);
    ASSERT_EQ(got.size(), c.values.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], c.values[i]) << "slot " << i;
  }
}

TEST(AdmExtractor, DebugOutputsMatchLibvmafExactly) {
  const Picture ref = synthetic_picture(67, 45, 8, false);
  const Picture dis = synthetic_picture(67, 45, 8, true);
  const std::vector<double> got = run({{"debug", "true"}}, ref, dis);
  const std::vector<double> want = {0.77126520391304387, 0.0078762146939936658, 0.88169449460952509,
                                    0.81345223666562461, 0.79245519130811726,   0.76558999432729435,
                                    0.74783452154471763, 0.77126520391304387,   124.3648738861084,
                                    161.24787330627441,  25.01771354675293,     30.754987716674805,
                                    22.127708435058594,  27.922977447509766,    22.168693542480469,
                                    28.956352233886719,  55.050758361816406,    73.613555908203125};
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << "slot " << i;
}

// ---------------------------------------------------------------------------
// Invariants

TEST(AdmExtractor, IdenticalPicturesScoreOneWithoutImpairment) {
  const Picture ref = synthetic_picture(67, 45, 8, false);
  const std::vector<double> got = run({{"debug", "true"}}, ref, ref);
  ASSERT_EQ(got.size(), 18u);
  // Every detail survives, nothing is added: AIM is exactly 0 and the
  // detail-loss ratio 1 up to libvmaf's fixed-point roundings (libvmaf:
  // 1.0000055594770898).
  EXPECT_EQ(got[kAim], 0.0);
  EXPECT_NEAR(got[kAdm2], 1.0, 1e-4);
  EXPECT_EQ(got[kAdm2], 1.0000055594770898);
  for (std::size_t s = kScale0; s <= kScale3; ++s) EXPECT_NEAR(got[s], 1.0, 1e-4);
  // The denominator depends on the reference only.
  const Picture dis = synthetic_picture(67, 45, 8, true);
  const std::vector<double> other = run({{"debug", "true"}}, ref, dis);
  EXPECT_EQ(got[9], other[9]);  // integer_adm_den
}

TEST(AdmExtractor, FlatPicturesScoreExactlyOne) {
  for (unsigned bpc : {8u, 10u, 12u}) {
    SCOPED_TRACE(bpc);
    const Picture flat = make_picture(64, 48, bpc, [=](int, int) { return 77u << (bpc - 8); });
    const std::vector<double> got = run({}, flat, flat);
    // All detail bands are 0: numerator and denominator are the noise floor.
    EXPECT_EQ(got[kAdm2], 1.0);
    EXPECT_EQ(got[kAim], 0.0);
    EXPECT_EQ(got[kAdm3], 1.0);
    for (std::size_t s = kScale0; s <= kScale3; ++s) EXPECT_EQ(got[s], 1.0);
  }
}

TEST(AdmExtractor, DeeperSamplesOfTheSameContentScoreTheSame) {
  // libvmaf's scale-0 transform divides by 2^bpc, so content shifted up by
  // (bpc - 8) bits gives the same bands, at every depth libvmaf accepts
  // (16 bits included, where the 32-bit sums wrap as in libvmaf).
  const std::vector<double> base =
      run({}, synthetic_picture(67, 45, 8, false), synthetic_picture(67, 45, 8, true));
  for (unsigned bpc : {9u, 10u, 12u, 14u, 16u}) {
    SCOPED_TRACE(bpc);
    EXPECT_EQ(run({}, synthetic_picture(67, 45, bpc, false), synthetic_picture(67, 45, bpc, true)),
              base);
  }
}

TEST(AdmExtractor, BlurLosesDetailAndNoiseAddsImpairment) {
  // A vertical step edge, and the same edge blurred over 9 columns.
  const auto step = [](int x, int) -> std::uint32_t { return x < 40 ? 40u : 200u; };
  const auto blurred = [](int x, int) -> std::uint32_t {
    const int t = x < 36 ? 0 : (x > 44 ? 8 : x - 36);
    return static_cast<std::uint32_t>(40 + 20 * t);
  };
  const Picture ref = make_picture(80, 60, 8, step);
  const std::vector<double> blur = run({}, ref, make_picture(80, 60, 8, blurred));
  EXPECT_LT(blur[kAdm2], 0.95);
  EXPECT_GT(blur[kAdm2], 0.0);

  std::mt19937 rng(7);
  std::vector<int> noise(80 * 60);
  for (int& n : noise) n = static_cast<int>(rng() % 41) - 20;
  const auto noisy = [&](int x, int y) -> std::uint32_t {
    const int v = static_cast<int>(step(x, y)) + noise[static_cast<std::size_t>(y * 80 + x)];
    return static_cast<std::uint32_t>(v);
  };
  const std::vector<double> with_noise = run({}, ref, make_picture(80, 60, 8, noisy));
  EXPECT_GT(with_noise[kAim], 0.01);
  EXPECT_LT(with_noise[kAdm2], 1.0);
  // adm3 blends the two: 0.5 * adm2 + 0.5 * (1 - aim) by default.
  EXPECT_DOUBLE_EQ(with_noise[kAdm3], with_noise[kAdm2] * 0.5 + (1 - with_noise[kAim]) * 0.5);
}

TEST(AdmExtractor, OddAndSmallSizesWork) {
  for (auto [w, h] : {std::pair{33u, 33u}, {35u, 47u}, {101u, 37u}, {34u, 200u}, {129u, 65u}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    const std::vector<double> got =
        run({}, synthetic_picture(w, h, 8, false), synthetic_picture(w, h, 8, true));
    ASSERT_EQ(got.size(), 7u);
    for (double v : got) EXPECT_TRUE(std::isfinite(v));
    EXPECT_GT(got[kAdm2], 0.5);
    EXPECT_LT(got[kAdm2], 1.0);
    EXPECT_GT(got[kAim], 0.0);
  }
}

TEST(AdmExtractor, RefusesPicturesTooSmallForFourScales) {
  const ExtractorSpec spec = spec_for({});
  for (auto [w, h] : {std::pair{32u, 33u}, {33u, 32u}, {16u, 16u}}) {
    auto ex = spec.make();
    PictureFormat fmt;
    fmt.width = w;
    fmt.height = h;
    const Status st = ex->init(fmt);
    EXPECT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Errc::kUnsupported);
    EXPECT_NE(st.message().find("too small"), std::string::npos) << st.message();
  }
}

TEST(AdmExtractor, RefusesPicturesOfAnotherFormat) {
  const ExtractorSpec spec = spec_for({});
  auto ex = spec.make();
  const Picture a = synthetic_picture(64, 48, 8, false);
  const Picture b = synthetic_picture(64, 50, 8, false);
  ASSERT_TRUE(ex->init(a.format()).ok());
  LastValueWriter w;
  EXPECT_EQ(ex->extract(a, b, 0, w).code(), Errc::kMismatch);
  EXPECT_TRUE(w.values.empty());
}

TEST(AdmExtractor, InstancesOnSeveralThreadsAgree) {
  const Picture ref = synthetic_picture(96, 64, 10, false);
  const Picture dis = synthetic_picture(96, 64, 10, true);
  const std::vector<double> serial = run({}, ref, dis);
  std::vector<std::vector<double>> results(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 5; ++rep) results[t] = run({}, ref, dis);
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& r : results) EXPECT_EQ(r, serial);
}

// ---------------------------------------------------------------------------
// Decoupling: the vectorised division against libvmaf's integer formula.

// libvmaf's k = t / o in Q15 (adm_decouple / adm_decouple_s123), with its
// reciprocal table written as integer division.
std::int64_t reference_ratio(std::int64_t o, std::int64_t t, bool scale0) {
  if (o == 0) return 32768;
  const std::int64_t sign = o < 0 ? -1 : 1;
  const std::int64_t mag = o < 0 ? -o : o;
  std::int64_t q = 0;
  if (scale0 || mag < 32768) {
    q = (sign * ((std::int64_t{1} << 30) / mag) * t + 16384) >> 15;
  } else {
    const int drop = 17 - std::countl_zero(static_cast<std::uint32_t>(mag));
    const std::int64_t top = (mag + (std::int64_t{1} << (drop - 1))) >> drop;
    q = (((std::int64_t{1} << 30) / top) * t * sign + (std::int64_t{1} << (14 + drop))) >>
        (15 + drop);
  }
  return q < 0 ? 0 : (q > 32768 ? 32768 : q);
}

// libvmaf's per-pixel decoupling of one band, given the parallel flag.
std::int64_t reference_restore(std::int64_t o, std::int64_t t, bool parallel, double egl,
                               bool scale0) {
  const std::int64_t k = reference_ratio(o, t, scale0);
  std::int64_t r = (k * o + 16384) >> 15;
  const float rf = (static_cast<float>(k) / 32768) * (static_cast<float>(o) / 64);
  const double grown = static_cast<double>(r) * egl;
  if (parallel && rf > 0.f) r = static_cast<std::int64_t>(std::min(grown, static_cast<double>(t)));
  if (parallel && rf < 0.f) r = static_cast<std::int64_t>(std::max(grown, static_cast<double>(t)));
  return r;
}

constexpr double kPi = 3.14159265358979323846;

bool reference_parallel(std::int64_t oh, std::int64_t ov, std::int64_t th, std::int64_t tv) {
  const float cos_sq = static_cast<float>(std::cos(kPi / 180.0) * std::cos(kPi / 180.0));
  const std::int64_t dot = oh * th + ov * tv;
  const std::int64_t o2 = oh * oh + ov * ov;
  const std::int64_t t2 = th * th + tv * tv;
  return (static_cast<float>(dot) / 4096.0) >= 0.0f &&
         (static_cast<float>(dot) / 4096.0) * (static_cast<float>(dot) / 4096.0) >=
             cos_sq * (static_cast<float>(o2) / 4096.0) * (static_cast<float>(t2) / 4096.0);
}

template <typename T>
void check_decouple(const std::vector<T>& o, const std::vector<T>& t, double egl) {
  const int n = static_cast<int>(o.size() / 3);
  const T* oh = o.data();
  const T* ov = oh + n;
  const T* od = ov + n;
  const T* th = t.data();
  const T* tv = th + n;
  const T* td = tv + n;
  std::vector<T> r(3 * static_cast<std::size_t>(n)), a(3 * static_cast<std::size_t>(n));
  std::vector<std::int32_t> scratch(3 * static_cast<std::size_t>(n));
  adm::decouple_row(adm::DetailRow<T>{oh, ov, od}, adm::DetailRow<T>{th, tv, td}, 0, n,
                    adm::make_decouple_params(egl), scratch.data(),
                    adm::DetailOut<T>{r.data(), r.data() + n, r.data() + 2 * n},
                    adm::DetailOut<T>{a.data(), a.data() + n, a.data() + 2 * n});
  constexpr bool kScale0 = sizeof(T) == 2;
  int failures = 0;
  for (int j = 0; j < n && failures < 10; ++j) {
    const bool par = reference_parallel(oh[j], ov[j], th[j], tv[j]);
    const T* os[3] = {oh, ov, od};
    const T* ts[3] = {th, tv, td};
    for (int b = 0; b < 3; ++b) {
      const std::int64_t want = reference_restore(os[b][j], ts[b][j], par, egl, kScale0);
      const std::size_t i = static_cast<std::size_t>(b * n + j);
      if (r[i] != static_cast<T>(want) || a[i] != static_cast<T>(ts[b][j] - static_cast<T>(want))) {
        ++failures;
        ADD_FAILURE() << "band " << b << " o=" << os[b][j] << " t=" << ts[b][j] << " egl=" << egl
                      << ": r=" << r[i] << " want " << want;
      }
    }
  }
}

// Lays out bands h, v, d of n pixels each and makes every `every`-th pixel
// nearly parallel: t = o * num / den in h and v, so that the enhancement
// rule is exercised (den > num: r grows toward t).
template <typename T>
void make_some_parallel(const std::vector<T>& o, std::vector<T>& t, int every, int num, int den) {
  const std::size_t n = o.size() / 3;
  for (std::size_t j = 0; j < n; j += static_cast<std::size_t>(every)) {
    for (std::size_t b = 0; b < 2; ++b) {
      t[b * n + j] = static_cast<T>(static_cast<std::int64_t>(o[b * n + j]) * num / den);
    }
  }
}

TEST(AdmDecouple, Scale0DivisionIsExactForEveryDenominator) {
  // Every o in [-32768, 32767] in each band (in different orders), against
  // random and extreme t.
  std::mt19937 rng(1);
  std::vector<std::int16_t> all;
  for (int v = -32768; v <= 32767; ++v) all.push_back(static_cast<std::int16_t>(v));
  std::vector<std::int16_t> o = all;
  std::vector<std::int16_t> shuffled = all;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  o.insert(o.end(), shuffled.begin(), shuffled.end());
  o.insert(o.end(), all.rbegin(), all.rend());
  const std::int16_t extremes[] = {-32768, -32767, -1, 0, 1, 32767};
  std::vector<std::int16_t> t;
  for (std::size_t i = 0; i < o.size(); ++i) {
    const std::uint32_t pick = rng() % 8;
    t.push_back(pick < 6 ? extremes[pick] : static_cast<std::int16_t>(rng()));
  }
  for (double egl : {1.0, 100.0, 2.5}) {
    std::vector<std::int16_t> tt = t;
    make_some_parallel(o, tt, 5, 3, 4);
    check_decouple(o, tt, egl);
    make_some_parallel(o, tt, 3, 5, 4);
    check_decouple(o, tt, egl);
  }
}

TEST(AdmDecouple, DeeperScaleDivisionIsExact) {
  // Magnitudes around every power of two (where the 15-bit rounding of the
  // denominator changes), random signs, and t of any size.
  std::mt19937 rng(2);
  std::vector<std::int32_t> o, t;
  auto any = [&] {
    const int bits = static_cast<int>(rng() % 31);
    const auto m = static_cast<std::int32_t>(rng() & ((1u << bits) - 1));
    return (rng() & 1) ? -m : m;
  };
  for (int b = 0; b < 31; ++b) {
    for (std::int64_t d : {-2, -1, 0, 1, 2}) {
      const std::int64_t m = (std::int64_t{1} << b) + d;
      if (m < 0 || m > 2147483647) continue;
      for (int rep = 0; rep < 6; ++rep) {
        o.push_back(static_cast<std::int32_t>((rep & 1) ? -m : m));
        t.push_back(rep < 2 ? static_cast<std::int32_t>(m / 2 + 1) : any());
      }
    }
  }
  for (int i = 0; i < 30000; ++i) {
    o.push_back(any());
    t.push_back(any());
  }
  o.push_back(2147483647);
  t.push_back(-2147483647);
  o.push_back(0);
  t.push_back(123456);
  o.resize(o.size() / 3 * 3);
  t.resize(o.size());
  for (double egl : {1.0, 100.0, 2.5}) {
    std::vector<std::int32_t> tt = t;
    check_decouple(o, tt, egl);
    make_some_parallel(o, tt, 5, 3, 4);
    check_decouple(o, tt, egl);
    make_some_parallel(o, tt, 3, 5, 4);
    check_decouple(o, tt, egl);
  }
}

// ---------------------------------------------------------------------------
// Options, names, errors

TEST(AdmFamily, OutputsAndSuffixesAsLibvmaf) {
  const ExtractorSpec plain = spec_for({});
  ASSERT_EQ(plain.outputs.size(), 7u);
  const char* names[] = {"integer_adm2",       "integer_aim",        "integer_adm3",
                         "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
                         "integer_adm_scale3"};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(plain.outputs[i].base, names[i]);
    EXPECT_EQ(plain.outputs[i].name, names[i]);
  }
  EXPECT_FALSE(plain.temporal);
  EXPECT_EQ(plain.family, "adm");

  // vmaf_v0.6.1neg and vmaf_v1.0.16_1d5h_2160's options.
  EXPECT_EQ(spec_for({{"adm_enhn_gain_limit", "1"}}).outputs[0].name, "integer_adm2_egl_1");
  const ExtractorSpec v16 = spec_for({{"adm_csf_mode", "2"},
                                      {"adm_dlm_weight", "0.7"},
                                      {"adm_enhn_gain_limit", "1.0"},
                                      {"adm_min_val", "0.5"},
                                      {"adm_noise_weight", "0.02"},
                                      {"adm_norm_view_dist", "1.5"},
                                      {"adm_ref_display_height", "2160"}});
  EXPECT_EQ(v16.outputs[2].name,
            "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_1.5_rdh_2160");
  // Aliases are accepted as keys; booleans add their alias alone; options
  // that are not feature parameters (debug, adm_skip_aim) add nothing.
  EXPECT_EQ(spec_for({{"scf", "2"}, {"scfd", "0.5"}, {"ssz", "true"}, {"adm_skip_aim", "true"}})
                .outputs[0]
                .name,
            "integer_adm2_scfd_0.5_scf_2_ssz");
  // Equal options, equal keys; different options, different keys.
  EXPECT_EQ(spec_for({{"egl", "1"}}).key, spec_for({{"adm_enhn_gain_limit", "1"}}).key);
  EXPECT_NE(spec_for({{"egl", "1"}}).key, plain.key);
}

TEST(AdmFamily, DebugAddsTheNumeratorsAndDenominators) {
  const ExtractorSpec spec = spec_for({{"debug", "true"}, {"egl", "1"}});
  ASSERT_EQ(spec.outputs.size(), 18u);
  EXPECT_EQ(spec.outputs[7].name, "integer_adm_egl_1");
  EXPECT_EQ(spec.outputs[8].name, "integer_adm_num_egl_1");
  EXPECT_EQ(spec.outputs[9].name, "integer_adm_den_egl_1");
  EXPECT_EQ(spec.outputs[10].name, "integer_adm_num_scale0_egl_1");
  EXPECT_EQ(spec.outputs[17].name, "integer_adm_den_scale3_egl_1");
}

TEST(AdmFamily, RejectsBadOptions) {
  const ExtractorFamily& f = integer_adm_family();
  for (const OptionMap& bad : std::vector<OptionMap>{
           {{"bogus", "1"}},
           {{"adm_enhn_gain_limit", "0.5"}},   // below 1
           {{"adm_csf_mode", "4"}},            // 0..3
           {{"adm_dlm_weight", "1.5"}},        // 0..1
           {{"adm_norm_view_dist", "0.5"}},    // 0.75..24
           {{"adm_ref_display_height", "0"}},  // 1..4320
           {{"adm_noise_weight", "abc"}},
           // libvmaf refuses nvd * rdh < 3 * 1080.
           {{"adm_norm_view_dist", "1"}},
           // No blended-CSF table for this viewing condition.
           {{"adm_csf_mode", "2"}, {"adm_ref_display_height", "1000"}},
           {{"adm_csf_mode", "3"}, {"adm_norm_view_dist", "4"}},
       }) {
    auto spec = f.make_spec(bad);
    EXPECT_FALSE(spec.ok()) << bad.begin()->first << "=" << bad.begin()->second;
    if (!spec.ok()) {
      EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
    }
  }
  // The smallest accepted viewing condition and both Barten modes pass.
  EXPECT_TRUE(
      f.make_spec({{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}}).ok());
  EXPECT_TRUE(f.make_spec({{"adm_csf_mode", "1"}}).ok());
}

TEST(AdmFamily, ProvidesLibvmafFeatureNames) {
  const ExtractorFamily& f = integer_adm_family();
  EXPECT_STREQ(f.name, "adm");
  auto base_of = [&](const std::string& model_name) -> std::string {
    for (const FeatureAlias& a : f.provides) {
      if (model_name == a.model_name) return a.base;
    }
    return "";
  };
  EXPECT_EQ(base_of("VMAF_integer_feature_adm2_score"), "integer_adm2");
  EXPECT_EQ(base_of("VMAF_integer_feature_aim_score"), "integer_aim");
  EXPECT_EQ(base_of("VMAF_integer_feature_adm3_score"), "integer_adm3");
  EXPECT_EQ(base_of("integer_adm_scale2"), "integer_adm_scale2");
  EXPECT_EQ(base_of("VMAF_feature_adm2_score"), "");  // float ADM's, not ours
}

}  // namespace
}  // namespace vqx

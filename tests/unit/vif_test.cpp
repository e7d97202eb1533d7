// Unit tests of the integer VIF extractor ("vif"). The expected values of
// the synthetic cases were computed by libvmaf's own integer_vif.c (v3.2.0,
// plain C path) on the same pictures and are compared bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/extractor.hpp"
#include "metrics/families.hpp"
#include "metrics/vif/cpu.hpp"
#include "metrics/vif/params.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

// --- Synthetic pictures --------------------------------------------------

std::uint32_t test_hash(std::uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// A textured reference at bpc bits: waves, edges and per-pixel noise, with
// hashed low bits below the 8-bit pattern.
std::uint32_t test_ref(unsigned x, unsigned y, unsigned bpc) {
  const int wave = static_cast<int>((x * 5 + y * 3) % 48) - 24;
  const int edge = ((x / 9 + y / 7) % 2 != 0) ? 30 : -30;
  const int noise = static_cast<int>(test_hash(x * 7919U + y * 104729U) % 21) - 10;
  const int v8 = std::clamp(128 + wave + edge + noise, 0, 255);
  const std::uint32_t low = test_hash(x + 131U * y) & ((1U << (bpc - 8)) - 1U);
  return (static_cast<std::uint32_t>(v8) << (bpc - 8)) | low;
}

// Noise of +-strength 8-bit steps.
std::int64_t test_noise(unsigned x, unsigned y, int strength) {
  const auto span = static_cast<std::uint32_t>(2 * strength + 1);
  return static_cast<std::int64_t>(test_hash(x * 31U + y * 1009U + 77U) % span) - strength;
}

std::uint32_t test_dist(unsigned x, unsigned y, unsigned bpc, int strength) {
  const std::int64_t maxv = (std::int64_t{1} << bpc) - 1;
  const std::int64_t v = static_cast<std::int64_t>(test_ref(x, y, bpc)) +
                         test_noise(x, y, strength) * (std::int64_t{1} << (bpc - 8));
  return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, maxv));
}

using testutil::set_sample;

enum class Content { kNoisy, kIdentical, kFlatRefNoisyDist };

struct PicturePair {
  Picture ref;
  Picture dist;
};

PicturePair make_pair(unsigned w, unsigned h, unsigned bpc, Content content, int strength) {
  const PictureFormat fmt{w, h, bpc, ChromaFormat::k420};
  PicturePair p{std::move(Picture::make(fmt).value()), std::move(Picture::make(fmt).value())};
  for (unsigned y = 0; y < h; ++y) {
    for (unsigned x = 0; x < w; ++x) {
      std::uint32_t r = test_ref(x, y, bpc);
      std::uint32_t d = content == Content::kIdentical ? r : test_dist(x, y, bpc, strength);
      if (content == Content::kFlatRefNoisyDist) {
        r = 100U << (bpc - 8);
        d = r + static_cast<std::uint32_t>(test_hash(x * 31U + y * 1009U + 77U) %
                                           static_cast<std::uint32_t>(2 * strength + 1))
                    * (1U << (bpc - 8));
      }
      set_sample(p.ref.plane(0), x, y, r);
      set_sample(p.dist.plane(0), x, y, d);
    }
  }
  return p;
}

// --- Running the extractor -------------------------------------------------

using testutil::MapWriter;

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(integer_vif_family(), options);
}

// Runs one frame and returns every output by name.
std::map<std::string, double> run_frame(const PicturePair& pair, const OptionMap& options) {
  const ExtractorSpec spec = spec_for(options);
  auto ex = spec.make();
  const Status init = ex->init(pair.ref.format());
  EXPECT_TRUE(init.ok()) << init.message();
  MapWriter writer;
  const Status st = ex->extract(pair.ref, pair.dist, 0, writer);
  EXPECT_TRUE(st.ok()) << st.message();
  std::map<std::string, double> out;
  for (std::size_t s = 0; s < spec.outputs.size(); ++s) {
    EXPECT_EQ(writer.values.count({s, 0U}), 1U) << spec.outputs[s].name;
    out[spec.outputs[s].name] = writer.values[{s, 0U}];
  }
  return out;
}

// libvmaf's 15 values in its order: 4 scale scores, integer_vif, num, den,
// then num/den of scales 0..3.
using Expected15 = std::array<double, 15>;

const std::array<const char*, 15> kAllNames = {
    "integer_vif_scale0",     "integer_vif_scale1",     "integer_vif_scale2",
    "integer_vif_scale3",     "integer_vif",            "integer_vif_num",
    "integer_vif_den",        "integer_vif_num_scale0", "integer_vif_den_scale0",
    "integer_vif_num_scale1", "integer_vif_den_scale1", "integer_vif_num_scale2",
    "integer_vif_den_scale2", "integer_vif_num_scale3", "integer_vif_den_scale3"};

void expect_all(const std::map<std::string, double>& got, const Expected15& want,
                const std::string& suffix = "") {
  for (std::size_t k = 0; k < kAllNames.size(); ++k) {
    const std::string name = kAllNames[k] + suffix;
    ASSERT_EQ(got.count(name), 1U) << name;
    EXPECT_EQ(got.at(name), want[k]) << name;  // bit-exact
  }
}

OptionMap debug_options() { return {{"debug", "true"}}; }

// --- Values against libvmaf ------------------------------------------------

TEST(IntegerVif, NoisyPicture8Bit) {
  const auto pair = make_pair(64, 48, 8, Content::kNoisy, 12);
  expect_all(run_frame(pair, debug_options()),
             {0.48633712530136108, 0.92813187837600708, 0.9652029275894165, 0.98850691318511963,
              0.57434523003984161, 19885.52685546875, 34622.951171875, 13542.56640625,
              27846.046875, 5083.92626953125, 5477.59033203125, 1049.80712890625, 1087.654296875,
              209.22705078125, 211.65966796875});
}

TEST(IntegerVif, IdenticalPicturesScoreOne) {
  const auto pair = make_pair(64, 48, 8, Content::kIdentical, 0);
  const auto got = run_frame(pair, debug_options());
  // Not exactly 1 everywhere: the numerator truncates g^2 sigma1^2 with
  // g = sigma12 / (sigma1^2 + eps) just below 1, libvmaf included.
  expect_all(got, {1, 0.99999994039535522, 1, 1, 0.99999998589717998, 34622.95068359375,
                   34622.951171875, 27846.046875, 27846.046875, 5477.58984375, 5477.59033203125,
                   1087.654296875, 1087.654296875, 211.65966796875, 211.65966796875});
  for (int s = 0; s < 4; ++s) {
    EXPECT_NEAR(got.at("integer_vif_scale" + std::to_string(s)), 1.0, 1e-6);
  }
}

TEST(IntegerVif, FlatPicturesScoreExactlyOne) {
  // A flat reference has sigma1^2 = 0: every pixel takes the linear branch
  // (num = den = pixel count when the distorted picture is flat too).
  for (const std::uint32_t level : {0U, 100U, 255U}) {
    const PictureFormat fmt{40, 24, 8, ChromaFormat::k420};
    PicturePair pair{std::move(Picture::make(fmt).value()), std::move(Picture::make(fmt).value())};
    for (unsigned y = 0; y < 24; ++y) {
      for (unsigned x = 0; x < 40; ++x) {
        set_sample(pair.ref.plane(0), x, y, level);
        set_sample(pair.dist.plane(0), x, y, 255 - level);
      }
    }
    const auto got = run_frame(pair, debug_options());
    for (int s = 0; s < 4; ++s) {
      EXPECT_EQ(got.at("integer_vif_scale" + std::to_string(s)), 1.0) << level;
    }
    EXPECT_EQ(got.at("integer_vif_num_scale0"), 40.0 * 24.0);
    EXPECT_EQ(got.at("integer_vif_den_scale3"), 5.0 * 3.0);
  }
}

TEST(IntegerVif, FlatReferenceNoisyDistortion) {
  const auto pair = make_pair(40, 24, 8, Content::kFlatRefNoisyDist, 12);
  expect_all(run_frame(pair, debug_options()),
             {0.99695086479187012, 0.99994242191314697, 0.99998390674591064, 0.99998241662979126,
              0.99769236171946807, 1272.0577611923218, 1275, 957.07281494140625, 960,
              239.98617553710938, 240, 59.999034881591797, 60, 14.999735832214355, 15});
}

TEST(IntegerVif, GainLimitOne) {
  const auto pair = make_pair(64, 48, 8, Content::kNoisy, 12);
  expect_all(run_frame(pair, {{"debug", "true"}, {"vif_enhn_gain_limit", "1"}}),
             {0.48394843935966492, 0.92272257804870605, 0.95792084932327271, 0.97389954328536987,
              0.57125023925434215, 19778.369140625, 34622.951171875, 13476.05078125,
              27846.046875, 5054.29638671875, 5477.59033203125, 1041.88671875, 1087.654296875,
              206.13525390625, 211.65966796875},
             "_egl_1");
}

TEST(IntegerVif, SkipScale0) {
  const auto pair = make_pair(64, 48, 8, Content::kNoisy, 12);
  expect_all(run_frame(pair, {{"debug", "true"}, {"vif_skip_scale0", "true"}}),
             {0, 0.92813187837600708, 0.9652029275894165, 0.98850691318511963,
              0.93596724571477974, 6342.96044921875, 6776.904296875, 0, -1, 5083.92626953125,
              5477.59033203125, 1049.80712890625, 1087.654296875, 209.22705078125,
              211.65966796875},
             "_ssclz");
}

TEST(IntegerVif, TenBit) {
  const auto pair = make_pair(64, 48, 10, Content::kNoisy, 12);
  expect_all(run_frame(pair, debug_options()),
             {0.48628830909729004, 0.92814803123474121, 0.96523654460906982, 0.98907679319381714,
              0.57430985783911437, 19883.06689453125, 34620.80029296875, 13540.48046875,
              27844.552734375, 5083.6064453125, 5477.150390625, 1049.72021484375,
              1087.5263671875, 209.259765625, 211.57080078125});
}

TEST(IntegerVif, TwelveBit) {
  const auto pair = make_pair(64, 48, 12, Content::kNoisy, 12);
  expect_all(run_frame(pair, debug_options()),
             {0.48632648587226868, 0.9281165599822998, 0.9650493860244751, 0.98873186111450195,
              0.57433111028246586, 19884.40869140625, 34621.85546875, 13541.830078125,
              27845.142578125, 5083.6962890625, 5477.43310546875, 1049.5859375,
              1087.59814453125, 209.29638671875, 211.681640625});
}

TEST(IntegerVif, SixteenBit) {
  const auto pair = make_pair(64, 48, 16, Content::kNoisy, 12);
  expect_all(run_frame(pair, debug_options()),
             {0.48632541298866272, 0.92815518379211426, 0.96511417627334595, 0.9884641170501709,
              0.57433223907497588, 19884.7890625, 34622.44970703125, 13542.2001953125,
              27845.96484375, 5083.78662109375, 5477.30224609375, 1049.5654296875,
              1087.50390625, 209.23681640625, 211.6787109375});
}

TEST(IntegerVif, OddSize8Bit) {
  // 37x29 halves to 18x14, 9x7, 4x3: odd sides at every scale.
  const auto pair = make_pair(37, 29, 8, Content::kNoisy, 20);
  expect_all(run_frame(pair, debug_options()),
             {0.34973853826522827, 0.85994040966033936, 0.93037080764770508, 0.91078603267669678,
              0.44860285448772691, 5325.3984375, 11871.07568359375, 3367.41357421875,
              9628.3740234375, 1556.36865234375, 1809.8564453125, 350.91015625, 377.17236328125,
              50.7060546875, 55.6728515625});
}

TEST(IntegerVif, OddSize10Bit) {
  const auto pair = make_pair(37, 29, 10, Content::kNoisy, 20);
  expect_all(run_frame(pair, debug_options()),
             {0.34970235824584961, 0.85996139049530029, 0.93055450916290283, 0.9092707633972168,
              0.44857528580231654, 5324.92529296875, 11870.75048828125, 3366.9765625,
              9628.12109375, 1556.2802734375, 1809.70947265625, 350.95263671875,
              377.1435546875, 50.7158203125, 55.7763671875});
}

TEST(IntegerVif, SmallestPicture) {
  const auto pair = make_pair(16, 16, 8, Content::kNoisy, 5);
  expect_all(run_frame(pair, debug_options()),
             {0.71129536628723145, 0.97793704271316528, 0.9880213737487793, 0.986347496509552,
              0.76625929562086736, 2175.31884765625, 2838.880859375, 1606.3525390625,
              2258.34814453125, 443.03173828125, 453.02685546875, 100.04150390625,
              101.25439453125, 25.89306640625, 26.25146484375});
}

TEST(IntegerVif, DebugSumsAreConsistent) {
  const auto pair = make_pair(64, 48, 10, Content::kNoisy, 7);
  const auto got = run_frame(pair, debug_options());
  double num = 0;
  double den = 0;
  for (int s = 0; s < 4; ++s) {
    num += got.at("integer_vif_num_scale" + std::to_string(s));
    den += got.at("integer_vif_den_scale" + std::to_string(s));
    // Each scale score is the float quotient of its float num and den.
    const auto q = static_cast<float>(got.at("integer_vif_num_scale" + std::to_string(s))) /
                   static_cast<float>(got.at("integer_vif_den_scale" + std::to_string(s)));
    EXPECT_EQ(got.at("integer_vif_scale" + std::to_string(s)), static_cast<double>(q));
  }
  EXPECT_EQ(got.at("integer_vif_num"), num);
  EXPECT_EQ(got.at("integer_vif_den"), den);
  EXPECT_EQ(got.at("integer_vif"), num / den);
}

// One instance, frames in any order, gives what fresh instances give.
TEST(IntegerVif, InstanceKeepsNoStateBetweenFrames) {
  const auto a = make_pair(48, 32, 8, Content::kNoisy, 3);
  const auto b = make_pair(48, 32, 8, Content::kNoisy, 30);
  const ExtractorSpec spec = spec_for({});
  auto ex = spec.make();
  ASSERT_TRUE(ex->init(a.ref.format()).ok());
  MapWriter w;
  ASSERT_TRUE(ex->extract(b.ref, b.dist, 1, w).ok());
  ASSERT_TRUE(ex->extract(a.ref, a.dist, 0, w).ok());
  ASSERT_TRUE(ex->extract(b.ref, b.dist, 2, w).ok());
  const auto fresh_a = run_frame(a, {});
  const auto fresh_b = run_frame(b, {});
  for (std::size_t s = 0; s < 4; ++s) {
    EXPECT_EQ((w.values[{s, 0U}]), fresh_a.at(spec.outputs[s].name));
    EXPECT_EQ((w.values[{s, 1U}]), fresh_b.at(spec.outputs[s].name));
    EXPECT_EQ((w.values[{s, 2U}]), fresh_b.at(spec.outputs[s].name));
  }
  EXPECT_LT(fresh_b.at("integer_vif_scale0"), fresh_a.at("integer_vif_scale0"));
}

// --- Names, options, errors ------------------------------------------------

TEST(IntegerVif, DefaultOutputs) {
  const ExtractorSpec spec = spec_for({});
  EXPECT_EQ(spec.family, "vif");
  EXPECT_FALSE(spec.temporal);
  ASSERT_EQ(spec.outputs.size(), 4U);
  for (std::size_t s = 0; s < 4; ++s) {
    EXPECT_EQ(spec.outputs[s].base, kAllNames[s]);
    EXPECT_EQ(spec.outputs[s].name, kAllNames[s]);
  }
}

TEST(IntegerVif, OptionSuffixes) {
  const ExtractorSpec egl = spec_for({{"egl", "1"}, {"debug", "true"}});
  ASSERT_EQ(egl.outputs.size(), 15U);
  EXPECT_EQ(egl.outputs[0].name, "integer_vif_scale0_egl_1");
  EXPECT_EQ(egl.outputs[0].base, "integer_vif_scale0");
  EXPECT_EQ(egl.outputs[14].name, "integer_vif_den_scale3_egl_1");
  const ExtractorSpec both = spec_for({{"vif_enhn_gain_limit", "1.5"}, {"vif_skip_scale0", "true"}});
  EXPECT_EQ(both.outputs[3].name, "integer_vif_scale3_egl_1.5_ssclz");
  // The default value, given explicitly, adds nothing; debug is no feature
  // parameter.
  EXPECT_EQ(spec_for({{"egl", "100"}, {"debug", "false"}}).outputs[1].name, "integer_vif_scale1");
  // Different options, different keys; the same options, the same key.
  EXPECT_NE(spec_for({}).key, spec_for({{"egl", "1"}}).key);
  EXPECT_EQ(spec_for({{"egl", "1"}}).key, spec_for({{"vif_enhn_gain_limit", "1.0"}}).key);
}

TEST(IntegerVif, BadOptions) {
  for (const OptionMap& bad : {OptionMap{{"egl", "0.5"}}, OptionMap{{"egl", "100.5"}},
                               OptionMap{{"egl", "abc"}}, OptionMap{{"debug", "maybe"}},
                               OptionMap{{"vif_kernelscale", "1"}}}) {
    const auto spec = integer_vif_family().make_spec(bad);
    ASSERT_FALSE(spec.ok()) << bad.begin()->first;
    EXPECT_EQ(spec.status().code(), Errc::kInvalidArgument);
  }
}

TEST(IntegerVif, ModelAliases) {
  const ExtractorFamily& fam = integer_vif_family();
  EXPECT_STREQ(fam.name, "vif");
  ASSERT_EQ(fam.provides.size(), 4U);
  for (std::size_t s = 0; s < 4; ++s) {
    EXPECT_EQ(std::string(fam.provides[s].model_name),
              "VMAF_integer_feature_vif_scale" + std::to_string(s) + "_score");
    EXPECT_STREQ(fam.provides[s].base, kAllNames[s]);
  }
}

TEST(IntegerVif, TooSmallPictureIsRefused) {
  const auto ex = spec_for({}).make();
  const Status st = ex->init(PictureFormat{15, 64, 8, ChromaFormat::k420});
  EXPECT_EQ(st.code(), Errc::kUnsupported);
  EXPECT_EQ(spec_for({}).make()->init(PictureFormat{64, 15, 10, ChromaFormat::k420}).code(),
            Errc::kUnsupported);
  EXPECT_TRUE(spec_for({}).make()->init(PictureFormat{16, 16, 8, ChromaFormat::k420}).ok());
}

TEST(IntegerVif, MismatchedPictureIsRefused) {
  const auto small = make_pair(32, 32, 8, Content::kNoisy, 4);
  const auto deep = make_pair(48, 32, 10, Content::kNoisy, 4);
  const auto ex = spec_for({}).make();
  ASSERT_TRUE(ex->init(PictureFormat{48, 32, 8, ChromaFormat::k420}).ok());
  MapWriter w;
  EXPECT_EQ(ex->extract(small.ref, small.dist, 0, w).code(), Errc::kMismatch);
  EXPECT_EQ(ex->extract(deep.ref, deep.dist, 0, w).code(), Errc::kMismatch);
  EXPECT_TRUE(w.values.empty());
}

// The log2 table depends on rounding log2 to float first (as libvmaf's
// log2f does): these entries differ from a table built in double.
TEST(IntegerVif, Log2TableMatchesLibvmaf) {
  const auto& t = vif::log2_q11_table();
  EXPECT_EQ(t[32767], 30720);  // round(2048 * 14.99996)
  EXPECT_EQ(t[32768], 30720);
  EXPECT_EQ(t[65535], 32768);
  EXPECT_EQ(t[33108], 30751);
  EXPECT_EQ(t[48961], 31907);
  EXPECT_EQ(t[64841], 32737);
  EXPECT_EQ(t[0], 0);
  EXPECT_EQ(t[1000], 0);
}

}  // namespace
}  // namespace vqx

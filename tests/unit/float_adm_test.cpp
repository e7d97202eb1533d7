// Unit tests of the float ADM extractor ("float_adm"): the emulated Intel
// reciprocal, the CSF weights, the wavelet's mirror and the band regions,
// scores on hand-checkable pictures (flat, identical, noise), bit depths,
// odd sizes, options, names and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "metrics/families.hpp"
#include "metrics/float_adm/cpu.hpp"
#include "metrics/float_adm/csf.hpp"
#include "metrics/float_adm/dwt.hpp"
#include "metrics/float_adm/recip.hpp"
#include "test_util.hpp"

namespace vqx {
namespace {

// ---------------------------------------------------------------------------
// Helpers

using testutil::format;
using testutil::last_values;
using testutil::noise;
using testutil::slot_of;
using testutil::grey_chroma::make_picture;

ExtractorSpec spec_for(const OptionMap& options) {
  return testutil::spec_for(float_adm_family(), options);
}

// ---------------------------------------------------------------------------
// Building blocks

TEST(FloatAdmRecip, IntelRcpssValues) {
  using float_adm::intel_rcp;
  // RCPSS as Intel CPUs compute it: 12 fraction bits from the midpoint of
  // the input's interval.
  EXPECT_EQ(intel_rcp(1.0f), 0.999755859375f);
  EXPECT_EQ(intel_rcp(2.0f), 0.4998779296875f);
  EXPECT_EQ(intel_rcp(1.5f), 0.66650390625f);
  EXPECT_EQ(intel_rcp(-3.0f), -0.333251953125f);
  EXPECT_EQ(intel_rcp(0.25f), 4.0f * 0.999755859375f);
  // Table entries (Bochs' measured table, sse_rcp.cc: 0x7ff0, 0x7df8, ...
  // in units of 2^-15 above 1, here as 12-bit q << 11).
  EXPECT_EQ(float_adm::kRcpTable[0], 0x7ff0U << 8);
  EXPECT_EQ(float_adm::kRcpTable[16], 0x7df8U << 8);
  EXPECT_EQ(float_adm::kRcpTable[2047], 0x0008U << 8);
  // Special inputs.
  EXPECT_EQ(intel_rcp(0.0f), std::numeric_limits<float>::infinity());
  EXPECT_EQ(intel_rcp(-0.0f), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(intel_rcp(1e-40f), std::numeric_limits<float>::infinity());  // denormal
  EXPECT_EQ(intel_rcp(std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(intel_rcp(1e38f), 0.0f);  // the result would be denormal
  EXPECT_TRUE(std::isnan(intel_rcp(std::numeric_limits<float>::quiet_NaN())));
  // Relative error within Intel's bound of 1.5 * 2^-12, and one Newton step
  // brings it to float precision.
  std::mt19937 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const float x = std::ldexp(1.0f + static_cast<float>(rng() % 8388608) / 8388608.0f,
                               static_cast<int>(rng() % 40) - 20);
    EXPECT_LE(std::fabs(static_cast<double>(intel_rcp(x)) * x - 1), 1.5 / 4096);
    EXPECT_LE(std::fabs(static_cast<double>(float_adm::refined_rcp(x)) * x - 1), 4e-7);
  }
}

TEST(FloatAdmCsf, WatsonBartenAndNativeWeights) {
  // libvmaf's factors at the default viewing condition (3 x 1080 lines).
  float_adm::Params p;
  const auto watson = float_adm::csf_weights(p);
  EXPECT_FLOAT_EQ(watson[0].hv, 0.0173815377f);
  EXPECT_FLOAT_EQ(watson[0].diag, 0.005890687f);
  EXPECT_FLOAT_EQ(watson[3].hv, 0.0456734113f);
  EXPECT_FLOAT_EQ(watson[3].diag, 0.0313127376f);
  p.csf_mode = 1;
  const auto barten = float_adm::csf_weights(p);
  EXPECT_FLOAT_EQ(barten[0].hv, 1.21049654f);
  EXPECT_FLOAT_EQ(barten[3].hv, 26.9758816f);
  p.csf_mode = 2;
  const auto native = float_adm::csf_weights(p);
  EXPECT_FLOAT_EQ(native[0].hv, 0.00544585148f);
  EXPECT_FLOAT_EQ(native[0].diag, 0.000230553938f);
  // Overrides, and modes above 2 behave as Watson.
  p.csf_mode = 7;
  p.f1[2] = 0.5;
  p.f2[0] = 0.0;
  const auto over = float_adm::csf_weights(p);
  EXPECT_EQ(over[2].hv, 0.5f);
  EXPECT_EQ(over[0].diag, 0.0f);
  EXPECT_EQ(over[1].hv, watson[1].hv);
}

TEST(FloatAdmDwt, MirrorAndRegions) {
  using float_adm::dwt_index;
  EXPECT_EQ(dwt_index(-1, 6), 1);
  EXPECT_EQ(dwt_index(6, 6), 5);  // the last sample repeats at the end
  EXPECT_EQ(dwt_index(7, 6), 4);
  EXPECT_EQ(dwt_index(3, 6), 3);
  // A 288 x 162 band: 10% less half a sample off each side for the sums,
  // one more (and one more past the end) for the weighting.
  const float_adm::ScaleGeometry g = float_adm::scale_geometry(288, 162);
  EXPECT_EQ(g.sums.left, 28);
  EXPECT_EQ(g.sums.right, 260);
  EXPECT_EQ(g.sums.top, 15);
  EXPECT_EQ(g.sums.bottom, 147);
  EXPECT_EQ(g.weighted.left, 27);
  EXPECT_EQ(g.weighted.right, 263);
  EXPECT_EQ(g.weighted.top, 14);
  EXPECT_EQ(g.weighted.bottom, 150);
  // Small bands keep every sample.
  const float_adm::ScaleGeometry s = float_adm::scale_geometry(2, 3);
  EXPECT_EQ(s.sums.left, 0);
  EXPECT_EQ(s.sums.right, 2);
  EXPECT_EQ(s.weighted.left, 0);
  EXPECT_EQ(s.weighted.right, 2);
}

TEST(FloatAdmDwt, FlatInputHasNoDetail) {
  float_common::FloatImage src;
  src.resize(9, 7);
  for (unsigned y = 0; y < 7; ++y) {
    for (unsigned x = 0; x < 9; ++x) src.row(y)[x] = 10.0f;
  }
  std::vector<float> a(5), h(5), v(5), d(5);
  std::vector<float> scratch(float_adm::dwt_scratch_size(9));
  float_common::FloatRows rows;
  rows.read_image(src);
  for (unsigned i = 0; i < 4; ++i) {
    float_adm::dwt_row(rows, i, {a.data(), h.data(), v.data(), d.data()}, false, scratch);
    for (int j = 0; j < 5; ++j) {
      // Low-pass gain sqrt(2) per direction; high-pass taps sum to ~0.
      EXPECT_NEAR(a[j], 20.0f, 1e-4f);
      EXPECT_NEAR(h[j], 0.0f, 1e-5f);
      EXPECT_NEAR(v[j], 0.0f, 1e-5f);
      EXPECT_NEAR(d[j], 0.0f, 1e-6f);
    }
  }
}

// ---------------------------------------------------------------------------
// Scores

TEST(FloatAdm, MidGreyPicturesScoreOneExactly) {
  // Samples of 128 are 0 after centring: every subband is exactly 0, so
  // every masked sum is 0 and each scale's numerator and denominator are
  // the same noise floor.
  const PictureFormat fmt = format(64, 48, 8);
  const Picture grey = make_picture(fmt, [](unsigned, unsigned) { return 128U; });
  const ExtractorSpec spec = spec_for({{"debug", "true"}});
  const auto v = last_values(spec, grey, grey);
  EXPECT_EQ(v[slot_of(spec, "adm2")], 1.0);
  EXPECT_EQ(v[slot_of(spec, "aim")], 0.0);
  EXPECT_EQ(v[slot_of(spec, "adm3")], 1.0);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(v[slot_of(spec, "adm_scale" + std::to_string(s))], 1.0) << s;
  }
  // Scale 0 of 64x48 is 32x24, summed over columns 2..29 and rows 1..22
  // (28 x 22): 3 bands of (616 / 32)^(1/3) each.
  EXPECT_NEAR(v[slot_of(spec, "adm_den_scale0")], 3 * std::cbrt(616.0 / 32), 1e-5);
  EXPECT_EQ(v[slot_of(spec, "adm_num_scale0")], v[slot_of(spec, "adm_den_scale0")]);
}

TEST(FloatAdm, FlatPicturesScoreOne) {
  // Other flat levels leave only float rounding in the detail bands.
  const PictureFormat fmt = format(64, 48, 8);
  const ExtractorSpec spec = spec_for({});
  const auto v = last_values(spec, make_picture(fmt, [](unsigned, unsigned) { return 40U; }),
                             make_picture(fmt, [](unsigned, unsigned) { return 90U; }));
  EXPECT_NEAR(v[slot_of(spec, "adm2")], 1.0, 1e-5);
  EXPECT_NEAR(v[slot_of(spec, "aim")], 0.0, 1e-5);
}

TEST(FloatAdm, NoDetailAndNoNoiseFloor) {
  // adm_noise_weight=0 leaves nothing in the denominator: libvmaf then
  // reports adm2 = 1 (and leaves AIM unset; VQX reports 0).
  const PictureFormat fmt = format(32, 32, 8);
  const Picture grey = make_picture(fmt, [](unsigned, unsigned) { return 128U; });
  const ExtractorSpec spec = spec_for({{"adm_noise_weight", "0"}});
  EXPECT_EQ(spec.outputs[0].name, "adm2_nw_0");
  const auto v = last_values(spec, grey, grey);
  EXPECT_EQ(v[slot_of(spec, "adm2")], 1.0);
  EXPECT_EQ(v[slot_of(spec, "aim")], 0.0);
  EXPECT_EQ(v[slot_of(spec, "adm3")], 1.0);
}

TEST(FloatAdm, IdenticalPicturesScoreOne) {
  const PictureFormat fmt = format(64, 48, 8);
  const Picture a = make_picture(fmt, noise(1, 0, 255));
  const ExtractorSpec spec = spec_for({});
  const auto v = last_values(spec, a, a);
  EXPECT_NEAR(v[slot_of(spec, "adm2")], 1.0, 1e-5);
  EXPECT_NEAR(v[slot_of(spec, "aim")], 0.0, 1e-5);
  EXPECT_NEAR(v[slot_of(spec, "adm3")], 1.0, 1e-5);
  for (int s = 0; s < 4; ++s) {
    EXPECT_NEAR(v[slot_of(spec, "adm_scale" + std::to_string(s))], 1.0, 1e-5) << s;
  }
}

TEST(FloatAdm, LostDetailLowersAdm2AndAddedNoiseRaisesAim) {
  const PictureFormat fmt = format(64, 48, 8);
  std::mt19937 rng(5);
  std::vector<std::uint32_t> ref(64 * 48);
  for (auto& s : ref) s = 40 + static_cast<std::uint32_t>(rng() % 160);
  std::vector<std::uint32_t> noisy = ref;
  for (auto& s : noisy) s = s + static_cast<std::uint32_t>(rng() % 41) - 20;
  const Picture r = make_picture(fmt, [&](unsigned x, unsigned y) { return ref[y * 64 + x]; });
  const Picture flat = make_picture(fmt, [](unsigned, unsigned) { return 128U; });
  const Picture n = make_picture(fmt, [&](unsigned x, unsigned y) { return noisy[y * 64 + x]; });
  const ExtractorSpec spec = spec_for({});
  const auto lost = last_values(spec, r, flat);
  const auto added = last_values(spec, r, n);
  // All detail lost: the numerator keeps only its noise floor, and no
  // detail was added.
  EXPECT_LT(lost[slot_of(spec, "adm2")], 0.3);
  EXPECT_LT(lost[slot_of(spec, "aim")], 1e-6);
  EXPECT_GT(added[slot_of(spec, "adm2")], 0.3);
  EXPECT_LT(added[slot_of(spec, "adm2")], 0.99);
  EXPECT_GT(added[slot_of(spec, "aim")], 0.01);
  // adm3 = 0.5 adm2 + 0.5 (1 - aim).
  EXPECT_EQ(added[slot_of(spec, "adm3")],
            added[slot_of(spec, "adm2")] * 0.5 + (1 - added[slot_of(spec, "aim")]) * (1 - 0.5));
}

TEST(FloatAdm, DeeperSamplesOfTheSameValuesScoreTheSame) {
  std::vector<double> first;
  for (unsigned bpc : {8U, 9U, 10U, 12U, 16U}) {
    const PictureFormat fmt = format(41, 35, bpc);
    const auto v =
        last_values(spec_for({{"debug", "true"}}), make_picture(fmt, noise(3, 0, 255, bpc)),
                    make_picture(fmt, noise(4, 20, 230, bpc)));
    if (first.empty()) {
      first = v;
    } else {
      EXPECT_EQ(v, first) << bpc;
    }
  }
}

TEST(FloatAdm, OddSizesAndTheSmallestPicture) {
  for (unsigned w : {17U, 18U, 33U}) {
    const PictureFormat fmt = format(w, 17, 8, ChromaFormat::k400);
    const Picture a = make_picture(fmt, noise(9, 0, 255));
    const ExtractorSpec spec = spec_for({});
    const auto v = last_values(spec, a, a);
    EXPECT_NEAR(v[slot_of(spec, "adm2")], 1.0, 1e-5) << w;
  }
}

TEST(FloatAdm, SkipScale0AndSkipAimScale) {
  const PictureFormat fmt = format(64, 48, 8);
  const Picture a = make_picture(fmt, noise(10, 0, 255));
  const Picture b = make_picture(fmt, noise(11, 0, 255));
  const ExtractorSpec skip = spec_for({{"adm_skip_scale0", "true"}, {"debug", "true"}});
  const auto v = last_values(skip, a, b);
  EXPECT_EQ(v[slot_of(skip, "adm_scale0")], 0.0);
  EXPECT_EQ(v[slot_of(skip, "adm_num_scale0")], 0.0);
  EXPECT_EQ(v[slot_of(skip, "adm_den_scale0")], static_cast<double>(1e-10f));
  EXPECT_GT(v[slot_of(skip, "adm_scale1")], 0.0);

  // Leaving scale 3 out of AIM changes AIM only.
  const ExtractorSpec all = spec_for({});
  const ExtractorSpec no3 = spec_for({{"adm_skip_aim_scale", "3"}});
  const auto va = last_values(all, a, b);
  const auto vb = last_values(no3, a, b);
  EXPECT_EQ(va[slot_of(all, "adm2")], vb[slot_of(no3, "adm2")]);
  EXPECT_NE(va[slot_of(all, "aim")], vb[slot_of(no3, "aim")]);
  EXPECT_EQ(no3.outputs[1].name, "aim_sasc_3");
}

TEST(FloatAdm, Adm3Options) {
  const PictureFormat fmt = format(48, 40, 8);
  const Picture a = make_picture(fmt, noise(12, 0, 255));
  const Picture b = make_picture(fmt, noise(13, 0, 255));
  const ExtractorSpec hm = spec_for({{"adm_adm3_apply_hm", "true"}});
  const auto v = last_values(hm, a, b);
  const double adm2 = v[slot_of(hm, "adm2")];
  const double aim = v[slot_of(hm, "aim")];
  EXPECT_EQ(v[slot_of(hm, "adm3")], 2 * adm2 * aim / (adm2 + aim));
  const ExtractorSpec floor = spec_for({{"adm_min_val", "0.99"}});
  EXPECT_EQ(floor.outputs[2].name, "adm3_min_0.99");
  EXPECT_EQ(last_values(floor, a, b)[slot_of(floor, "adm3")], 0.99);
}

// ---------------------------------------------------------------------------
// Names, options and errors

TEST(FloatAdm, OutputNames) {
  const ExtractorSpec spec = spec_for({});
  ASSERT_EQ(spec.outputs.size(), 7U);
  EXPECT_EQ(spec.outputs[0].name, "adm2");
  EXPECT_EQ(spec.outputs[1].name, "aim");
  EXPECT_EQ(spec.outputs[2].name, "adm3");
  EXPECT_EQ(spec.outputs[6].name, "adm_scale3");
  EXPECT_FALSE(spec.temporal);
  // The combined debug score keeps its bare name (libvmaf's provided
  // features do not list it).
  const ExtractorSpec debug = spec_for({{"debug", "true"}, {"adm_enhn_gain_limit", "1"}});
  ASSERT_EQ(debug.outputs.size(), 18U);
  EXPECT_EQ(debug.outputs[0].name, "adm2_egl_1");
  EXPECT_EQ(debug.outputs[7].name, "adm");
  EXPECT_EQ(debug.outputs[8].name, "adm_num_egl_1");
  EXPECT_EQ(debug.outputs[17].name, "adm_den_scale3_egl_1");
  const ExtractorSpec many =
      spec_for({{"adm_csf_mode", "1"}, {"adm_ref_display_height", "2160"}, {"adm_f1s0", "0.5"}});
  EXPECT_EQ(many.outputs[0].name, "adm2_csf_1_f1s0_0.5_rdf_2160");
}

TEST(FloatAdm, BadOptionsAreRefused) {
  const OptionMap bad[] = {
      {{"adm_csf_mode", "10"}},        {{"adm_enhn_gain_limit", "0.5"}},
      {{"adm_norm_view_dist", "0.5"}}, {{"adm_skip_aim_scale", "-1"}},
      {{"adm_p_norm", "x"}},           {{"adm_f1s0", "-2"}},
      {{"adm_skip_aim", "true"}},
  };
  for (const OptionMap& o : bad) {
    const auto spec = float_adm_family().make_spec(o);
    ASSERT_FALSE(spec.ok()) << o.begin()->first;
    EXPECT_NE(spec.status().message().find("float_adm"), std::string::npos);
  }
}

TEST(FloatAdm, TooSmallPicturesAreRefused) {
  for (const PictureFormat& fmt : {format(16, 64, 8), format(64, 16, 8)}) {
    auto ex = spec_for({}).make();
    const Status st = ex->init(fmt);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message().find("float_adm"), std::string::npos);
    EXPECT_NE(st.message().find("17x17"), std::string::npos);
  }
}

TEST(FloatAdm, AnInstanceKeepsNoFloatCopyOfThePictures) {
  // The pipeline reads the luma planes' rows, converted to float into a
  // ring of rows as it goes. Before, each instance converted both pictures
  // whole into float images first: 2 x 33 MB more at 3840x2160, touched
  // (and so zeroed by the kernel) by every instance, and read back from
  // memory by every pass.
  const double grown_mb = testutil::first_frame_growth_mb(spec_for({}), format(3840, 2160, 8));
  // The a subbands of scales 0 to 2 of both pictures: 25 MB.
  EXPECT_LT(grown_mb, 50.0) << "an instance at 3840x2160 grew by " << grown_mb << " MB";
}

}  // namespace
}  // namespace vqx

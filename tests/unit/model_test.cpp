// VMAF model loading, --model parsing and prediction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/family.hpp"
#include "model/builtin_models.hpp"
#include "model/model.hpp"

namespace vqx {
namespace {

using Json = nlohmann::json;

std::string builtin_text(std::string_view version) {
  for (const detail::BuiltinModelFile& f : detail::builtin_model_files()) {
    if (f.version == version) return {reinterpret_cast<const char*>(f.data), f.size};
  }
  ADD_FAILURE() << "no built-in " << version;
  return {};
}

Model load_builtin(std::string_view version, const std::string& name) {
  ModelConfig cfg;
  cfg.name = name;
  Expected<Model> m = Model::builtin(version, cfg);
  EXPECT_TRUE(m.ok()) << m.status().message();
  return std::move(m).value();
}

std::vector<double> predict(const Model& m, const std::vector<double>& in) {
  std::vector<double> out(m.output_names().size());
  const Status s = m.predict(in, out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

// Expects a load failure whose message contains every one of `parts`.
void expect_error(const Expected<Model>& m, std::initializer_list<const char*> parts) {
  ASSERT_FALSE(m.ok()) << "loaded, expected an error";
  const std::string& msg = m.status().message();
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  for (const char* p : parts)
    EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
}

// ---------------------------------------------------------------------------
// Golden frames. Inputs and expected scores are copied (%.17g) from
// shared/corpus/golden_fullprec/<pair>.models.json, frames[i].metrics, produced
// by libvmaf 3.2.0 (commit f85a8536...).

struct GoldenFrame {
  const char* where;
  // integer_adm2, integer_motion2, integer_vif_scale0..3
  double adm2, motion2, vif[4];
  // integer_adm2_egl_1, integer_vif_scale0_egl_1..3 (vmaf_v0.6.1neg)
  double adm2_egl1, vif_egl1[4];
  // float features: adm2, motion2, vif_scale0..3 (vmaf_float_v0.6.1)
  double f_adm2, f_motion2, f_vif[4];
  double vmaf, vmaf_neg, vmaf_4k, vmaf_float;
  // vmaf_b_v0.6.3: the model, _0001, _0020, _bagging, _stddev, _ci_p95_lo, _ci_p95_hi
  double b, b_0001, b_0020, b_bagging, b_stddev, b_lo, b_hi;
};

const GoldenFrame kFrames[] = {
    {"P1a frame 0",
     0.9415267192408899,
     0,
     {0.3577735722064972, 0.7481057643890381, 0.8591462969779968, 0.916515052318573},
     0.9336743251052304,
     {0.35741281509399414, 0.7445761561393738, 0.854028046131134, 0.9110302925109863},
     0.9415360487078631,
     0,
     {0.3577676320046692, 0.7480569637683395, 0.8591108627242425, 0.9165238066500153},
     73.72788413837361,
     71.55935166811706,
     83.68421414932035,
     73.72941712567864,
     73.04402654215727,
     74.24488352346381,
     70.02452264533524,
     72.12769398530494,
     1.8961150661045507,
     69.13437170702659,
     75.45280426835981},
    {"P1a frame 17",
     0.9421915413828844,
     19.024113407841437,
     {0.3635006248950958, 0.7741902470588684, 0.8805699348449707, 0.9342912435531616},
     0.9363523757246754,
     {0.36341068148612976, 0.7706839442253113, 0.874835193157196, 0.9279806613922119},
     0.9421943947753385,
     19.024110794067383,
     {0.3634861064047846, 0.7741942539700102, 0.8805915112639601, 0.9342549474000462},
     94.70439679122583,
     92.83933745006573,
     100,
     94.70308649906536,
     92.12047927868322,
     93.05956057568929,
     96.87734221850829,
     92.79858828398581,
     1.9718559396655984,
     90.18112264187968,
     97.15552974911694},
    {"P4 frame 5",
     0.9807365778542368,
     2.968116815355089,
     {0.7337089776992798, 0.961428701877594, 0.9788113236427307, 0.9841839671134949},
     0.9768179479825498,
     {0.7334251999855042, 0.9585049152374268, 0.9753957390785217, 0.9805485606193542},
     0.9807349616889074,
     2.968118667602539,
     {0.7341264349444727, 0.9615537443610381, 0.9789860919745347, 0.9843820575214302},
     94.73839807134348,
     93.4360846576967,
     96.72321474539125,
     94.76197932533053,
     94.15237828461169,
     93.03434654842263,
     93.49730551212767,
     93.49266096257372,
     3.0762141670403276,
     86.13955550270344,
     98.18893385906392},
    {"P9 frame 3",
     0.7307164878914721,
     0.9009175926747949,
     {0.2620290219783783, 0.46680790185928345, 0.5565651655197144, 0.633804976940155},
     0.7205608398376159,
     {0.25298961997032166, 0.4560159742832184, 0.5470247864723206, 0.6267299652099609},
     0.7307167339458541,
     0.9008573889732361,
     {0.26228525999696184, 0.46639475675234654, 0.5561682877060535, 0.6340543052878015},
     16.900033358870452,
     15.306268039258477,
     40.34614255057354,
     16.915489381692513,
     17.63855201900965,
     23.172932624000858,
     18.170241943685998,
     17.601982582787095,
     2.3548677041765407,
     13.738253452760521,
     21.891068809762665},
};

constexpr double kTol = 1e-9;

// The v0.6.x models list their features as adm2, motion2, vif_scale0..3.
std::vector<double> inputs(double adm2, double motion2, const double (&vif)[4]) {
  return {adm2, motion2, vif[0], vif[1], vif[2], vif[3]};
}

TEST(ModelBuiltin, EveryBuiltinLoads) {
  const std::vector<std::string> versions = Model::builtin_versions();
  const std::vector<std::string> expected = {"vmaf_4k_v0.6.1",        "vmaf_b_v0.6.3",
                                             "vmaf_float_v0.6.1",     "vmaf_v0.6.1",
                                             "vmaf_v0.6.1neg",        "vmaf_v1.0.16_1d5h_2160",
                                             "vmaf_v1.0.16_3d0h",     "vmaf_v1.0.16_3d0h_2160",
                                             "vmaf_v1.0.16_5d0h",     "vmaf_v1.0.16_hfr_1d5h_2160",
                                             "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160",
                                             "vmaf_v1.0.16_hfr_5d0h"};
  EXPECT_EQ(versions, expected);
  for (const std::string& v : versions) {
    Expected<Model> m = Model::builtin(v);
    ASSERT_TRUE(m.ok()) << v << ": " << m.status().message();
    EXPECT_EQ(m->name(), "vmaf");  // libvmaf's default name
    EXPECT_FALSE(m->features().empty());
  }
}

TEST(ModelBuiltin, UnknownVersion) {
  Expected<Model> m = Model::builtin("vmaf_v9");
  expect_error(m, {"vmaf_v9", "vmaf_v0.6.1"});
  EXPECT_EQ(m.status().code(), Errc::kInvalidArgument);
}

TEST(ModelFeatures, IntegerModel) {
  const Model m = load_builtin("vmaf_v0.6.1", "vmaf");
  ASSERT_EQ(m.features().size(), 6u);
  const char* names[] = {
      "VMAF_integer_feature_adm2_score",       "VMAF_integer_feature_motion2_score",
      "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
      "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score"};
  const char* extractors[] = {"adm", "motion", "vif", "vif", "vif", "vif"};
  const char* bases[] = {"integer_adm2",       "integer_motion2",    "integer_vif_scale0",
                         "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(m.features()[i].model_name, names[i]);
    EXPECT_EQ(m.features()[i].extractor, extractors[i]);
    // VQX computes the integer features: the registry gives the family.
    ASSERT_NE(m.features()[i].family, nullptr) << names[i];
    EXPECT_STREQ(m.features()[i].family->name, extractors[i]);
    EXPECT_EQ(m.features()[i].base, bases[i]);
    EXPECT_TRUE(m.features()[i].options.empty());
  }
  ASSERT_EQ(m.output_names().size(), 1u);
  EXPECT_EQ(m.output_names()[0], "vmaf");
  EXPECT_FALSE(m.is_bootstrap());
}

TEST(ModelFeatures, NegModelOptions) {
  const Model m = load_builtin("vmaf_v0.6.1neg", "vmaf_neg");
  ASSERT_EQ(m.features().size(), 6u);
  EXPECT_EQ(m.features()[0].options, (OptionMap{{"adm_enhn_gain_limit", "1"}}));  // 1.0 in the JSON
  EXPECT_TRUE(m.features()[1].options.empty());
  for (std::size_t i = 2; i < 6; ++i) {
    EXPECT_EQ(m.features()[i].options, (OptionMap{{"vif_enhn_gain_limit", "1"}}));
  }
}

TEST(ModelFeatures, FloatModel) {
  const Model m = load_builtin("vmaf_float_v0.6.1", "vmaf_float");
  ASSERT_EQ(m.features().size(), 6u);
  EXPECT_EQ(m.features()[0].model_name, "VMAF_feature_adm2_score");
  EXPECT_EQ(m.features()[0].extractor, "float_adm");
  EXPECT_EQ(m.features()[0].base, "adm2");
  EXPECT_EQ(m.features()[1].extractor, "float_motion");
  EXPECT_EQ(m.features()[1].base, "motion2");
  EXPECT_EQ(m.features()[2].extractor, "float_vif");
  EXPECT_EQ(m.features()[2].base, "vif_scale0");
  // Loads whether or not VQX has the float extractors yet.
  for (const ModelFeature& f : m.features()) {
    if (f.family != nullptr) {
      EXPECT_EQ(f.family->name, f.extractor);
    }
  }
}

TEST(ModelFeatures, V1016Options) {
  const Model m = load_builtin("vmaf_v1.0.16_hfr_3d0h_2160", "x");
  ASSERT_EQ(m.features().size(), 4u);
  EXPECT_EQ(m.features()[0].extractor, "cambi");
  EXPECT_EQ(m.features()[0].base, "cambi");
  EXPECT_EQ(m.features()[0].options, (OptionMap{{"cambi_high_res_speedup", "1080"},
                                                {"cambi_max_val", "17"},
                                                {"cambi_vis_lum_threshold", "0.06"}}));
  EXPECT_EQ(m.features()[1].extractor, "speed_chroma");
  EXPECT_EQ(m.features()[1].base, "speed_chroma_uv");
  EXPECT_EQ(m.features()[1].options.at("speed_prescale_method"), "bilinear");
  EXPECT_EQ(m.features()[1].options.at("speed_prescale"), "0.5");
  EXPECT_EQ(m.features()[2].base, "integer_adm3");
  EXPECT_EQ(m.features()[2].options.at("adm_ref_display_height"), "2160");
  EXPECT_EQ(m.features()[2].options.at("adm_norm_view_dist"), "3");
  EXPECT_EQ(m.features()[3].base, "integer_motion3");
  EXPECT_EQ(m.features()[3].options, (OptionMap{{"motion_five_frame_window", "true"},
                                                {"motion_max_val", "18"},
                                                {"motion_moving_average", "true"}}));
}

TEST(ModelPredict, GoldenFramesV061) {
  const Model vmaf = load_builtin("vmaf_v0.6.1", "vmaf_v0.6.1");
  const Model neg = load_builtin("vmaf_v0.6.1neg", "vmaf_v0.6.1neg");
  const Model k4 = load_builtin("vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1");
  const Model flt = load_builtin("vmaf_float_v0.6.1", "vmaf_float_v0.6.1");
  for (const GoldenFrame& g : kFrames) {
    SCOPED_TRACE(g.where);
    EXPECT_NEAR(predict(vmaf, inputs(g.adm2, g.motion2, g.vif))[0], g.vmaf, kTol);
    EXPECT_NEAR(predict(neg, inputs(g.adm2_egl1, g.motion2, g.vif_egl1))[0], g.vmaf_neg, kTol);
    EXPECT_NEAR(predict(k4, inputs(g.adm2, g.motion2, g.vif))[0], g.vmaf_4k, kTol);
    EXPECT_NEAR(predict(flt, inputs(g.f_adm2, g.f_motion2, g.f_vif))[0], g.vmaf_float, kTol);
  }
}

TEST(ModelPredict, GoldenFramesBootstrap) {
  const Model b = load_builtin("vmaf_b_v0.6.3", "vmaf_b_v0.6.3");
  EXPECT_TRUE(b.is_bootstrap());
  ASSERT_EQ(b.features().size(), 6u);  // the 21 models share their features
  const auto names = b.output_names();
  ASSERT_EQ(names.size(), 1u + 20u + 4u);
  EXPECT_EQ(names[0], "vmaf_b_v0.6.3");
  EXPECT_EQ(names[1], "vmaf_b_v0.6.3_0001");
  EXPECT_EQ(names[20], "vmaf_b_v0.6.3_0020");
  EXPECT_EQ(names[21], "vmaf_b_v0.6.3_bagging");
  EXPECT_EQ(names[22], "vmaf_b_v0.6.3_stddev");
  EXPECT_EQ(names[23], "vmaf_b_v0.6.3_ci_p95_lo");
  EXPECT_EQ(names[24], "vmaf_b_v0.6.3_ci_p95_hi");
  for (const GoldenFrame& g : kFrames) {
    SCOPED_TRACE(g.where);
    const std::vector<double> out = predict(b, inputs(g.adm2, g.motion2, g.vif));
    EXPECT_NEAR(out[0], g.b, kTol);
    EXPECT_NEAR(out[1], g.b_0001, kTol);
    EXPECT_NEAR(out[20], g.b_0020, kTol);
    EXPECT_NEAR(out[21], g.b_bagging, kTol);
    EXPECT_NEAR(out[22], g.b_stddev, kTol);
    EXPECT_NEAR(out[23], g.b_lo, kTol);
    EXPECT_NEAR(out[24], g.b_hi, kTol);
  }
}

TEST(ModelPredict, DisableClip) {
  // P1a frame 17: vmaf_4k_v0.6.1 clips at 100.
  const GoldenFrame& g = kFrames[1];
  ModelConfig cfg;
  cfg.disable_clip = true;
  Expected<Model> m = Model::builtin("vmaf_4k_v0.6.1", cfg);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_GT(predict(*m, inputs(g.adm2, g.motion2, g.vif))[0], 100.0);
}

TEST(ModelPredict, EnableTransform) {
  // vmaf_v0.6.1's score_transform has no "enabled": off unless asked for.
  // On, it maps y to max(y, 1.70674692 + 1.72643844 y - 0.00705305 y^2).
  const GoldenFrame& g = kFrames[0];
  ModelConfig cfg;
  cfg.enable_transform = true;
  cfg.disable_clip = true;
  Expected<Model> m = Model::builtin("vmaf_v0.6.1", cfg);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const double y = g.vmaf;  // unclipped and untransformed (within 0..100)
  const double want = std::max(y, 1.70674692 + 1.72643844 * y + -0.00705305 * y * y);
  EXPECT_NEAR(predict(*m, inputs(g.adm2, g.motion2, g.vif))[0], want, 1e-9);
}

TEST(ModelPredict, V1016) {
  // shared/corpus/golden/P1a.models_v1.0.16.json, frame 1. Those goldens are
  // printed with 6 decimals, so inputs are rounded; over the whole corpus
  // the scores then differ by up to 2.2e-4, all explained by the input
  // rounding. speed_chroma_uv is 0 for the prescaled variants: their models
  // correct it from adm3 (chroma_correction_parameter).
  struct Case {
    const char* version;
    double cambi, speed_chroma_uv, adm3, motion3, score;
  };
  const Case cases[] = {
      {"vmaf_v1.0.16_3d0h", 0.627551, 4.765571, 0.954507, 18.0, 94.724719},
      {"vmaf_v1.0.16_3d0h_2160", 0.627551, 0.0, 0.964488, 18.0, 104.24359},
      {"vmaf_v1.0.16_5d0h", 0.627551, 0.0, 0.961794, 18.0, 96.81347},
      {"vmaf_v1.0.16_1d5h_2160", 0.627551, 4.765571, 0.954507, 18.0, 95.757908},
      {"vmaf_v1.0.16_hfr_3d0h", 0.627551, 4.765571, 0.954507, 18.0, 94.724719},
      {"vmaf_v1.0.16_hfr_3d0h_2160", 0.627551, 0.0, 0.964488, 18.0, 104.24359},
      {"vmaf_v1.0.16_hfr_5d0h", 0.627551, 0.0, 0.961794, 18.0, 96.81347},
      {"vmaf_v1.0.16_hfr_1d5h_2160", 0.627551, 4.765571, 0.954507, 18.0, 95.757908},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.version);
    const Model m = load_builtin(c.version, c.version);
    ASSERT_EQ(m.features().size(), 4u);
    EXPECT_EQ(m.features()[0].model_name, "Cambi_feature_cambi_score");
    EXPECT_EQ(m.features()[1].model_name, "Speed_chroma_feature_speed_chroma_uv_score");
    EXPECT_EQ(m.features()[2].model_name, "VMAF_integer_feature_adm3_score");
    EXPECT_EQ(m.features()[3].model_name, "VMAF_integer_feature_motion3_score");
    EXPECT_NEAR(predict(m, {c.cambi, c.speed_chroma_uv, c.adm3, c.motion3})[0], c.score, 1e-3);
  }
}

TEST(ModelPredict, SizeMismatchIsAnError) {
  const Model m = load_builtin("vmaf_v0.6.1", "vmaf");
  std::vector<double> out(1);
  EXPECT_FALSE(m.predict(std::vector<double>(5, 0.5), out).ok());
  std::vector<double> out2(2);
  EXPECT_FALSE(m.predict(std::vector<double>(6, 0.5), out2).ok());
}

// ---------------------------------------------------------------------------
// A hand-made model whose scores can be checked by hand:
//   svm(x) = 2 exp(-(x - 0.5)^2) - rho, rho = -100, norm_type none.

Json tiny_model() {
  return Json::parse(R"({
    "model_dict": {
      "model_type": "LIBSVMNUSVR",
      "norm_type": "none",
      "feature_names": ["VMAF_integer_feature_adm2_score"],
      "score_clip": [0.0, 100.0],
      "model": "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho -100\nSV\n2 1:0.5 \n"
    }
  })");
}

Expected<Model> from(const Json& j, const ModelConfig& cfg = {}) {
  return Model::from_json(j.dump(), "test.json", cfg);
}

TEST(ModelTiny, ClipAndNoClip) {
  Expected<Model> m = from(tiny_model());
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(predict(*m, {0.5})[0], 100.0);  // 102 clipped
  ModelConfig cfg;
  cfg.disable_clip = true;
  Expected<Model> nc = from(tiny_model(), cfg);
  ASSERT_TRUE(nc.ok());
  EXPECT_EQ(predict(*nc, {0.5})[0], 102.0);
  EXPECT_NEAR(predict(*nc, {1.5})[0], 100.0 + 2 * std::exp(-1.0), 1e-12);
}

TEST(ModelTiny, LinearRescale) {
  Json j = tiny_model();
  j["model_dict"]["norm_type"] = "linear_rescale";
  j["model_dict"]["slopes"] = Json::array({0.5, 2.0});  // model, feature
  j["model_dict"]["intercepts"] = Json::array({-1.0, -0.5});
  ModelConfig cfg;
  cfg.disable_clip = true;
  Expected<Model> m = from(j, cfg);
  ASSERT_TRUE(m.ok()) << m.status().message();
  // x = 0.5 -> normalised 2*0.5-0.5 = 0.5 -> svm 102 -> (102 - (-1)) / 0.5 = 206
  EXPECT_EQ(predict(*m, {0.5})[0], 206.0);
}

TEST(ModelTiny, TransformPolynomialKnotsRectify) {
  Json j = tiny_model();
  j["model_dict"]["score_transform"] =
      Json::parse(R"({"enabled": true, "p0": 1.0, "p1": 0.5, "p2": null})");
  ModelConfig cfg;
  cfg.disable_clip = true;
  Expected<Model> m = from(j, cfg);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(predict(*m, {0.5})[0], 1.0 + 0.5 * 102.0);  // 52

  j["model_dict"]["score_transform"]["out_gte_in"] = "true";
  m = from(j, cfg);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(predict(*m, {0.5})[0], 102.0);  // 52 < 102 -> 102

  // Knots: (0,0) (100,50) (200,50): 52 -> 26 after the polynomial.
  j["model_dict"]["score_transform"].erase("out_gte_in");
  j["model_dict"]["score_transform"]["knots"] = Json::parse("[[0, 0], [100, 50], [200, 50]]");
  m = from(j, cfg);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(predict(*m, {0.5})[0], 26.0);

  // "enabled": false leaves the score alone unless enable_transform is set.
  j["model_dict"]["score_transform"]["enabled"] = false;
  m = from(j, cfg);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(predict(*m, {0.5})[0], 102.0);
  cfg.enable_transform = true;
  m = from(j, cfg);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(predict(*m, {0.5})[0], 26.0);
}

TEST(ModelTiny, SparseSupportVector) {
  // Two features; the SV leaves index 1 out (libsvm: treated as 0).
  Json j = tiny_model();
  j["model_dict"]["feature_names"] =
      Json::array({"VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"});
  j["model_dict"]["model"] =
      "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 2:1 \n";
  Expected<Model> m = from(j);
  ASSERT_TRUE(m.ok()) << m.status().message();
  // |(0.5, 2) - (0, 1)|^2 = 1.25
  EXPECT_NEAR(predict(*m, {0.5, 2.0})[0], std::exp(-0.5 * 1.25), 1e-15);
}

// ---------------------------------------------------------------------------
// Malformed input: one-line errors naming the file and the problem.

TEST(ModelErrors, TruncatedAndNotJson) {
  const std::string text = builtin_text("vmaf_v0.6.1");
  expect_error(Model::from_json(text.substr(0, text.size() / 2), "half.json"),
               {"half.json", "invalid JSON"});
  expect_error(Model::from_json("", "empty.json"), {"empty.json", "invalid JSON"});
  expect_error(Model::from_json("[1, 2]", "array.json"), {"array.json", "top level"});
  expect_error(Model::from_json("{\"a\": 1}", "obj.json"), {"obj.json", "not a VMAF model"});
  expect_error(Model::from_json("{\"model_dict\": {}, \"model_dict\": {}}", "dup.json"),
               {"dup.json", "duplicate key"});
  expect_error(Model::from_json("{\"model_dict\": {\"x\": 1e999}}", "big.json"),
               {"big.json", "invalid JSON"});
}

TEST(ModelErrors, TruncatedSvmText) {
  Json j = Json::parse(builtin_text("vmaf_v0.6.1"));
  std::string svm = j["model_dict"]["model"];
  j["model_dict"]["model"] = svm.substr(0, svm.size() / 2);  // cut mid-line
  expect_error(from(j), {"test.json", "model_dict.model"});
  j["model_dict"]["model"] = svm.substr(0, svm.find("SV\n"));
  expect_error(from(j), {"test.json", "no 'SV' line"});
  // whole lines missing
  const std::size_t last_line = svm.rfind('\n', svm.size() - 2);
  j["model_dict"]["model"] = svm.substr(0, last_line + 1);
  expect_error(from(j), {"test.json", "210 of total_sv 211"});
}

TEST(ModelErrors, WrongTypesAndMissingKeys) {
  const Json base = Json::parse(builtin_text("vmaf_v0.6.1"));
  struct Case {
    const char* key;
    Json value;  // null: remove the key
    const char* expect;
  };
  const Case cases[] = {
      {"feature_names", 5, "expected an array of strings"},
      {"feature_names", Json::array({"VMAF_integer_feature_adm2_score", 3}), "feature_names[1]"},
      {"feature_names", Json::array({"VMAF_integer_feature_adm2_score"}), "1 features"},
      {"feature_names", Json(), "feature_names: missing"},
      {"slopes", Json::array({1, 2, 3}), "3 values for 6 features"},
      {"slopes", "x", "expected an array of numbers"},
      {"intercepts", Json::array({1, 2, 3, 4, 5, 6, "7"}), "intercepts[6]"},
      {"intercepts", Json(), "intercepts: missing"},
      {"model_type", "LIBSVMEPSSVR", "unknown model type"},
      {"model_type", 1, "expected a string"},
      {"norm_type", "clip_0to1", "unknown norm_type"},
      {"model", Json(), "model: missing"},
      {"model", 12, "expected a string"},
      {"score_clip", Json::array({0}), "expected [min, max]"},
      {"score_clip", Json::array({100, 0}), "min > max"},
      {"score_transform", Json::parse(R"({"enabled": "yes"})"), "expected true or false"},
      {"score_transform", Json::parse(R"({"p1": "1"})"), "expected a number"},
      {"score_transform", Json::parse(R"({"knots": [[0, 0], [0, 1]]})"), "increasing x"},
      {"score_transform", Json::parse(R"({"knots": [[0, 0, 1]]})"), "[x, y] pair"},
      {"feature_opts_dicts", Json::array({Json::object()}), "1 entries for 6 features"},
      {"feature_opts_dicts",
       Json::array({Json::object({{"a", Json::array()}}), Json::object(), Json::object(),
                    Json::object(), Json::object(), Json::object()}),
       "expected a number, boolean or string"},
      {"chroma_correction_parameter", 120.0, "exactly one \"adm3\" feature"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.key) + " = " + c.value.dump());
    Json j = base;
    if (c.value.is_null()) {
      j["model_dict"].erase(c.key);
    } else {
      j["model_dict"][c.key] = c.value;
    }
    expect_error(from(j), {"test.json", c.expect});
  }
  Json j = base;
  j["model_dict"]["feature_names"][1] = "VMAF_integer_feature_motion9_score";
  expect_error(from(j), {"test.json", "unknown feature \"VMAF_integer_feature_motion9_score\""});
  j = base;
  j["model_dict"] = 7;
  expect_error(from(j), {"test.json", "model_dict: expected an object"});
}

TEST(ModelErrors, BadSvmText) {
  const Json base = tiny_model();
  struct Case {
    const char* svm;
    const char* expect;
  };
  const Case cases[] = {
      {"svm_type c_svc\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
       "only nu_svr"},
      {"svm_type nu_svr\nkernel_type linear\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
       "only rbf"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma x\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
       "gamma 'x'"},
      {"svm_type nu_svr\nkernel_type rbf\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
       "missing gamma"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho nan\nSV\n1 1:1\n",
       "rho 'nan'"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nbogus 1\nSV\n1 "
       "1:1\n",
       "unknown header field 'bogus'"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 2:1\n",
       "index 2 exceeds the model's 1 features"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 0:1\n",
       "not strictly increasing"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:inf\n",
       "malformed entry '1:inf'"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\nNaN 1:1\n",
       "coefficient 'NaN'"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n1 "
       "1:2\n",
       "more support vectors"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 2\nrho 0\nSV\n1 1:1\n",
       "only 1 of total_sv 2"},
      {"svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 3\ntotal_sv 1\nrho 0\nSV\n1 1:1\n",
       "nr_class 3"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.svm);
    Json j = base;
    j["model_dict"]["model"] = c.svm;
    expect_error(from(j), {"test.json: model_dict.model: ", c.expect});
  }
}

TEST(ModelErrors, TotalSvOutOfRangeNamesTheLimit) {
  // Before: "total_sv '100000000' is not a positive integer", the limit unsaid.
  const Json base = tiny_model();
  struct Case {
    const char* total_sv;
    const char* expect;
  };
  const Case cases[] = {
      {"100000000", "total_sv '100000000' exceeds the limit of 10000000 support vectors"},
      {"99999999999999999999999", "exceeds the limit of 10000000 support vectors"},
      {"0", "total_sv '0' must be at least 1"},
      {"-3", "total_sv '-3' must be at least 1"},
      {"1.5", "total_sv '1.5' is not an integer"},
      {"x", "total_sv 'x' is not an integer"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.total_sv);
    Json j = base;
    j["model_dict"]["model"] =
        std::string("svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv ") +
        c.total_sv + "\nrho 0\nSV\n1 1:1\n";
    expect_error(from(j), {"test.json: model_dict.model: ", c.expect});
  }
}

TEST(ModelErrors, Collections) {
  const Json base = Json::parse(builtin_text("vmaf_b_v0.6.3"));
  Json j = base;
  j.erase("7");
  expect_error(from(j), {"test.json", "\"7\" is missing"});
  j = base;
  j["3"]["model_dict"]["slopes"] = Json::array({1.0});
  expect_error(from(j), {"test.json: model \"3\": model_dict.slopes"});
  j = base;
  j["5"]["model_dict"]["model_type"] = "RESIDUEBOOTSTRAP_LIBSVMNUSVR";
  expect_error(from(j), {"model \"5\"", "model_type differs"});
  Json one = Json::object();
  one["0"] = base["0"];
  expect_error(from(one), {"test.json", "\"0\" and \"1\""});
}

TEST(ModelErrors, Files) {
  expect_error(Model::from_file("/nonexistent/dir/m.json"),
               {"/nonexistent/dir/m.json", "cannot open"});
  const std::string path =
      (std::filesystem::temp_directory_path() / "vqx_model_test_bad.json").string();
  {
    std::ofstream out(path);
    out << "{\"model_dict\": {";
  }
  expect_error(Model::from_file(path), {path.c_str(), "invalid JSON"});
  std::filesystem::remove(path);
}

TEST(ModelErrors, FilesSayWhyTheyCannotBeRead) {
  // Before: a directory gave "read error", and a failed open no reason.
  const std::string dir = std::filesystem::temp_directory_path().string();
  expect_error(Model::from_file(dir), {dir.c_str(), ": is a directory, not a model file"});
  expect_error(Model::load(ModelSpec::parse("path=" + dir).value()), {"is a directory"});
  expect_error(Model::from_file("/nonexistent/dir/m.json"),
               {"/nonexistent/dir/m.json: cannot open model file: No such file or directory"});
}

// ---------------------------------------------------------------------------
// --model values

TEST(ModelSpecParse, Basic) {
  Expected<ModelSpec> s = ModelSpec::parse("version=vmaf_v0.6.1");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->version, "vmaf_v0.6.1");
  EXPECT_TRUE(s->path.empty());
  EXPECT_EQ(s->config.name, "vmaf");
  EXPECT_FALSE(s->config.disable_clip);
  EXPECT_FALSE(s->config.enable_transform);

  s = ModelSpec::parse("path=/a/b=c.json:name=x:disable_clip:enable_transform=true");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->path, "/a/b=c.json");
  EXPECT_EQ(s->config.name, "x");
  EXPECT_TRUE(s->config.disable_clip);
  EXPECT_TRUE(s->config.enable_transform);

  s = ModelSpec::parse("version=vmaf_v0.6.1:disable_clip=false");
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->config.disable_clip);
}

TEST(ModelSpecParse, Overloads) {
  Expected<ModelSpec> s = ModelSpec::parse(
      "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.0");
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_EQ(s->config.overloads.size(), 2u);
  EXPECT_EQ(s->config.overloads[0].family, "vif");
  EXPECT_EQ(s->config.overloads[0].option, "vif_enhn_gain_limit");
  EXPECT_EQ(s->config.overloads[0].value, "1");  // normalised as libvmaf does
  EXPECT_EQ(s->config.overloads[1].family, "adm");

  // Loading applies them: vmaf_v0.6.1 becomes vmaf_v0.6.1neg's configuration,
  // and with the egl_1 features it reproduces vmaf_v0.6.1neg's golden score.
  Expected<Model> m = Model::load(*s);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const Model neg = load_builtin("vmaf_v0.6.1neg", "vmaf");
  ASSERT_EQ(m->features().size(), neg.features().size());
  for (std::size_t i = 0; i < neg.features().size(); ++i) {
    EXPECT_EQ(m->features()[i].options, neg.features()[i].options) << i;
  }
  const GoldenFrame& g = kFrames[0];
  EXPECT_NEAR(predict(*m, inputs(g.adm2_egl1, g.motion2, g.vif_egl1))[0], g.vmaf_neg, kTol);
}

TEST(ModelSpecParse, OverloadAppliesToEveryBootstrapModel) {
  // parse_model_spec: parse and load in one step.
  Expected<Model> m =
      parse_model_spec("version=vmaf_b_v0.6.3:name=b:motion.motion_force_zero=true");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->features().size(), 6u);
  EXPECT_EQ(m->features()[1].options, (OptionMap{{"motion_force_zero", "true"}}));
  EXPECT_EQ(m->output_names()[1], "b_0001");
}

TEST(ModelSpecParse, OverloadOfAnAbsentExtractor) {
  expect_error(parse_model_spec("version=vmaf_v0.6.1:float_vif.vif_enhn_gain_limit=1"),
               {"float_vif.vif_enhn_gain_limit", "no feature from extractor"});
}

TEST(ModelSpecParse, Errors) {
  const char* bad[] = {
      "",                                   // empty
      "name=x",                             // no version or path
      "version=a:path=b",                   // both
      "version=",                           // empty value
      "version=a:version=b",                // twice
      "version=a::name=b",                  // empty item
      "version=a:",                         // trailing ':'
      "version=a:clip",                     // unknown bare word
      "version=a:disable_clip=yes",         // not a bool
      "version=a:vif.vif_enhn_gain_limit",  // overload without value
      "version=a:vif=1",                    // no option name
      "version=a:.x=1",                     // no extractor name
      "version=a:vif.a.b=1",                // two dots
      "version=a:=1",                       // no key
      "version=a:vif.x=1:vif.x=2",          // overload twice
  };
  for (const char* spec : bad) {
    Expected<ModelSpec> s = ModelSpec::parse(spec);
    EXPECT_FALSE(s.ok()) << "accepted: \"" << spec << "\"";
    if (!s.ok()) {
      EXPECT_EQ(s.status().code(), Errc::kInvalidArgument);
      EXPECT_NE(s.status().message().find("--model"), std::string::npos) << s.status().message();
    }
  }
  EXPECT_TRUE(ModelSpec::parse("version=nope").ok());
  expect_error(parse_model_spec("version=nope"), {"no built-in model \"nope\""});
  expect_error(parse_model_spec("version=vmaf_v0.6.1:clip"), {"--model", "unknown item \"clip\""});
}

// Issue 11, item 8: a model name is written as an XML attribute name, which
// cannot be escaped: a name no writer can carry is refused at load, naming it.
TEST(ModelSpecParse, ANameNoOutputCanCarryIsRefused) {
  for (const char* name : {"a b", "x\"y", "a<b", "1st", "-x", "a>b", "a&b", "t\tab", "a/b"}) {
    const auto m = parse_model_spec(std::string("version=vmaf_v0.6.1:name=") + name);
    ASSERT_FALSE(m.ok()) << name;
    EXPECT_EQ(m.status().code(), Errc::kInvalidArgument) << name;
    EXPECT_NE(m.status().message().find("cannot name an output"), std::string::npos)
        << m.status().message();
  }
  for (const char* name : {"vmaf", "k4", "_x", "vmaf_4k_v0.6.1", "my-model.2"}) {
    EXPECT_TRUE(parse_model_spec(std::string("version=vmaf_v0.6.1:name=") + name).ok()) << name;
  }
}

TEST(ModelSpecParse, NormalizeOptionValue) {
  EXPECT_EQ(normalize_option_value("1.0"), "1");
  EXPECT_EQ(normalize_option_value("0.06"), "0.06");
  EXPECT_EQ(normalize_option_value("1080"), "1080");
  EXPECT_EQ(normalize_option_value(" 2 "), "2");
  EXPECT_EQ(normalize_option_value("+2.50"), "2.5");
  EXPECT_EQ(normalize_option_value("1e-7"), "1e-07");
  EXPECT_EQ(normalize_option_value("0.1234567"), "0.123457");
  EXPECT_EQ(normalize_option_value("1234567"), "1.23457e+06");
  EXPECT_EQ(normalize_option_value("true"), "true");
  EXPECT_EQ(normalize_option_value("bilinear"), "bilinear");
  EXPECT_EQ(normalize_option_value("1.5x"), "1.5x");
  EXPECT_EQ(normalize_option_value(""), "");
}

}  // namespace
}  // namespace vqx

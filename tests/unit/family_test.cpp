// Families as data: every family's definition agrees with libvmaf's table of
// feature names (libvmaf_feature_names.cpp), and the one generic builder,
// ExtractorFamily::make_spec, lays out what the definitions say.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/family.hpp"
#include "libvmaf_feature_names.hpp"
#include "metrics/families.hpp"
#include "metrics/registry.hpp"
#include "model/model.hpp"
#include "test_util.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

using test::libvmaf_feature_names;
using test::LibvmafFeatureName;

// Every name a model may use for one of the family's outputs, with its base.
std::vector<FeatureAlias> names_models_use(const ExtractorFamily& f) {
  std::vector<FeatureAlias> names(f.provides.begin(), f.provides.end());
  for (const OutputDef& o : f.outputs) {
    if (o.provided) names.push_back({o.base, o.base});
  }
  return names;
}

const LibvmafFeatureName* libvmaf_row(std::string_view model_name) {
  for (const LibvmafFeatureName& n : libvmaf_feature_names()) {
    if (n.model_name == model_name) return &n;
  }
  return nullptr;
}

TEST(Families, EveryLibvmafFeatureNameResolvesToItsExtractorAndOutput) {
  ASSERT_EQ(libvmaf_feature_names().size(), 91U);
  for (const LibvmafFeatureName& n : libvmaf_feature_names()) {
    const ModelFeatureRef ref = find_model_feature(n.model_name);
    ASSERT_NE(ref.family, nullptr) << n.model_name << ": no family provides it";
    EXPECT_EQ(ref.family->name, n.extractor) << n.model_name;
    EXPECT_EQ(ref.base, n.base) << n.model_name;
  }
}

TEST(Families, EveryNameAFamilyProvidesIsLibvmafsOwn) {
  for (const ExtractorFamily* f : all_families()) {
    for (const FeatureAlias& a : names_models_use(*f)) {
      const LibvmafFeatureName* row = libvmaf_row(a.model_name);
      if (!f->from_libvmaf) {
        EXPECT_EQ(row, nullptr) << f->name << " (VQX's own) uses libvmaf's name " << a.model_name;
        continue;
      }
      ASSERT_NE(row, nullptr) << f->name << " provides " << a.model_name
                              << ", which libvmaf's extractors do not";
      EXPECT_EQ(row->extractor, f->name) << a.model_name;
      EXPECT_EQ(row->base, a.base) << a.model_name;
    }
  }
}

TEST(Families, WhatAFamilyProvidesIsOneOfItsOutputs) {
  std::set<std::string> names;
  for (const ExtractorFamily* f : all_families()) {
    EXPECT_TRUE(names.insert(f->name).second) << "two families are named " << f->name;
    EXPECT_NE(f->bind, nullptr) << f->name;
    ASSERT_FALSE(f->outputs.empty()) << f->name;
    for (const FeatureAlias& a : names_models_use(*f)) {
      // libvmaf's float_moment.c lists "float_moment" as its provided
      // feature but writes only float_moment_ref1st etc.: a model naming it
      // loads and fails when used, in libvmaf as in VQX.
      if (std::string_view(a.model_name) == "float_moment") continue;
      bool found = false;
      for (const OutputDef& o : f->outputs) found = found || std::string_view(o.base) == a.base;
      EXPECT_TRUE(found) << f->name << ": " << a.model_name << " names output " << a.base
                         << ", which the family does not have";
    }
    // Every option an output or the temporal rule depends on is declared.
    auto declared = [&](const char* option) {
      for (const OptionDef& d : f->options) {
        if (std::string_view(d.name) == option) return true;
      }
      return false;
    };
    for (const auto* defs : {&f->outputs, &f->aggregates}) {
      for (const OutputDef& o : *defs) {
        for (const char* w : o.when) {
          if (w != nullptr) {
            EXPECT_TRUE(declared(w)) << f->name << ": " << o.base << " when " << w;
          }
        }
      }
    }
    if (f->temporal.kind == TemporalRule::kWhenSet) {
      EXPECT_TRUE(declared(f->temporal.option)) << f->name;
    }
    // The defaults build.
    EXPECT_TRUE(f->make_spec({}).ok()) << f->name;
  }
  EXPECT_EQ(names.size(), 19U);
}

TEST(FamilyBuilder, OutputsFollowTheirOptionsAndSuffix) {
  // The debug outputs appear only with debug=true, after the scores, and
  // take the option suffix.
  const ExtractorSpec plain = testutil::spec_for(integer_vif_family(), {});
  ASSERT_EQ(plain.outputs.size(), 4U);
  const ExtractorSpec debug =
      testutil::spec_for(integer_vif_family(), {{"debug", "true"}, {"egl", "1.5"}});
  ASSERT_EQ(debug.outputs.size(), 15U);
  EXPECT_EQ(debug.outputs[0].name, "integer_vif_scale0_egl_1.5");
  EXPECT_EQ(debug.outputs[4].base, "integer_vif");
  EXPECT_EQ(debug.outputs[4].name, "integer_vif_egl_1.5");
  EXPECT_EQ(debug.family, "vif");
  EXPECT_EQ(debug.key.rfind("vif:", 0), 0U) << debug.key;
  EXPECT_NE(debug.key, plain.key);

  // An output under two options needs both.
  auto psnr_bases = [](const OptionMap& o) {
    std::vector<std::string> bases;
    for (const auto& out : testutil::spec_for(psnr_family(), o).outputs) bases.push_back(out.base);
    return bases;
  };
  EXPECT_EQ(psnr_bases({}), (std::vector<std::string>{"psnr_y", "psnr_cb", "psnr_cr"}));
  EXPECT_EQ(psnr_bases({{"enable_mse", "true"}, {"enable_chroma", "false"}}),
            (std::vector<std::string>{"psnr_y", "mse_y"}));
  const auto mse_only = testutil::spec_for(psnr_family(), {{"enable_mse", "true"}});
  ASSERT_EQ(mse_only.outputs.size(), 6U);
  EXPECT_EQ(mse_only.outputs[3].base, "mse_cb");

  // A bare output keeps its name whatever the options.
  const auto adm = testutil::spec_for(float_adm_family(), {{"debug", "true"}, {"egl", "1.2"}});
  EXPECT_EQ(adm.outputs[7].name, "adm");
  EXPECT_EQ(adm.outputs[8].name, "adm_num_egl_1.2");
}

TEST(FamilyBuilder, TemporalRules) {
  EXPECT_TRUE(testutil::spec_for(integer_motion_family(), {}).temporal);
  EXPECT_FALSE(testutil::spec_for(integer_vif_family(), {}).temporal);
  // psnr: temporal only for the aggregate, which it then declares.
  const auto psnr = testutil::spec_for(psnr_family(), {});
  EXPECT_FALSE(psnr.temporal);
  EXPECT_TRUE(psnr.aggregates.empty());
  const auto apsnr = testutil::spec_for(psnr_family(), {{"enable_apsnr", "true"}});
  EXPECT_TRUE(apsnr.temporal);
  ASSERT_EQ(apsnr.aggregates.size(), 3U);
  EXPECT_EQ(apsnr.aggregates[2].name, "apsnr_cr");
  // cambi: temporal when a heatmap path (a string) is set.
  EXPECT_FALSE(testutil::spec_for(cambi_family(), {}).temporal);
  EXPECT_TRUE(testutil::spec_for(cambi_family(), {{"heatmaps_path", "/tmp/x"}}).temporal);
}

TEST(FamilyBuilder, BadOptionsNameTheFamily) {
  const auto bad = integer_vif_family().make_spec({{"no_such_option", "1"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("vif"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("no_such_option"), std::string::npos);
  // The family's own refusals come after the option bounds.
  const auto ks = float_vif_family().make_spec({{"vif_kernelscale", "0.7"}});
  ASSERT_FALSE(ks.ok());
  EXPECT_NE(ks.status().message().find("vif_kernelscale"), std::string::npos);
}

// A model may name a debug output (libvmaf's extractors provide those names
// too); it then needs the option that writes it.
std::string debug_model(const char* opts) {
  return std::string(R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none",
      "feature_names": ["integer_vif_num"], "feature_opts_dicts": [)") +
         opts +
         R"(], "model": "svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 1\nrho -100\nSV\n2 1:0.5 \n"}})";
}

std::string write_model(const std::string& text, const char* name) {
  const auto path = std::filesystem::temp_directory_path() /
                    (std::string("vqx_family_test_") + name + "_" +
                     std::to_string(static_cast<long>(::getpid())) + ".json");
  std::ofstream(path) << text;
  return path.string();
}

TEST(FamilyModels, ADebugOutputNeedsTheModelToAskForIt) {
  const std::string without = write_model(debug_model("{}"), "without");
  const std::string with = write_model(debug_model(R"({"debug": true})"), "with");
  auto ctx = Context::create({}).value();
  const Status st = ctx->use_features_from_model("path=" + without);
  EXPECT_EQ(st.code(), Errc::kUnsupported);
  EXPECT_NE(st.message().find("integer_vif_num"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("vif"), std::string::npos) << st.message();

  auto ok = Context::create({}).value();
  EXPECT_TRUE(ok->use_features_from_model("path=" + with).ok());
  const auto names = ok->metric_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "integer_vif_num"), names.end());
  std::filesystem::remove(without);
  std::filesystem::remove(with);
}

}  // namespace
}  // namespace vqx

namespace vqx {
namespace {

// Every value of every metric a context computes for `request` on three
// frames whose luma comes from `luma_seed` and chroma from `chroma_seed`;
// an empty list when the context refuses the request.
std::vector<double> values_with_chroma(const std::string& request, unsigned chroma_seed) {
  auto ctx = Context::create({.backend = Backend::kCpu});
  if (!ctx.ok() || !(*ctx)->use_feature(request).ok()) return {};
  const PictureFormat fmt = testutil::format(256, 192, 8, ChromaFormat::k420);
  std::mt19937 luma(7);
  std::mt19937 chroma(chroma_seed);
  for (unsigned i = 0; i < 3; ++i) {
    Picture ref = testutil::textured_picture(fmt, luma, 0.02, 0.05 + 0.01 * i, 0.07);
    Picture dist = testutil::distorted(ref, luma, 0.03);
    for (Picture* pic : {&ref, &dist}) {
      for (unsigned p = 1; p < 3; ++p) {
        Plane& plane = pic->plane(p);
        for (unsigned y = 0; y < plane.height(); ++y) {
          for (unsigned x = 0; x < plane.width(); ++x)
            testutil::set_sample(plane, x, y, chroma() % 256);
        }
      }
    }
    EXPECT_TRUE((*ctx)->read_pictures(std::move(ref), std::move(dist), i).ok()) << request;
  }
  EXPECT_TRUE((*ctx)->flush().ok()) << request;
  std::vector<double> values;
  for (const std::string& name : (*ctx)->metric_names()) {
    for (unsigned i = 0; i < 3; ++i) values.push_back((*ctx)->score_at_index(name, i).value());
  }
  return values;
}

// A family that says it reads the luma alone (the context then lets its
// readers leave the chroma unread) computes the same bits whatever the
// chroma holds: with its defaults and with each bool option flipped.
TEST(Families, LumaOnlyFamiliesGiveTheSameValuesWhateverTheChroma) {
  unsigned checked = 0;
  for (const ExtractorFamily* f : all_families()) {
    if (!f->luma_only) continue;
    std::vector<std::string> requests = {f->name};
    for (const OptionDef& o : f->options) {
      if (const bool* b = std::get_if<bool>(&o.default_value)) {
        requests.push_back(std::string(f->name) + "=" + o.name + "=" + (*b ? "false" : "true"));
      }
    }
    for (const std::string& r : requests) {
      const std::vector<double> a = values_with_chroma(r, 1);
      if (a.empty()) continue;  // an option the family refuses alone
      EXPECT_EQ(a, values_with_chroma(r, 2)) << r << " reads the chroma";
      ++checked;
    }
  }
  EXPECT_GE(checked, 11U);
}

// The flag is the context's answer: VMAF's features read the luma alone,
// PSNR (with its chroma) does not.
TEST(Families, PlanesReadIsOneOnlyWhenEveryFeatureReadsTheLumaAlone) {
  auto ctx = Context::create({.backend = Backend::kCpu});
  ASSERT_TRUE(ctx.ok());
  ASSERT_TRUE((*ctx)->use_features_from_model("version=vmaf_v0.6.1").ok());
  EXPECT_EQ((*ctx)->planes_read(), 1U);
  ASSERT_TRUE((*ctx)->use_feature("psnr").ok());
  EXPECT_EQ((*ctx)->planes_read(), 3U);
}

}  // namespace
}  // namespace vqx

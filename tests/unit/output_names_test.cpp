// One producer per output name (issue 11, items 1 and 2): a model, a
// feature or a whole-video value that would write a name another producer
// writes is refused at registration, naming both, whatever the order in
// which they are registered. Before, the later writer silently replaced the
// earlier one's values and the run exited 0 with a wrong score. Two
// requests of one family that differ only in options that select outputs
// (debug=true) may share names: those options are held to leaving every
// common output's values unchanged.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "context_run.hpp"
#include "core/family.hpp"
#include "metrics/registry.hpp"
#include "vqx/video_reader.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

namespace fs = std::filesystem;
const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";

std::unique_ptr<Context> cpu_context() {
  auto ctx = Context::create({.backend = Backend::kCpu});
  EXPECT_TRUE(ctx.ok()) << ctx.status().message();
  return std::move(ctx).value();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Registers `first` then `second` (each "m SPEC" or "f SPEC") and returns
// the second's status; the first must succeed.
Status second_of(const std::string& first, const std::string& second) {
  auto ctx = cpu_context();
  auto use = [&](const std::string& item) {
    const std::string spec = item.substr(2);
    return item[0] == 'm' ? ctx->use_features_from_model(spec) : ctx->use_feature(spec);
  };
  const Status a = use(first);
  EXPECT_TRUE(a.ok()) << first << ": " << a.message();
  return use(second);
}

void expect_clash(const Status& s, const std::string& name, const std::string& one,
                  const std::string& other) {
  EXPECT_EQ(s.code(), Errc::kInvalidArgument) << s.message();
  EXPECT_TRUE(contains(s.message(), "'" + name + "'")) << s.message();
  EXPECT_TRUE(contains(s.message(), one)) << s.message();
  EXPECT_TRUE(contains(s.message(), other)) << s.message();
}

// Scores P9 (176x144, 4:2:0, 8 bit) with what `setup` registered.
void score_p9(Context& ctx) {
  auto r = open_video((kSubset / "P9_tiny_176x144_420p8.y4m").string(), std::nullopt);
  auto d = open_video((kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string(), std::nullopt);
  ASSERT_TRUE(r.ok() && d.ok());
  for (unsigned i = 0;; ++i) {
    auto rp = ctx.fetch_picture((*r)->format());
    auto dp = ctx.fetch_picture((*d)->format());
    ASSERT_TRUE(rp.ok() && dp.ok());
    auto a = (*r)->read(*rp);
    auto b = (*d)->read(*dp);
    ASSERT_TRUE(a.ok() && b.ok());
    if (!*a || !*b) break;
    const Status s = ctx.read_pictures(std::move(*rp), std::move(*dp), i);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  const Status f = ctx.flush();
  ASSERT_TRUE(f.ok()) << f.message();
}

TEST(OutputNames, AModelNamedAfterAFeatureItReadsIsRefused) {
  // The case: vmaf_v0.6.1 named integer_vif_scale0 wrote its score
  // over the feature, and vmaf_4k_v0.6.1, reading that feature, scored 100.
  auto ctx = cpu_context();
  const Status s = ctx->use_features_from_model("version=vmaf_v0.6.1:name=integer_vif_scale0");
  expect_clash(s, "integer_vif_scale0", "model 'integer_vif_scale0'", "feature vif");
  EXPECT_TRUE(contains(s.message(), "name=")) << s.message();
  // Nothing of the refused model is registered.
  EXPECT_TRUE(ctx->metric_names().empty());
  EXPECT_TRUE(ctx->model_names().empty());

  ASSERT_TRUE(ctx->use_features_from_model("version=vmaf_4k_v0.6.1:name=k4").ok());
  score_p9(*ctx);
  EXPECT_NEAR(ctx->pooled_score("k4", PoolMethod::kMean).value(), 39.602603, 5e-7);
}

TEST(OutputNames, AModelNamedAfterABootstrapOutputIsRefusedInEitherOrder) {
  expect_clash(second_of("m version=vmaf_b_v0.6.3:name=b", "m version=vmaf_v0.6.1:name=b_0001"),
               "b_0001", "model 'b'", "model 'b_0001'");
  expect_clash(second_of("m version=vmaf_v0.6.1:name=b_0001", "m version=vmaf_b_v0.6.3:name=b"),
               "b_0001", "model 'b'", "model 'b_0001'");
  expect_clash(
      second_of("m version=vmaf_b_v0.6.3:name=b", "m version=vmaf_v0.6.1:name=b_ci_p95_hi"),
      "b_ci_p95_hi", "model 'b'", "model 'b_ci_p95_hi'");
}

TEST(OutputNames, AModelNamedAfterAnotherModelsFeatureIsRefusedInEitherOrder) {
  expect_clash(second_of("m version=vmaf_float_v0.6.1", "m version=vmaf_v0.6.1:name=motion2"),
               "motion2", "feature float_motion (model 'vmaf')", "model 'motion2'");
  expect_clash(second_of("m version=vmaf_v0.6.1:name=motion2", "m version=vmaf_float_v0.6.1"),
               "motion2", "model 'motion2'", "feature float_motion (model 'vmaf')");
}

TEST(OutputNames, AFeatureRegisteredAfterAModelOfItsNameIsRefused) {
  expect_clash(second_of("m version=vmaf_v0.6.1:name=psnr_y", "f psnr"), "psnr_y", "model 'psnr_y'",
               "feature psnr");
  expect_clash(second_of("m version=vmaf_v0.6.1:name=float_ssim", "f float_ssim"), "float_ssim",
               "model 'float_ssim'", "feature float_ssim");
  // A whole-video value is a name too.
  expect_clash(second_of("m version=vmaf_v0.6.1:name=apsnr_cb", "f psnr=enable_apsnr=true"),
               "apsnr_cb", "model 'apsnr_cb'", "feature psnr=enable_apsnr=true");
  expect_clash(second_of("f psnr=enable_apsnr=true", "m version=vmaf_v0.6.1:name=apsnr_cb"),
               "apsnr_cb", "model 'apsnr_cb'", "feature psnr=enable_apsnr=true");
}

TEST(OutputNames, OneExtractorAskedForTwiceIsStillOneProducer) {
  // vmaf_v0.6.1 and vmaf_4k_v0.6.1 share their extractors; a --feature with
  // the model's own options is the model's extractor.
  EXPECT_TRUE(second_of("m version=vmaf_v0.6.1", "m version=vmaf_4k_v0.6.1:name=k4").ok());
  EXPECT_TRUE(second_of("m version=vmaf_v0.6.1", "f adm").ok());
  EXPECT_TRUE(second_of("f vif", "m version=vmaf_v0.6.1").ok());
  EXPECT_TRUE(second_of("f psnr", "f psnr=enable_chroma=true").ok());  // the default, spelt out
}

// ---------------------------------------------------------------------------
// The same family asked for twice (item 2)

TEST(OutputNames, TheSameFamilyWithOptionsThatChangeValuesButNotNamesIsRefused) {
  // The cases: the last one silently won.
  const Status peak = second_of("f psnr", "f psnr=reduced_hbd_peak=true");
  expect_clash(peak, "psnr_y", "feature psnr", "feature psnr=reduced_hbd_peak=true");
  EXPECT_TRUE(contains(peak.message(), "they differ in reduced_hbd_peak")) << peak.message();
  const Status db = second_of("f float_ssim", "f float_ssim=enable_db=true");
  expect_clash(db, "float_ssim", "feature float_ssim", "feature float_ssim=enable_db=true");
  EXPECT_TRUE(contains(db.message(), "enable_db")) << db.message();
  // In the other order, and beside options that only select outputs.
  expect_clash(second_of("f float_ssim=enable_db=true", "f float_ssim=enable_lcs=true"),
               "float_ssim", "feature float_ssim=enable_db=true",
               "feature float_ssim=enable_lcs=true");
  expect_clash(second_of("f psnr=enable_mse=true", "f psnr=min_sse=0.5:enable_mse=true"), "psnr_y",
               "feature psnr=enable_mse=true", "min_sse");
  // A bare output (float_adm's debug "adm" takes no option suffix) is
  // shared even by requests whose other names differ.
  expect_clash(
      second_of("f float_adm=debug=true", "f float_adm=debug=true:adm_enhn_gain_limit=1.2"), "adm",
      "feature float_adm=debug=true", "adm_enhn_gain_limit");
  // A model's feature against a --feature of the family with other values.
  expect_clash(second_of("m version=vmaf_v0.6.1", "f adm=adm_skip_aim=true"), "integer_adm2",
               "feature adm (model 'vmaf')", "feature adm=adm_skip_aim=true");
}

TEST(OutputNames, TheSameFamilyWithOptionsThatOnlySelectOutputsSharesItsNames) {
  EXPECT_TRUE(second_of("f adm", "f adm=debug=true").ok());
  EXPECT_TRUE(second_of("f psnr=enable_mse=true", "f psnr=enable_apsnr=true").ok());
  EXPECT_TRUE(second_of("f float_ssim", "f float_ssim=enable_lcs=true").ok());
  EXPECT_TRUE(second_of("m version=vmaf_v0.6.1", "f vif=debug=true").ok());
  EXPECT_TRUE(second_of("f motion=debug=true", "m version=vmaf_v0.6.1").ok());
}

// Scores P9 with `items` and returns every per-frame value.
std::map<std::string, std::vector<double>> p9_values(const std::vector<std::string>& items) {
  auto ctx = cpu_context();
  for (const std::string& item : items) {
    const Status s = testutil::register_item(*ctx, item);
    EXPECT_TRUE(s.ok()) << item << ": " << s.message();
  }
  score_p9(*ctx);
  std::map<std::string, std::vector<double>> out;
  for (const std::string& name : ctx->metric_names()) {
    for (unsigned i = 0; i < ctx->frame_count(); ++i) {
      out[name].push_back(ctx->score_at_index(name, i).value());
    }
  }
  return out;
}

TEST(OutputNames, AModelBesideItsFeaturesDebugOutputsScoresAsAlone) {
  const auto alone = p9_values({"m version=vmaf_v0.6.1"});
  for (const auto& items :
       {std::vector<std::string>{"m version=vmaf_v0.6.1", "f adm=debug=true"},
        std::vector<std::string>{"f adm=debug=true", "m version=vmaf_v0.6.1"}}) {
    const auto both = p9_values(items);
    for (const auto& [name, values] : alone) EXPECT_EQ(both.at(name), values) << name;
    ASSERT_EQ(both.count("integer_adm"), 1U);  // a debug output
    EXPECT_EQ(both.at("integer_adm").size(), alone.at("vmaf").size());
  }
}

// The value to give an option that selects outputs, other than its default.
std::string other_value(const OptionDef& d, const std::string& dir) {
  if (const bool* b = std::get_if<bool>(&d.default_value)) return *b ? "false" : "true";
  return dir;  // cambi's heatmaps_path: a folder for the side files
}

TEST(OutputNames, OptionsThatSelectOutputsLeaveEveryCommonValueUnchanged) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("vqx_output_names_" + std::to_string(static_cast<long>(::getpid())));
  const PictureFormat fmt{224, 224, 10, ChromaFormat::k420};
  const testutil::FrameSource frames = testutil::noisy_frames(fmt, 11);
  unsigned checked = 0;
  for (const ExtractorFamily* f : all_families()) {
    const auto plain = testutil::run_context({"f " + std::string(f->name)}, frames, 3);
    ASSERT_TRUE(plain.ok()) << f->name << ": " << plain.status().message();
    std::string all;  // every such option at once
    for (const OptionDef& d : f->options) {
      if (!d.selects_outputs) continue;
      const std::string option = std::string(d.name) + "=" + other_value(d, dir.string());
      all += (all.empty() ? "" : ":") + option;
      for (const std::string& spec : {option, all}) {
        const auto other =
            testutil::run_context({"f " + std::string(f->name) + "=" + spec}, frames, 3);
        ASSERT_TRUE(other.ok()) << f->name << "=" << spec << ": " << other.status().message();
        unsigned common = 0;
        for (const auto& [name, values] : plain->frames) {
          if (other->frames.count(name) == 0) continue;
          ++common;
          EXPECT_EQ(other->frames.at(name), values) << f->name << "=" << spec << ": " << name;
        }
        for (const auto& [name, value] : plain->aggregates) {
          if (other->aggregates.count(name) == 0) continue;
          EXPECT_EQ(other->aggregates.at(name), value) << f->name << "=" << spec << ": " << name;
        }
        EXPECT_GT(common, 0U) << f->name << "=" << spec;
        ++checked;
      }
    }
  }
  std::filesystem::remove_all(dir);
  EXPECT_GE(checked, 24U);
}

TEST(OutputNames, NoTwoFamiliesWriteOneName) {
  // Different families compute different things: a name two of them write
  // would be a clash for every user asking for both.
  std::map<std::string, std::string> writer;
  for (const ExtractorFamily* f : all_families()) {
    OptionMap every;  // every output, as far as options that select them go
    for (const OptionDef& d : f->options) {
      if (d.selects_outputs && std::holds_alternative<bool>(d.default_value)) {
        every[d.name] = "true";
      }
    }
    const auto spec = f->make_spec(every);
    ASSERT_TRUE(spec.ok()) << f->name << ": " << spec.status().message();
    std::set<std::string> own;
    for (const auto& o : spec->outputs) own.insert(o.name);
    for (const auto& o : spec->aggregates) own.insert(o.name);
    for (const std::string& name : own) {
      auto [it, added] = writer.try_emplace(name, f->name);
      EXPECT_TRUE(added) << name << ": " << it->second << " and " << f->name;
    }
  }
}

TEST(OutputNames, ImportedScoresHaveOneProducerToo) {
  // Values the caller imports (libvmaf's vmaf_import_feature_score) under a
  // name a feature or model writes would be overwritten, or overwrite: the
  // import and the registration are refused in either order.
  auto ctx = cpu_context();
  ASSERT_TRUE(ctx->use_feature("psnr").ok());
  const Status taken = ctx->import_feature_score("psnr_y", 30.0, 0);
  EXPECT_EQ(taken.code(), Errc::kInvalidArgument);
  EXPECT_TRUE(contains(taken.message(), "'psnr_y'")) << taken.message();
  EXPECT_TRUE(contains(taken.message(), "feature psnr")) << taken.message();

  ASSERT_TRUE(ctx->import_feature_score("float_ssim", 0.5, 0).ok());
  expect_clash(ctx->use_feature("float_ssim"), "float_ssim", "imported scores", "float_ssim");
  ASSERT_TRUE(ctx->import_feature_score("vmaf", 80.0, 0).ok());
  expect_clash(ctx->use_features_from_model("version=vmaf_v0.6.1"), "vmaf", "imported scores",
               "model 'vmaf'");
  ASSERT_TRUE(ctx->metric_backend("float_ssim").ok());
  EXPECT_EQ(ctx->metric_backend("float_ssim").value(), "imported");
  EXPECT_EQ(ctx->metric_backend("psnr_y").value(), "cpu");
}

}  // namespace
}  // namespace vqx

// One producer per output name (issue 11, items 1 and 2): a model, a
// feature or a whole-video value that would write a name another producer
// writes is refused at registration, naming both, whatever the order in
// which they are registered. Before, the later writer silently replaced the
// earlier one's values and the run exited 0 with a wrong score.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace vqx

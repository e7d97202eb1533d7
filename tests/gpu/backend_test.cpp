// The backend choice, on any machine: a GPU backend that is not there is a
// clear error (never a silent CPU run), auto takes the GPU when one is
// present, and the output records what computed each feature. Runs in CI
// (no device): the expectations follow what this build and machine have.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpu/pipeline.hpp"
#include "gpu_test_util.hpp"

namespace vqx::gputest {
namespace {

std::string backend_name(Backend b) { return b == Backend::kCuda ? "cuda" : "hip"; }

TEST(Backend, CpuAlwaysWorks) {
  ContextSettings s;
  s.backend = Backend::kCpu;
  auto ctx = Context::create(s);
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ((*ctx)->device_description(), "cpu");
}

TEST(Backend, AMissingGpuBackendIsAnErrorNotACpuRun) {
  for (Backend b : {Backend::kCuda, Backend::kHip}) {
    ContextSettings s;
    s.backend = b;
    auto ctx = Context::create(s);
    const char* have = gpu::compiled_backend();
    const bool present = have != nullptr && backend_name(b) == have && gpu::available_devices() > 0;
    if (present) {
      EXPECT_TRUE(ctx.ok()) << ctx.status().message();
      continue;
    }
    ASSERT_FALSE(ctx.ok()) << backend_name(b);
    EXPECT_NE(ctx.status().message().find("backend " + backend_name(b)), std::string::npos)
        << ctx.status().message();
  }
}

TEST(Backend, ANonexistentDeviceIndexIsAnError) {
  if (!gpu_available()) GTEST_SKIP() << skip_reason();
  ContextSettings s;
  s.backend = gpu_backend();
  s.gpu = 999;
  auto ctx = Context::create(s);
  ASSERT_FALSE(ctx.ok());
  EXPECT_NE(ctx.status().message().find("999"), std::string::npos) << ctx.status().message();
}

// Issue 13: with the SpEED and CAMBI twins, every vmaf_v1.0.16 and _hfr
// model computes every one of its features on the GPU; only the model's
// own score (the SVM) is the CPU's.
TEST(Backend, EveryV1016ModelComputesEveryFeatureOnTheGpu) {
  VQX_REQUIRE_GPU();
  const Video v = make_video({1280, 720, 8, ChromaFormat::k420}, Content::kSmooth, 2, 7, 3);
  for (const char* model :
       {"vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_5d0h",
        "vmaf_v1.0.16_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160",
        "vmaf_v1.0.16_hfr_5d0h", "vmaf_v1.0.16_hfr_1d5h_2160"}) {
    ContextSettings s;
    s.backend = gpu_backend();
    auto ctx = Context::create(s);
    ASSERT_TRUE(ctx.ok()) << ctx.status().message();
    ASSERT_TRUE((*ctx)->use_features_from_model(std::string("version=") + model).ok()) << model;
    for (unsigned i = 0; i < v.size(); ++i) {
      ASSERT_TRUE((*ctx)->read_pictures(clone(v[i].ref), clone(v[i].dist), i).ok()) << model;
    }
    ASSERT_TRUE((*ctx)->flush().ok()) << model;
    const auto models = (*ctx)->model_names();
    unsigned features = 0;
    for (const std::string& name : (*ctx)->metric_names()) {
      const bool is_model = std::find(models.begin(), models.end(), name) != models.end();
      auto backend = (*ctx)->metric_backend(name);
      ASSERT_TRUE(backend.ok()) << model << " " << name;
      EXPECT_EQ(*backend, is_model ? "cpu" : gpu::compiled_backend()) << model << " " << name;
      features += is_model ? 0 : 1;
    }
    EXPECT_GE(features, 4U) << model;  // adm, motion, cambi, speed_chroma at least
  }
}

TEST(Backend, AutoTakesTheGpuWhenPresentAndTheOutputSaysSo) {
  ContextSettings s;  // kAuto
  auto ctx = Context::create(s);
  ASSERT_TRUE(ctx.ok()) << ctx.status().message();
  ASSERT_TRUE((*ctx)->use_features_from_model("version=vmaf_v0.6.1:name=vmaf").ok());
  const Video v = make_video({64, 48, 8, ChromaFormat::k420}, Content::kSmooth, 2, 5, 1);
  for (unsigned i = 0; i < v.size(); ++i) {
    ASSERT_TRUE((*ctx)->read_pictures(clone(v[i].ref), clone(v[i].dist), i).ok());
  }
  ASSERT_TRUE((*ctx)->flush().ok());
  const std::string expected = gpu_available() ? gpu::compiled_backend() : "cpu";
  EXPECT_EQ(*(*ctx)->metric_backend("integer_adm2"), expected);
  EXPECT_EQ(*(*ctx)->metric_backend("integer_vif_scale0"), expected);
  EXPECT_EQ(*(*ctx)->metric_backend("integer_motion2"), expected);
  EXPECT_EQ(*(*ctx)->metric_backend("vmaf"), "cpu");
  EXPECT_FALSE((*ctx)->metric_backend("no_such_metric").ok());

  const auto dir = std::filesystem::temp_directory_path();
  const std::string xml = (dir / "vqx_backend_test.xml").string();
  const std::string json = (dir / "vqx_backend_test.json").string();
  ASSERT_TRUE((*ctx)->write_output(xml, OutputFormat::kXml).ok());
  ASSERT_TRUE((*ctx)->write_output(json, OutputFormat::kJson).ok());
  std::stringstream x, j;
  x << std::ifstream(xml).rdbuf();
  j << std::ifstream(json).rdbuf();
  if (gpu_available()) {
    EXPECT_NE(x.str().find("<metric name=\"integer_adm2\" backend=\"" + expected + "\" />"),
              std::string::npos);
    EXPECT_NE(j.str().find("\"integer_adm2\": \"" + expected + "\""), std::string::npos);
  } else {  // a CPU run writes no backend record: the reference's schema
    EXPECT_EQ(x.str().find("<backend"), std::string::npos);
    EXPECT_FALSE(nlohmann::json::parse(j.str()).contains("backend"));
  }
  // VQX's own "settings" (after the reference's keys) say where it ran.
  EXPECT_EQ(nlohmann::json::parse(j.str())["settings"]["backend"], expected);
  std::filesystem::remove(xml);
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace vqx::gputest

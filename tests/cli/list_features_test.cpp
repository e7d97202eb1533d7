// vqx --list-features (issue 13): every feature of this build with its
// options (defaults, bounds), its outputs and the backends that compute it,
// as text and as JSON, equal to the library's vqx::list_features().
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gpu/pipeline.hpp"
#include "vqx/features.hpp"

#include "cli_run.hpp"

namespace {

namespace fs = std::filesystem;

using vqx::cli_test::CliRun;

CliRun vqx(const std::string& args) {
  const fs::path dir = fs::temp_directory_path() / ("vqx_list_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CliRun r = vqx::cli_test::run_vqx(args, dir);
  fs::remove_all(dir);
  return r;
}

// The backends a feature with a twin has in this build.
std::vector<std::string> twin_backends() {
  const char* gpu = vqx::gpu::compiled_backend();
  if (gpu == nullptr) return {"cpu"};
  return {"cpu", gpu};
}

const nlohmann::json& find(const nlohmann::json& list, const std::string& name) {
  for (const auto& x : list) {
    if (x.at("name") == name) return x;
  }
  ADD_FAILURE() << name << " not listed";
  static const nlohmann::json kNone = nlohmann::json::object();
  return kNone;
}

TEST(ListFeatures, TextNamesVifsOptionsWithDefaultsBoundsAndOutputs) {
  const CliRun r = vqx("--list-features");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* want : {
           "\nvif  [backends: cpu",
           "    vif_enhn_gain_limit (egl)  double, default 100, from 1 to 100, renames the "
           "outputs\n",
           "    vif_skip_scale0 (ssclz)  bool, default false, renames the outputs\n",
           "    integer_vif_scale0\n",
           "    integer_vif  (with debug)\n",
           "\nfloat_ssim  [backends: ",
           "    scale  int, default 0, from 0 to 10\n",
           "    float_ms_ssim_s_scale4  (with enable_lcs)\n",
           "\nmotion  [backends: ",
           "    apsnr_y  (whole video)  (with enable_apsnr)\n",
           "    mse_cb  (with enable_chroma and enable_mse)\n",
           "\nssimulacra2  [backends: cpu]  [not in libvmaf]\n",
       }) {
    EXPECT_NE(r.out.find(want), std::string::npos) << "missing: " << want << "\n" << r.out;
  }
  // Every feature of the library, in its order.
  std::size_t at = 0;
  for (const vqx::FeatureInfo& f : vqx::list_features()) {
    const std::size_t p = r.out.find("\n" + f.name + "  [backends: ", at);
    ASSERT_NE(p, std::string::npos) << f.name;
    at = p + 1;
  }
}

// Integer SSIM: no options, its one output, libvmaf's (its source's) name.
TEST(ListFeatures, IntegerSsimIsListed) {
  const CliRun r = vqx("--list-features");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t at = r.out.find("\nssim  [backends: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::size_t line_end = r.out.find('\n', at + 1);
  ASSERT_NE(line_end, std::string::npos);
  EXPECT_EQ(r.out.find("[not in libvmaf]", at), r.out.find("[not in libvmaf]", line_end));
  EXPECT_EQ(r.out.compare(line_end, 37, "\n  options: none\n  outputs:\n    ssim\n"), 0)
      << r.out.substr(at, 120);
}

TEST(ListFeatures, BackendsAreThoseOfThisBuild) {
  const CliRun r = vqx("--list-features");
  ASSERT_EQ(r.code, 0) << r.err;
  std::string both;
  for (const std::string& b : twin_backends()) both += (both.empty() ? "" : ", ") + b;
  // float_ssim and float_ms_ssim have twins; cambi, ciede and ssimulacra2 none.
  for (const char* twin : {"float_ssim", "float_ms_ssim", "vif", "adm", "psnr", "ssim"}) {
    EXPECT_NE(r.out.find("\n" + std::string(twin) + "  [backends: " + both + "]"),
              std::string::npos)
        << twin;
  }
  for (const char* cpu_only : {"cambi", "ciede", "float_vif"}) {
    EXPECT_NE(r.out.find("\n" + std::string(cpu_only) + "  [backends: cpu]"), std::string::npos)
        << cpu_only;
  }
}

TEST(ListFeatures, JsonCarriesTheSameAsTheLibrary) {
  const CliRun r = vqx("--list-features --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& list = j.at("features");
  const auto lib = vqx::list_features();
  ASSERT_EQ(list.size(), lib.size());
  for (std::size_t i = 0; i < lib.size(); ++i) {
    const nlohmann::json& f = list[i];
    EXPECT_EQ(f.at("name"), lib[i].name);
    EXPECT_EQ(f.at("backends").get<std::vector<std::string>>(), lib[i].backends) << lib[i].name;
    EXPECT_EQ(f.at("temporal"), lib[i].temporal) << lib[i].name;
    ASSERT_EQ(f.at("options").size(), lib[i].options.size()) << lib[i].name;
    ASSERT_EQ(f.at("outputs").size(), lib[i].outputs.size()) << lib[i].name;
    for (std::size_t k = 0; k < lib[i].outputs.size(); ++k) {
      EXPECT_EQ(f.at("outputs")[k].at("name"), lib[i].outputs[k].name);
    }
  }
  const nlohmann::json& vif = find(list, "vif");
  const nlohmann::json& egl = find(vif.at("options"), "vif_enhn_gain_limit");
  EXPECT_EQ(egl.at("alias"), "egl");
  EXPECT_EQ(egl.at("type"), "double");
  EXPECT_EQ(egl.at("default").get<double>(), 100.0);
  EXPECT_EQ(egl.at("min").get<double>(), 1.0);
  EXPECT_EQ(egl.at("max").get<double>(), 100.0);
  EXPECT_TRUE(egl.at("renames_outputs").get<bool>());
  EXPECT_EQ(find(vif.at("options"), "debug").at("default"), false);
  EXPECT_EQ(find(vif.at("outputs"), "integer_vif_scale0").at("when").size(), 0U);
  EXPECT_EQ(find(vif.at("outputs"), "integer_vif").at("when")[0], "debug");
  EXPECT_EQ(vif.at("backends").get<std::vector<std::string>>(), twin_backends());
  EXPECT_EQ(find(list, "cambi").at("backends").get<std::vector<std::string>>(),
            std::vector<std::string>{"cpu"});
  EXPECT_EQ(find(list, "float_ms_ssim").at("backends").get<std::vector<std::string>>(),
            twin_backends());
  const nlohmann::json& heatmaps = find(find(list, "cambi").at("options"), "heatmaps_path");
  EXPECT_EQ(heatmaps.at("type"), "string");
  EXPECT_EQ(heatmaps.at("default"), "");
  EXPECT_FALSE(heatmaps.contains("min"));
  EXPECT_EQ(find(list, "cambi").at("temporal"), "when heatmaps_path");
  EXPECT_EQ(find(list, "motion").at("temporal"), "always");
}

TEST(ListFeatures, NeedsNoInputAndRefusesOtherFormats) {
  const CliRun csv = vqx("--list-features --csv");
  EXPECT_EQ(csv.code, 1);
  EXPECT_NE(csv.err.find("--list-features"), std::string::npos) << csv.err;
  EXPECT_TRUE(csv.out.empty());
  const CliRun with_input = vqx("--list-features -r missing.y4m -d missing.y4m");
  EXPECT_EQ(with_input.code, 0) << with_input.err;  // lists, reads nothing
}

}  // namespace

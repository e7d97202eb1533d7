// Every run the reference made on the corpus, replayed: the same --feature
// and -m arguments (read from the manifest's recorded command lines), every
// output the reference wrote compared within the tolerance table of
// ARCHITECTURE.md section 6.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <sstream>

#include "golden_util.hpp"

namespace vqx::test {
namespace {

namespace fs = std::filesystem;

struct OracleArgs {
  std::vector<std::string> features;
  std::vector<std::string> models;
};

OracleArgs parse_oracle_cli(const std::string& cli) {
  std::istringstream in(cli);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  OracleArgs a;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i] == "--feature") a.features.push_back(tokens[i + 1]);
    if (tokens[i] == "-m" || tokens[i] == "--model") a.models.push_back(tokens[i + 1]);
  }
  return a;
}

// How closely a reference output must be matched (ARCHITECTURE.md section 6).
struct Tolerance {
  double abs = 0;
  double rel = 0;
};

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

Tolerance tolerance_for(const std::string& name) {
  // Integer features and the integer PSNR: equal at 17 significant digits.
  if (starts_with(name, "integer_") || starts_with(name, "VMAF_integer_feature") ||
      starts_with(name, "psnr_y") || starts_with(name, "psnr_cb") || starts_with(name, "psnr_cr") ||
      starts_with(name, "mse_") || starts_with(name, "apsnr_")) {
    return {0, 0};
  }
  if (name == "vmaf_v0.6.1" || name == "vmaf_v0.6.1neg" || name == "vmaf_4k_v0.6.1") return {1e-9, 0};
  if (starts_with(name, "ciede2000") || starts_with(name, "psnr_hvs") || starts_with(name, "cambi") ||
      starts_with(name, "speed_")) {
    return {1e-4, 0};
  }
  // Models on float or approximate features: their features' error carried
  // through the SVM; documented in docs/metrics.md.
  if (starts_with(name, "vmaf_")) return {1e-4, 0};
  return {0, 1e-5};  // float features
}

void expect_close(const std::string& where, const std::string& name, double ours, double golden,
                  double print_slack) {
  const Tolerance t = tolerance_for(name);
  const double text_rounding = print_slack > 0 ? 8 * DBL_EPSILON * std::fabs(golden) : 0.0;
  const double allowed = t.abs + t.rel * std::fabs(golden) + print_slack + text_rounding;
  if (allowed == 0) {
    EXPECT_EQ(ours, golden) << where << " " << name;
  } else {
    EXPECT_LE(std::fabs(ours - golden), allowed) << where << " " << name << ": ours " << ours
                                                 << ", reference " << golden;
  }
}

struct Case {
  std::string pair;
  std::string run;  // features, features_debug, models, models_v1.0.16
};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.pair + "_" + info.param.run;
  for (char& c : n) {
    if (c == '.') c = '_';
  }
  return n;
}

class OracleRun : public ::testing::TestWithParam<Case> {};

TEST_P(OracleRun, EveryOutputMatchesTheReference) {
  const fs::path corpus = corpus_dir();
  if (corpus.empty()) GTEST_SKIP() << "corpus not found (set VQX_CORPUS)";
  const auto manifest = load_json(corpus / "manifest.json");
  const auto& pair = manifest.at("pairs").at(GetParam().pair);
  const auto& golden_info = pair.at("goldens").at(GetParam().run);
  if (golden_info.at("status") != "ok") {
    GTEST_SKIP() << "the reference failed this run: " << golden_info.at("status").get<std::string>();
  }
  // Full precision where the reference was run at full precision.
  const bool fullprec = golden_info.contains("fullprec");
  const fs::path golden_path =
      corpus / (fullprec ? golden_info.at("fullprec").at("file").get<std::string>()
                         : golden_info.at("file").get<std::string>());
  // %.6f goldens: half a unit of the 6th decimal (expect_close adds the
  // double rounding of the printed text, e.g. 5276099.773438).
  const double print_slack = fullprec ? 0.0 : 5e-7;
  OracleArgs args = parse_oracle_cli(golden_info.at("cli").get<std::string>());
  // Extractors the reference refused on this pair are left out here; that
  // VQX refuses them too is tested in small_pictures_test.cpp.
  if (golden_info.contains("rejected")) {
    std::erase_if(args.features, [&](const std::string& f) {
      return golden_info.at("rejected").contains(f.substr(0, f.find('=')));
    });
  }

  const auto& clips = manifest.at("clips");
  const std::string ref = (corpus / clips.at(pair.at("ref").get<std::string>()).at("file").get<std::string>()).string();
  const std::string dist = (corpus / clips.at(pair.at("dist").get<std::string>()).at("file").get<std::string>()).string();
  auto ctx = score_pair(ref, dist, args.models, 2, 0, args.features);
  ASSERT_NE(ctx, nullptr);

  const auto golden = load_json(golden_path);
  std::size_t compared = 0;
  for (const auto& frame : golden.at("frames")) {
    const unsigned index = frame.at("frameNum").get<unsigned>();
    for (const auto& [name, value] : frame.at("metrics").items()) {
      if (value.is_null()) continue;
      auto ours = ctx->score_at_index(name, index);
      ASSERT_TRUE(ours.ok()) << ours.status().message();
      expect_close("frame " + std::to_string(index), name, *ours, value.get<double>(), print_slack);
      ++compared;
    }
  }
  for (const auto& [name, stats] : golden.at("pooled_metrics").items()) {
    if (!stats.contains("mean") || stats.at("mean").is_null()) continue;
    auto ours = ctx->pooled_score(name, PoolMethod::kMean);
    ASSERT_TRUE(ours.ok()) << ours.status().message();
    expect_close("pooled mean", name, *ours, stats.at("mean").get<double>(), print_slack);
    ++compared;
  }
  for (const auto& [name, value] : golden.at("aggregate_metrics").items()) {
    auto ours = ctx->aggregate_score(name);
    ASSERT_TRUE(ours.ok()) << ours.status().message();
    if (!value.is_null()) expect_close("aggregate", name, *ours, value.get<double>(), print_slack);
    ++compared;
  }
  EXPECT_GT(compared, 50U);
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const char* p : {"P1a", "P1b", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"}) {
    for (const char* r : {"features", "features_debug", "models", "models_v1.0.16"}) {
      cases.push_back({p, r});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Corpus, OracleRun, ::testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace vqx::test

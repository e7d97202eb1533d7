// Parity with the reference libvmaf: every integer feature exactly, every
// vmaf_v0.6.1 / v0.6.1neg / 4k score within 1e-9, per frame and pooled.
#include <gtest/gtest.h>

#include "golden_util.hpp"

namespace vqx::test {
namespace {

namespace fs = std::filesystem;

const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";

class SubsetParity : public ::testing::TestWithParam<std::string> {};

TEST_P(SubsetParity, IntegerFeaturesAndModelsMatchReference) {
  const auto manifest = load_json(kSubset / "manifest.json");
  const auto& pair = manifest.at("pairs").at(GetParam());
  auto ctx = score_pair((kSubset / pair.at("ref").get<std::string>()).string(),
                        (kSubset / pair.at("dist").get<std::string>()).string(), integer_models(),
                        2);
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(ctx->frame_count(), pair.at("frames").get<unsigned>());
  const bool truncated = pair.at("truncated").get<bool>();
  const std::size_t n = expect_matches_golden(
      *ctx, load_json(kSubset / pair.at("golden").get<std::string>()),
      {.skip_last_frame = truncated, .pooled = !truncated});
  EXPECT_GT(n, 100U);
}

INSTANTIATE_TEST_SUITE_P(Bundled, SubsetParity, ::testing::Values("P1a", "P9"));

// The whole public corpus, when it is beside the checkout.
const std::vector<std::string> kPairs = {"P1a", "P1b", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"};

class CorpusParity : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusParity, IntegerFeaturesAndModelsMatchReference) {
  const fs::path corpus = corpus_dir();
  if (corpus.empty()) GTEST_SKIP() << "corpus not found (set VQX_CORPUS)";
  const auto manifest = load_json(corpus / "manifest.json");
  const auto& pair = manifest.at("pairs").at(GetParam());
  const auto& clips = manifest.at("clips");
  const std::string ref = (corpus / clips.at(pair.at("ref").get<std::string>()).at("file").get<std::string>()).string();
  const std::string dist = (corpus / clips.at(pair.at("dist").get<std::string>()).at("file").get<std::string>()).string();
  auto ctx = score_pair(ref, dist, integer_models(), 2);
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(ctx->frame_count(), pair.at("frames").get<unsigned>());
  const std::size_t n =
      expect_matches_golden(*ctx, load_json(corpus / "golden_fullprec" / (GetParam() + ".models.json")), {});
  EXPECT_GT(n, 100U);
}

INSTANTIATE_TEST_SUITE_P(Public, CorpusParity, ::testing::ValuesIn(kPairs));

TEST(CorpusManifest, EveryPairIsTested) {
  const fs::path corpus = corpus_dir();
  if (corpus.empty()) GTEST_SKIP() << "corpus not found (set VQX_CORPUS)";
  const auto manifest = load_json(corpus / "manifest.json");
  std::vector<std::string> listed;
  for (const auto& [id, _] : manifest.at("pairs").items()) listed.push_back(id);
  EXPECT_EQ(listed, kPairs);
}

}  // namespace
}  // namespace vqx::test

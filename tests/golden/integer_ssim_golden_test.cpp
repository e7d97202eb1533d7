// Integer SSIM ("ssim") against the reference's own output: libvmaf's
// integer_ssim.c, registered in a build of the oracle for the purpose
// (../shared/corpus/golden_extra/README.md says how). Every frame's value
// and the pooled values equal the reference's at full precision (17
// significant digits, i.e. the same double), on every corpus pair when the
// corpus is beside the checkout, and always on the bundled subset.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "golden_util.hpp"

namespace vqx::test {
namespace {

namespace fs = std::filesystem;

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Every frame of `golden` and, with `pooled`, its pooled values, compared
// bit for bit; returns the values compared.
std::size_t expect_equal_to_golden(const Context& ctx, const nlohmann::json& golden, bool pooled,
                                   const std::string& what) {
  std::size_t compared = 0;
  for (const auto& frame : golden.at("frames")) {
    const unsigned index = frame.at("frameNum").get<unsigned>();
    const double want = frame.at("metrics").at("ssim").get<double>();
    auto ours = ctx.score_at_index("ssim", index);
    EXPECT_TRUE(ours.ok()) << what << " frame " << index;
    if (!ours.ok()) continue;
    EXPECT_EQ(bits(*ours), bits(want))
        << what << " frame " << index << ": ours " << *ours << ", reference " << want;
    ++compared;
  }
  if (!pooled) return compared;
  const auto& stats = golden.at("pooled_metrics").at("ssim");
  const std::pair<const char*, PoolMethod> methods[] = {
      {"min", PoolMethod::kMin},
      {"max", PoolMethod::kMax},
      {"mean", PoolMethod::kMean},
      {"harmonic_mean", PoolMethod::kHarmonicMean}};
  for (const auto& [key, method] : methods) {
    auto ours = ctx.pooled_score("ssim", method);
    EXPECT_TRUE(ours.ok()) << what << " pooled " << key;
    if (!ours.ok()) continue;
    const double want = stats.at(key).get<double>();
    EXPECT_EQ(bits(*ours), bits(want))
        << what << " pooled " << key << ": ours " << *ours << ", reference " << want;
    ++compared;
  }
  return compared;
}

// The bundled subset (tests/data/corpus_subset): P9 whole, P1a's first 5
// frames (no pooled values: the reference pooled 48).
TEST(IntegerSsimGolden, BundledSubsetEqualsTheReference) {
  const fs::path subset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
  const auto manifest = load_json(subset / "manifest.json");
  for (const char* id : {"P1a", "P9"}) {
    const auto& pair = manifest.at("pairs").at(id);
    auto ctx =
        score_pair((subset / pair.at("ref").get<std::string>()).string(),
                   (subset / pair.at("dist").get<std::string>()).string(), {}, 2, 0, {"ssim"});
    ASSERT_NE(ctx, nullptr) << id;
    const auto golden = load_json(subset / pair.at("integer_ssim_golden").get<std::string>());
    EXPECT_EQ(ctx->frame_count(), golden.at("frames").size()) << id;
    const std::size_t n =
        expect_equal_to_golden(*ctx, golden, !pair.at("truncated").get<bool>(), id);
    EXPECT_EQ(n, golden.at("frames").size() + (pair.at("truncated").get<bool>() ? 0 : 4)) << id;
  }
}

// Every pair of the corpus with its golden_extra file: all frames, pooled.
TEST(IntegerSsimGolden, EveryCorpusPairEqualsTheReference) {
  const fs::path corpus = corpus_dir();
  if (corpus.empty())
    GTEST_SKIP() << "corpus not found (set VQX_CORPUS): integer SSIM not compared";
  const fs::path extra = corpus / "golden_extra";
  if (!fs::exists(extra)) {
    GTEST_SKIP() << extra.string() << " not found: integer SSIM not compared with the reference";
  }
  const auto manifest = load_json(corpus / "manifest.json");
  const auto& clips = manifest.at("clips");
  unsigned pairs = 0;
  std::size_t values = 0;
  for (const auto& [id, pair] : manifest.at("pairs").items()) {
    const fs::path golden_file = extra / (id + ".integer_ssim.fullprec.json");
    ASSERT_TRUE(fs::exists(golden_file)) << golden_file.string() << " is missing";
    const auto file = [&](const char* which) {
      return (corpus / clips.at(pair.at(which).get<std::string>()).at("file").get<std::string>())
          .string();
    };
    auto ctx = score_pair(file("ref"), file("dist"), {}, 2, 0, {"ssim"});
    ASSERT_NE(ctx, nullptr) << id;
    const auto golden = load_json(golden_file);
    EXPECT_EQ(ctx->frame_count(), golden.at("frames").size()) << id;
    EXPECT_EQ(ctx->frame_count(), pair.at("frames").get<unsigned>()) << id;
    values += expect_equal_to_golden(*ctx, golden, true, id);
    ++pairs;
  }
  std::printf(
      "integer SSIM: %u corpus pairs, %zu values (frames and pooled) compared bit for bit\n", pairs,
      values);
  EXPECT_EQ(pairs, 10U);
}

}  // namespace
}  // namespace vqx::test

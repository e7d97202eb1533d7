// Independent contexts: results never depend on the thread count, nor on
// other contexts of other sizes running at the same time.
#include <gtest/gtest.h>

#include <thread>

#include "golden_util.hpp"

namespace vqx::test {
namespace {

namespace fs = std::filesystem;
const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
const std::string kSmallRef = (kSubset / "P9_tiny_176x144_420p8.y4m").string();
const std::string kSmallDist = (kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string();
const std::string kLargeRef = (kSubset / "P1_pan_576x324_420p8.mkv").string();
const std::string kLargeDist = (kSubset / "P1a_pan_576x324_420p8__x264-crf36.mkv").string();

// Every metric of every frame, in a fixed order.
std::vector<double> all_values(const Context& ctx) {
  std::vector<double> v;
  for (const auto& name : ctx.metric_names()) {
    for (unsigned i = 0; i < ctx.frame_count(); ++i) {
      auto x = ctx.score_at_index(name, i);
      v.push_back(x.ok() ? *x : -12345.0);
    }
  }
  return v;
}

TEST(Contexts, ThreadCountGivesIdenticalResults) {
  auto one = score_pair(kSmallRef, kSmallDist, integer_models(), 1);
  auto two = score_pair(kSmallRef, kSmallDist, integer_models(), 2);
  auto four = score_pair(kSmallRef, kSmallDist, integer_models(), 4);
  ASSERT_TRUE(one && two && four);
  EXPECT_EQ(all_values(*one), all_values(*two));
  EXPECT_EQ(all_values(*one), all_values(*four));
  EXPECT_GT(all_values(*one).size(), 200U);
}

TEST(Contexts, ConcurrentContextsOfDifferentSizesEachGiveTheirSoloResult) {
  auto small_solo = score_pair(kSmallRef, kSmallDist, integer_models(), 2);
  auto large_solo = score_pair(kLargeRef, kLargeDist, integer_models(), 2);
  ASSERT_TRUE(small_solo && large_solo);
  std::unique_ptr<Context> small_conc;
  std::unique_ptr<Context> large_conc;
  std::thread a([&] { large_conc = score_pair(kLargeRef, kLargeDist, integer_models(), 2); });
  std::thread b([&] { small_conc = score_pair(kSmallRef, kSmallDist, integer_models(), 1); });
  a.join();
  b.join();
  ASSERT_TRUE(small_conc && large_conc);
  EXPECT_EQ(all_values(*small_solo), all_values(*small_conc));
  EXPECT_EQ(all_values(*large_solo), all_values(*large_conc));
}

}  // namespace
}  // namespace vqx::test

// Where the reference refused a feature on a pair (manifest.json: P9,
// 176x144: float_ms_ssim wrote nothing, cambi wrote nothing, speed_chroma
// crashed), VQX refuses with a clear error naming the feature and the
// minimum, at the first frame, instead of writing nothing or crashing.
#include <gtest/gtest.h>

#include "golden_util.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::test {
namespace {

namespace fs = std::filesystem;
const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";

// Registers `what` (a feature, or a model when it starts with "version=")
// and feeds P9's first frame; returns the first error.
Status first_error(const std::string& what) {
  auto r = open_video((kSubset / "P9_tiny_176x144_420p8.y4m").string(), std::nullopt);
  auto d = open_video((kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string(), std::nullopt);
  auto ctx = Context::create({}).value();
  Status s =
      what.rfind("version=", 0) == 0 ? ctx->use_features_from_model(what) : ctx->use_feature(what);
  if (!s.ok()) return s;
  Picture rp;
  Picture dp;
  if (!(*r)->read(rp).ok() || !(*d)->read(dp).ok()) return Error(Errc::kInternal, "read failed");
  s = ctx->read_pictures(std::move(rp), std::move(dp), 0);
  if (!s.ok()) return s;
  return ctx->flush();
}

void expect_refused(const std::string& what, const std::string& feature) {
  const Status s = first_error(what);
  EXPECT_EQ(s.code(), Errc::kUnsupported) << what << ": " << s.message();
  EXPECT_NE(s.message().find(feature), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("too small"), std::string::npos) << s.message();
}

TEST(SmallPictures, MsSsimIsRefused) { expect_refused("float_ms_ssim", "float_ms_ssim"); }
TEST(SmallPictures, CambiIsRefused) { expect_refused("cambi", "cambi"); }
TEST(SmallPictures, SpeedChromaIsRefused) { expect_refused("speed_chroma", "speed_chroma"); }
TEST(SmallPictures, V1016ModelIsRefusedThroughItsFeatures) {
  const Status s = first_error("version=vmaf_v1.0.16_3d0h");
  EXPECT_EQ(s.code(), Errc::kUnsupported) << s.message();
  EXPECT_NE(s.message().find("too small"), std::string::npos) << s.message();
}

// What the reference did compute on P9 is computed here too (and compared
// with its goldens in oracle_runs_test.cpp): ssim, speed_temporal.
TEST(SmallPictures, FeaturesTheReferenceComputedStillRun) {
  for (const char* f : {"float_ssim", "speed_temporal", "float_adm", "float_vif", "psnr"}) {
    EXPECT_TRUE(first_error(f).ok()) << f << ": " << first_error(f).message();
  }
}

}  // namespace
}  // namespace vqx::test

// Inputs the reference tool cannot score: 4:0:0 (gray) pictures, and the
// chroma formats that the VMAF features ignore. VMAF's features read luma
// only, so a gray picture must score exactly as a colour picture with the
// same luma.
#include <gtest/gtest.h>

#include <cstring>

#include "golden_util.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::test {
namespace {

namespace fs = std::filesystem;
const fs::path kSubset = fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";

// Scores P9 after `convert` has rewritten each picture.
template <typename Convert>
std::vector<double> score_converted(Convert convert) {
  auto r = open_video((kSubset / "P9_tiny_176x144_420p8.y4m").string(), std::nullopt);
  auto d = open_video((kSubset / "P9_tiny_176x144_420p8__x264-crf45.y4m").string(), std::nullopt);
  EXPECT_TRUE(r.ok() && d.ok());
  auto ctx = Context::create({}).value();
  EXPECT_TRUE(ctx->use_features_from_model("version=vmaf_v0.6.1:name=vmaf").ok());
  Picture rp;
  Picture dp;
  unsigned i = 0;
  for (;; ++i) {
    auto a = (*r)->read(rp);
    auto b = (*d)->read(dp);
    if (!a.ok() || !b.ok() || !*a || !*b) break;
    Status s = ctx->read_pictures(convert(rp), convert(dp), i);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  EXPECT_TRUE(ctx->flush().ok());
  std::vector<double> v;
  for (const auto& name : ctx->metric_names()) {
    for (unsigned f = 0; f < i; ++f) v.push_back(ctx->score_at_index(name, f).value());
  }
  return v;
}

Picture with_chroma(const Picture& src, ChromaFormat chroma) {
  PictureFormat fmt = src.format();
  fmt.chroma = chroma;
  Picture out = Picture::make(fmt).value();
  for (unsigned y = 0; y < fmt.height; ++y) {
    std::memcpy(out.plane(0).row<std::uint8_t>(y), src.plane(0).row<std::uint8_t>(y), fmt.width);
  }
  for (unsigned p = 1; p < fmt.plane_count(); ++p) {  // mid-grey chroma
    for (unsigned y = 0; y < fmt.plane_height(p); ++y) {
      std::memset(out.plane(p).row<std::uint8_t>(y), 128, fmt.plane_width(p));
    }
  }
  return out;
}

Picture copy(const Picture& src) { return with_chroma(src, src.format().chroma); }

TEST(Formats, GrayScoresAsTheLumaOfColour) {
  const auto colour = score_converted([](const Picture& p) { return copy(p); });
  const auto gray =
      score_converted([](const Picture& p) { return with_chroma(p, ChromaFormat::k400); });
  const auto c444 =
      score_converted([](const Picture& p) { return with_chroma(p, ChromaFormat::k444); });
  ASSERT_GT(colour.size(), 100U);
  EXPECT_EQ(colour, gray);
  EXPECT_EQ(colour, c444);
}

}  // namespace
}  // namespace vqx::test

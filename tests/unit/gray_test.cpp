// 4:0:0 (gray) video scored as FFmpeg's conversion to 4:2:0 gives it: the
// luma unchanged, neutral chroma (2^(bpc - 1)) (issue 11, item 12). A gray
// clip and its neutral-chroma 4:2:0 copy give identical outputs for every
// feature and model. Before, a feature that reads chroma (speed_chroma, so
// every vmaf_v1.0.16 model; ciede; psnr_hvs) refused 4:0:0, and psnr wrote
// psnr_y only.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "context_run.hpp"
#include "metrics/registry.hpp"
#include "model/model.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

// `pic` (4:0:0) as 4:2:0 with neutral chroma: what FFmpeg's gray -> yuv420p
// conversion gives.
Picture neutral_copy(const Picture& gray) {
  PictureFormat fmt = gray.format();
  fmt.chroma = ChromaFormat::k420;
  Picture out = Picture::make(fmt).value();
  const std::size_t row_bytes = std::size_t{fmt.width} * fmt.bytes_per_sample();
  for (unsigned y = 0; y < fmt.height; ++y) {
    std::memcpy(out.plane(0).row<std::uint8_t>(y), gray.plane(0).row<std::uint8_t>(y), row_bytes);
  }
  const std::uint32_t neutral = 1U << (fmt.bpc - 1);
  for (unsigned p = 1; p < 3; ++p) {
    Plane& pl = out.plane(p);
    for (unsigned y = 0; y < pl.height(); ++y) {
      for (unsigned x = 0; x < pl.width(); ++x) {
        if (fmt.bpc == 8) {
          pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(neutral);
        } else {
          pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(neutral);
        }
      }
    }
  }
  return out;
}

testutil::FrameSource as_colour(testutil::FrameSource gray) {
  return [gray](unsigned i) {
    auto [ref, dist] = gray(i);
    return std::make_pair(neutral_copy(ref), neutral_copy(dist));
  };
}

// Every request of the comparison (at 320x320: the vmaf_v1.0.16 models'
// speed_chroma needs 159x159 chroma): each family with its defaults, the
// options that add chroma outputs, and every built-in model.
std::vector<std::string> every_request() {
  std::vector<std::string> items;
  for (const ExtractorFamily* f : all_families()) items.push_back("f " + std::string(f->name));
  items.push_back("f psnr=enable_mse=true:enable_apsnr=true");
  items.push_back("f float_motion=motion_add_uv=true:debug=true");
  items.push_back("f psnr=enable_chroma=false");
  for (const std::string& v : Model::builtin_versions()) items.push_back("m version=" + v);
  return items;
}

void expect_gray_scores_as_colour(const std::string& item, const PictureFormat& fmt,
                                  unsigned threads) {
  SCOPED_TRACE(item + " at " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + " " +
               std::to_string(fmt.bpc) + " bit, " + std::to_string(threads) + " threads");
  const testutil::FrameSource gray = testutil::noisy_frames(fmt, 3);
  const ContextSettings settings{.threads = threads, .backend = Backend::kCpu};
  const auto g = testutil::run_context({item}, gray, 3, settings);
  ASSERT_TRUE(g.ok()) << g.status().message();
  const auto c = testutil::run_context({item}, as_colour(gray), 3, settings);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(g->frames, c->frames);
  EXPECT_EQ(g->aggregates, c->aggregates);
  EXPECT_FALSE(g->frames.empty());
}

TEST(Gray, EveryFeatureAndModelScoresGrayAsItsNeutralChromaCopy) {
  for (const std::string& item : every_request()) {
    for (unsigned bpc : {8U, 10U}) {
      expect_gray_scores_as_colour(item, {320, 320, bpc, ChromaFormat::k400}, 0);
    }
  }
}

TEST(Gray, OddSizesDeepSamplesAndThreads) {
  for (const char* item : {"f psnr=enable_apsnr=true", "f ciede", "f psnr_hvs", "f speed_chroma",
                           "m version=vmaf_v1.0.16_3d0h", "f ssimulacra2"}) {
    expect_gray_scores_as_colour(item, {225, 223, 12, ChromaFormat::k400}, 2);
  }
  expect_gray_scores_as_colour("f psnr=enable_mse=true", {33, 17, 16, ChromaFormat::k400}, 3);
}

TEST(Gray, ChromaOutputsAreWrittenAndTheNewestModelScores) {
  const PictureFormat fmt{224, 224, 8, ChromaFormat::k400};
  const auto v = testutil::run_context({"f psnr", "m version=vmaf_v1.0.16_3d0h:name=v16"},
                                       testutil::noisy_frames(fmt, 9), 2);
  ASSERT_TRUE(v.ok()) << v.status().message();
  // Neutral chroma in both pictures: lossless, libvmaf's cap 6 * bpc + 12.
  EXPECT_EQ(v->frames.at("psnr_cb"), (std::vector<double>{60.0, 60.0}));
  EXPECT_EQ(v->frames.at("psnr_cr"), (std::vector<double>{60.0, 60.0}));
  EXPECT_EQ(v->frames.count("v16"), 1U);
}

TEST(Gray, FetchedPicturesStayGrayAndRecycle) {
  // The caller fetches 4:0:0 pictures; the families see 4:2:0 ones, which
  // come back as 4:0:0 from fetch_picture (their chroma kept for reuse).
  const PictureFormat fmt{64, 48, 10, ChromaFormat::k400};
  const testutil::FrameSource gray = testutil::noisy_frames(fmt, 4);
  auto run = [&](bool fetch, const testutil::FrameSource& source) {
    auto ctx = Context::create({.threads = 2, .backend = Backend::kCpu}).value();
    EXPECT_TRUE(ctx->use_feature("psnr").ok());
    for (unsigned i = 0; i < 12; ++i) {
      auto [ref, dist] = source(i);
      if (fetch) {
        Picture r = ctx->fetch_picture(fmt).value();
        Picture d = ctx->fetch_picture(fmt).value();
        EXPECT_EQ(r.format(), fmt);
        EXPECT_EQ(r.plane_count(), 1U);
        for (unsigned y = 0; y < fmt.height; ++y) {
          std::memcpy(r.plane(0).row<std::uint8_t>(y), ref.plane(0).row<std::uint8_t>(y),
                      fmt.width * 2);
          std::memcpy(d.plane(0).row<std::uint8_t>(y), dist.plane(0).row<std::uint8_t>(y),
                      fmt.width * 2);
        }
        ref = std::move(r);
        dist = std::move(d);
      }
      EXPECT_TRUE(ctx->read_pictures(std::move(ref), std::move(dist), i).ok());
    }
    EXPECT_TRUE(ctx->flush().ok());
    std::vector<double> values;
    for (unsigned i = 0; i < 12; ++i) {
      for (const char* name : {"psnr_y", "psnr_cb", "psnr_cr"}) {
        values.push_back(ctx->score_at_index(name, i).value());
      }
    }
    return values;
  };
  const auto fetched = run(true, gray);
  EXPECT_EQ(fetched, run(false, gray));
  EXPECT_EQ(fetched, run(false, as_colour(gray)));
}

TEST(Gray, EveryChromaRuleNamesABoolOption) {
  for (const ExtractorFamily* f : all_families()) {
    if (f->chroma.kind != ChromaRule::kWhenSet) continue;
    bool declared = false;
    for (const OptionDef& d : f->options) {
      declared = declared || (d.name == std::string(f->chroma.option) &&
                              std::holds_alternative<bool>(d.default_value));
    }
    EXPECT_TRUE(declared) << f->name << ": " << f->chroma.option;
  }
}

}  // namespace
}  // namespace vqx

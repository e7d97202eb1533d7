// Context::run_values() and write_run_values() (vqx/run_values.hpp): a
// run's values written without its context give write_output()'s bytes;
// Context::temporal_reach() (vqx/temporal_reach.hpp) from the families'
// reach. The segments that rely on both are tested end to end in
// python/tests/test_dask.py.
#include "vqx/run_values.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.hpp"
#include "vqx/vqx.hpp"

namespace vqx {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::unique_ptr<Context> context_with(const std::vector<std::string>& models,
                                      const std::vector<std::string>& features,
                                      unsigned subsample = 1) {
  auto ctx = Context::create({.subsample = subsample, .backend = Backend::kCpu});
  EXPECT_TRUE(ctx.ok());
  for (const auto& m : models) EXPECT_TRUE(ctx.value()->use_features_from_model(m).ok()) << m;
  for (const auto& f : features) EXPECT_TRUE(ctx.value()->use_feature(f).ok()) << f;
  return std::move(ctx).value();
}

TEST(RunValues, WrittenWithoutTheContextGiveWriteOutputsBytes) {
  const PictureFormat fmt{64, 48, 8, ChromaFormat::k420};
  // apsnr (an aggregate), a model, subsampling: every part of a report.
  auto ctx = context_with({"version=vmaf_v0.6.1"}, {"psnr=enable_apsnr=true", "float_ssim"}, 2);
  std::mt19937 rng(7);
  for (unsigned i = 0; i < 7; ++i) {
    ASSERT_TRUE(ctx->read_pictures(testutil::random_picture(fmt, rng, 128),
                                   testutil::random_picture(fmt, rng, 120), i)
                    .ok());
  }
  ASSERT_TRUE(ctx->flush().ok());
  auto values = ctx->run_values();
  ASSERT_TRUE(values.ok()) << values.status().message();
  EXPECT_EQ(values->frames, (std::vector<unsigned>{0, 2, 4, 6}));
  EXPECT_EQ(values->width, 64U);
  EXPECT_FALSE(values->aggregates.empty());
  const auto dir =
      std::filesystem::temp_directory_path() / ("vqx_run_values_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (OutputFormat f :
       {OutputFormat::kXml, OutputFormat::kJson, OutputFormat::kCsv, OutputFormat::kSub}) {
    for (int precision : {kPrecisionDefault, 3, kPrecisionMax}) {
      const auto a = dir / "context.out";
      const auto b = dir / "values.out";
      ASSERT_TRUE(ctx->write_output(a.string(), f, precision, 12.5).ok());
      ASSERT_TRUE(write_run_values(*values, b.string(), f, precision, 12.5).ok());
      EXPECT_EQ(read_file(a), read_file(b)) << static_cast<int>(f) << " " << precision;
    }
  }
  // Values that do not fit their frames are refused, and nothing is written.
  RunValues broken = *values;
  broken.metrics[0].values.pop_back();
  const Status s = write_run_values(broken, (dir / "broken.json").string(), OutputFormat::kJson);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(broken.metrics[0].name), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "broken.json"));
  std::filesystem::remove_all(dir);
}

TEST(RunValues, BeforeFlushIsAnError) {
  auto ctx = context_with({}, {"psnr"});
  EXPECT_FALSE(ctx->run_values().ok());
}

TEST(RunValues, PoolingLeavesOutAbsentValues) {
  const std::vector<double> v = {1.0, std::nan(""), 3.0};
  const PooledValues p = pool_values(v);
  EXPECT_EQ(p.mean, 2.0);
  EXPECT_EQ(p.min, 1.0);
  EXPECT_EQ(p.max, 3.0);
  EXPECT_EQ(p.harmonic_mean, 2.0 / (1.0 / 2.0 + 1.0 / 4.0) - 1.0);
}

struct ReachCase {
  std::vector<std::string> models;
  std::vector<std::string> features;
  std::optional<TemporalReach> reach;
};

TEST(TemporalReach, FromTheFamiliesDefinitions) {
  const std::vector<ReachCase> cases = {
      {{}, {"psnr", "float_ssim", "cambi"}, TemporalReach{0, 0}},
      {{"version=vmaf_v0.6.1"}, {}, TemporalReach{1, 1}},
      {{"version=vmaf_v1.0.16_3d0h"}, {}, TemporalReach{1, 1}},
      {{"version=vmaf_v1.0.16_hfr_3d0h"}, {}, TemporalReach{4, 1}},
      {{}, {"motion=motion_five_frame_window=true"}, TemporalReach{3, 1}},
      {{}, {"motion=motion_moving_average=true"}, TemporalReach{2, 1}},
      {{}, {"float_motion"}, TemporalReach{1, 1}},
      {{}, {"speed_temporal"}, TemporalReach{1, 0}},
      {{}, {"speed_temporal", "motion"}, TemporalReach{1, 1}},
      {{}, {"psnr=enable_apsnr=true", "motion"}, std::nullopt},
  };
  for (const ReachCase& c : cases) {
    auto ctx = context_with(c.models, c.features);
    const std::optional<TemporalReach> got = ctx->temporal_reach();
    ASSERT_EQ(got.has_value(), c.reach.has_value()) << testing::PrintToString(c.features);
    if (got) {
      EXPECT_EQ(got->before, c.reach->before) << testing::PrintToString(c.features);
      EXPECT_EQ(got->after, c.reach->after) << testing::PrintToString(c.features);
    }
  }
}

}  // namespace
}  // namespace vqx

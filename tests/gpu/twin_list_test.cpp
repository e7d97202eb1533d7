// Device-free: which families have a GPU twin in this build (through the
// public vqx::list_features(), what `vqx --list-features` prints), and that
// the GPU tests cover every one: the first-frame test's list
// (VQX_FIRST_FRAME_TWINS, tests/gpu/CMakeLists.txt) and twin_features().
// Runs in every build, with or without a device.
#include <set>
#include <sstream>

#include "gpu/pipeline.hpp"
#include "gpu_test_util.hpp"
#include "vqx/features.hpp"

namespace vqx::gputest {
namespace {

std::set<std::string> first_frame_twins() {
  std::set<std::string> twins;
  std::stringstream list(VQX_FIRST_FRAME_TWINS);
  for (std::string name; std::getline(list, name, ',');) twins.insert(name);
  return twins;
}

// The families whose backends include a GPU one.
std::set<std::string> families_with_twins() {
  std::set<std::string> twins;
  for (const FeatureInfo& f : list_features()) {
    EXPECT_EQ(f.backends.front(), "cpu") << f.name;
    if (f.backends.size() > 1) twins.insert(f.name);
  }
  return twins;
}

TEST(TwinList, FloatSsimAndMsSsimHaveTwinsInAGpuBuild) {
  const char* backend = gpu::compiled_backend();
  for (const FeatureInfo& f : list_features()) {
    if (f.name != "float_ssim" && f.name != "float_ms_ssim") continue;
    if (backend == nullptr) {
      EXPECT_EQ(f.backends, std::vector<std::string>{"cpu"}) << f.name;
    } else {
      EXPECT_EQ(f.backends, (std::vector<std::string>{"cpu", backend})) << f.name;
    }
  }
  if (backend == nullptr) std::printf("no GPU backend in this build: every feature is cpu only\n");
}

TEST(TwinList, SpeedChromaAndSpeedTemporalHaveTwinsInAGpuBuild) {
  const char* backend = gpu::compiled_backend();
  unsigned seen = 0;
  for (const FeatureInfo& f : list_features()) {
    if (f.name != "speed_chroma" && f.name != "speed_temporal") continue;
    ++seen;
    if (backend == nullptr) {
      EXPECT_EQ(f.backends, std::vector<std::string>{"cpu"}) << f.name;
    } else {
      EXPECT_EQ(f.backends, (std::vector<std::string>{"cpu", backend})) << f.name;
    }
  }
  EXPECT_EQ(seen, 2U);
}

TEST(TwinList, IntegerSsimHasATwinInAGpuBuild) {
  const char* backend = gpu::compiled_backend();
  unsigned seen = 0;
  for (const FeatureInfo& f : list_features()) {
    if (f.name != "ssim") continue;
    ++seen;
    if (backend == nullptr) {
      EXPECT_EQ(f.backends, std::vector<std::string>{"cpu"}) << f.name;
    } else {
      EXPECT_EQ(f.backends, (std::vector<std::string>{"cpu", backend})) << f.name;
    }
  }
  EXPECT_EQ(seen, 1U);
}

TEST(TwinList, EveryTwinHasItsGpuTests) {
  const std::set<std::string> twins = families_with_twins();
  if (gpu::compiled_backend() == nullptr) {
    EXPECT_TRUE(twins.empty()) << "a twin in a build without a GPU backend";
    return;
  }
  EXPECT_EQ(twins, first_frame_twins())
      << "tests/gpu/CMakeLists.txt's VQX_GPU_TWINS must list every family with a twin";
  std::set<std::string> tested;
  for (const std::string& spec : twin_features()) tested.insert(spec.substr(0, spec.find('=')));
  for (const std::string& twin : twins) {
    EXPECT_EQ(tested.count(twin), 1U) << twin << " is in no twin_features() request";
  }
  std::printf("twins in this build:");
  for (const std::string& twin : twins) std::printf(" %s", twin.c_str());
  std::printf("\n");
}

}  // namespace
}  // namespace vqx::gputest

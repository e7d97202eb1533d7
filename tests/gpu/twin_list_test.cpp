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

// Issue 14's promise: in a GPU build no family the registry knows is
// CPU-only, so a GPU context runs nothing on the CPU but the SVM and
// pooling. A family added without a twin fails here (by name).
TEST(TwinList, EveryFamilyHasATwinInAGpuBuild) {
  const char* backend = gpu::compiled_backend();
  const std::vector<FeatureInfo> families = list_features();
  EXPECT_GE(families.size(), 19U) << "the registry lost families";
  for (const FeatureInfo& f : families) {
    if (backend == nullptr) {
      EXPECT_EQ(f.backends, std::vector<std::string>{"cpu"}) << f.name;
    } else {
      EXPECT_EQ(f.backends, (std::vector<std::string>{"cpu", backend}))
          << f.name << " has no GPU twin";
    }
  }
  if (backend == nullptr) std::printf("no GPU backend in this build: every feature is cpu only\n");
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

// Runs a check once for every Highway target that this build compiled and
// this CPU executes (checkasm-style): each HWY_DYNAMIC_DISPATCH call inside
// `check` then runs that target's code. The kernels written with Highway
// (docs/architecture.md, "CPU kernels") are tested this way against their
// scalar reference forms; targets the CPU lacks (AVX-512 on an AVX2
// machine) are reported by name in the test's output, not silently passed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <hwy/targets.h>

namespace vqx::test {

// The names of the targets `check` ran under, in Highway's order (best
// first). Fails the test if none ran.
template <typename Check>
std::vector<std::string> for_each_simd_target(Check&& check) {
  std::vector<std::string> ran;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    const std::string name = hwy::TargetName(target);
    SCOPED_TRACE("Highway target " + name);
    check(name);
    ran.push_back(name);
  }
  hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
  EXPECT_FALSE(ran.empty()) << "no Highway target ran";
  std::string list;
  for (const std::string& name : ran) {
    list += (list.empty() ? "" : " ") + name;
  }
  ::testing::Test::RecordProperty("simd_targets", list);
  std::string skipped;  // compiled, but this CPU cannot execute them
  for (std::int64_t bit = 1; bit != 0 && bit <= HWY_TARGETS; bit <<= 1) {
    if ((HWY_TARGETS & bit) != 0 && (hwy::SupportedTargets() & bit) == 0) {
      skipped += (skipped.empty() ? "" : " ") + std::string(hwy::TargetName(bit));
    }
  }
  std::printf("[ simd     ] ran under: %s; not executable here: %s\n", list.c_str(),
              skipped.empty() ? "none" : skipped.c_str());
  return ran;
}

}  // namespace vqx::test

// Shared by the parity tests: score a pair through the public API and
// compare with a golden JSON of the reference libvmaf.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vqx/vqx.hpp"

namespace vqx::test {

// The corpus folder, or empty if it is not there (VQX_CORPUS overrides).
std::filesystem::path corpus_dir();

nlohmann::json load_json(const std::filesystem::path& p);

// The three models built on the integer features, named by version as the
// goldens name them.
const std::vector<std::string>& integer_models();

std::unique_ptr<Context> score_pair(const std::string& ref, const std::string& dist,
                                    const std::vector<std::string>& models, unsigned threads,
                                    unsigned max_frames = 0,
                                    const std::vector<std::string>& features = {});

struct CompareOptions {
  bool skip_last_frame = false;  // the clip was cut: its last motion2 differs
  bool pooled = true;
};

// Integer features exactly; model scores within 1e-9; per frame and pooled.
// Returns how many values were compared.
std::size_t expect_matches_golden(const Context& ctx, const nlohmann::json& golden,
                                  const CompareOptions& opts);

}  // namespace vqx::test

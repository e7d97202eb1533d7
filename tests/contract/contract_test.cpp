// The frame-protocol contract check: the real GPU sources pass, and every
// planted violation in fixtures/ is caught under its rule (the numbers
// rules' own tests: numbers_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "contract_check.hpp"
#include "numbers_check.hpp"

namespace vqx::contract {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "// key: value" from a fixture's header.
std::string header(const std::string& text, const std::string& key) {
  const std::string tag = "// " + key + ": ";
  const auto p = text.find(tag);
  if (p == std::string::npos) return "";
  const auto e = text.find('\n', p);
  return text.substr(p + tag.size(), e - p - tag.size());
}

// A fixture's files: its text up to the first "// file: <path>" line is the
// GPU source named by "// as:"; each such line starts another file, a
// params.hpp that the numbers rules read.
std::vector<SourceFile> fixture_files(const std::string& text, const std::string& first) {
  std::vector<SourceFile> files = {{first, ""}};
  std::istringstream in(text);
  const std::string tag = "// file: ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(tag, 0) == 0) {
      files.push_back({line.substr(tag.size()), ""});
    } else {
      files.back().text += line + "\n";
    }
  }
  return files;
}

TEST(Contract, TheRealGpuSourcesPass) {
  const auto files = gpu_sources(VQX_SOURCE_DIR);
  ASSERT_GE(files.size(), 8U) << "no GPU sources found under " << VQX_SOURCE_DIR;
  const auto v = check(files);
  for (const auto& x : v) ADD_FAILURE() << format(x);
  std::printf("checked %zu GPU source files\n", files.size());
}

TEST(Contract, EveryPlantedViolationIsCaught) {
  unsigned fixtures = 0;
  for (const auto& e : fs::directory_iterator(fs::path(VQX_CONTRACT_FIXTURES))) {
    const std::string text = read(e.path());
    const std::string rule = header(text, "expect");
    const std::string as = header(text, "as");
    ASSERT_FALSE(rule.empty()) << e.path() << " has no '// expect:' line";
    const auto files = fixture_files(text, as.empty() ? e.path().string() : as);
    auto v = check({files[0]});
    const auto numbers = check_numbers({files[0]}, {files.begin() + 1, files.end()});
    v.insert(v.end(), numbers.begin(), numbers.end());
    bool caught = false;
    for (const auto& x : v) caught = caught || x.rule == rule;
    EXPECT_TRUE(caught) << e.path().filename() << ": expected a [" << rule << "] violation";
    for (const auto& x : v)
      std::printf("  %s -> %s\n", e.path().filename().c_str(), format(x).c_str());
    ++fixtures;
  }
  EXPECT_GE(fixtures, 6U);
}

TEST(Contract, CleanOrderPasses) {
  const std::string ok = R"(
    Status submit(Slot& slot, Twin& t, const Stream& s) {
      VQX_RETURN_IF_ERROR(upload_rows_async(slot.d, slot.p, slot.h, slot.b, slot.b, slot.r, s));
      VQX_RETURN_IF_ERROR(t.clear(s));
      return t.launch(slot.frame, 0, 0, s);
    }
    class GoodTwin : public gpu::Twin {
      Status clear(const Stream& s) override { return clear_async(sums_, s); }
    };
  )";
  EXPECT_TRUE(check({{"src/gpu/ok.cu", ok}}).empty());
}

}  // namespace
}  // namespace vqx::contract

// The layering rule: the real sources pass, every planted violation in
// layering_fixtures/ is caught under its rule, and what the rule allows
// (same-folder bare names, third-party headers, commented-out includes)
// passes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "layering_check.hpp"

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

std::vector<std::string> rules(const std::vector<Violation>& v) {
  std::vector<std::string> r;
  for (const auto& x : v) r.push_back(x.rule);
  return r;
}

TEST(Layering, TheRealSourcesPass) {
  const auto files = layered_sources(VQX_SOURCE_DIR);
  ASSERT_GE(files.size(), 150U) << "too few sources found under " << VQX_SOURCE_DIR;
  const auto v = check_layering(files);
  for (const auto& x : v) ADD_FAILURE() << format(x);
  std::printf("checked the includes of %zu files\n", files.size());
}

TEST(Layering, TheSourcesCoverEveryLayer) {
  // The check reads the trees it is about (a path mistake would make it
  // pass on nothing).
  const auto files = layered_sources(VQX_SOURCE_DIR);
  for (const char* folder : {"include/vqx/", "src/core/", "src/gpu/", "src/metrics/", "src/io/",
                             "src/model/", "src/output/", "src/engine/", "tools/vqx/"}) {
    bool found = false;
    for (const auto& f : files) found = found || f.path.rfind(folder, 0) == 0;
    EXPECT_TRUE(found) << "no source under " << folder;
  }
}

TEST(Layering, EveryPlantedViolationIsCaught) {
  unsigned fixtures = 0;
  for (const auto& e : fs::directory_iterator(fs::path(VQX_LAYERING_FIXTURES))) {
    const std::string text = read(e.path());
    const std::string rule = header(text, "expect");
    const std::string as = header(text, "as");
    ASSERT_FALSE(rule.empty()) << e.path() << " has no '// expect:' line";
    ASSERT_FALSE(as.empty()) << e.path() << " has no '// as:' line";
    const auto v = check_layering({{as, text}});
    bool caught = false;
    for (const auto& x : v) caught = caught || (x.rule == rule && x.path == as);
    EXPECT_TRUE(caught) << e.path().filename() << ": expected a [" << rule << "] violation";
    for (const auto& x : v) {
      std::printf("  %s -> %s\n", e.path().filename().c_str(), format(x).c_str());
    }
    ++fixtures;
  }
  EXPECT_GE(fixtures, 14U);
}

TEST(Layering, AllowedIncludesPass) {
  const std::vector<SourceFile> files = {
      {"src/engine/context.cpp",
       "#include \"core/registry.hpp\"\n#include \"metrics/registry.hpp\"\n"
       "#include \"gpu/pipeline.hpp\"\n#include \"model/model.hpp\"\n"
       "#include \"output/writers.hpp\"\n#include \"core/thread_pool.hpp\"\n"
       "#include \"vqx/vqx.hpp\"\n#include <vector>\n"},
      {"src/model/resolve.cpp",
       "#include \"metrics/registry.hpp\"\n#include \"core/options.hpp\"\n"},
      {"src/gpu/pipeline.cu", "#include \"core/fork_join.hpp\"\n#include \"gpu/runtime.hpp\"\n"},
      {"src/io/open_video.cpp",
       "#include \"vqx/video_reader.hpp\"\n#include \"io/reader_detail.hpp\"\n"},
      {"src/output/report.hpp", "#include \"vqx/vqx.hpp\"\n"},
      {"tools/vqx/main.cpp",
       "#include \"progress.hpp\"\n#include \"vqx/video_reader.hpp\"\n"
       "#include <CLI/CLI.hpp>\n#include <fmt/format.h>\n"},
      {"tools/vqx/progress.hpp", "#include <chrono>\n"},
      {"include/vqx/vqx.hpp", "#include \"vqx/picture.hpp\"\n#include \"vqx/video_reader.hpp\"\n"},
  };
  const auto v = check_layering(files);
  for (const auto& x : v) ADD_FAILURE() << format(x);
}

TEST(Layering, CommentsAndStringsAreNotIncludes) {
  const std::string text =
      "// #include \"gpu/pipeline.hpp\"\n"
      "/* a block\n#include \"model/model.hpp\"\n*/\n"
      "const char* s = R\"x(\n#include \"output/writers.hpp\"\n)x\";\n"
      "int n = 1'000;  // a digit separator, not a character literal\n"
      "#include \"core/options.hpp\"\n";
  EXPECT_TRUE(check_layering({{"src/core/x.cpp", text}}).empty());
}

TEST(Layering, MessagesNameTheEdgeAndTheLine) {
  const auto v = check_layering(
      {{"src/core/context.cpp", "#include <map>\n\n#include \"gpu/pipeline.hpp\"\n"}});
  ASSERT_EQ(v.size(), 1U);
  EXPECT_EQ(v[0].rule, "layering");
  EXPECT_EQ(v[0].line, 3);
  EXPECT_EQ(format(v[0]),
            "src/core/context.cpp:3: [layering] src/core/ (the core floor) includes "
            "\"gpu/pipeline.hpp\", which is in src/gpu/; it may include src/core/, "
            "src/core/thread_pool.hpp, include/vqx/");
}

TEST(Layering, AFileUnitIsCarvedOutOfItsFolder) {
  // core/ is open to gpu/, but core/thread_pool.hpp is not; metrics/ is
  // closed to model/, but metrics/registry.hpp is open.
  EXPECT_EQ(rules(check_layering({{"src/gpu/a.cu", "#include \"core/thread_pool.hpp\"\n"}})),
            std::vector<std::string>{"layering"});
  EXPECT_TRUE(check_layering({{"src/gpu/a.cu", "#include \"core/extractor.hpp\"\n"}}).empty());
  EXPECT_EQ(rules(check_layering({{"src/model/a.cpp", "#include \"metrics/adm/params.hpp\"\n"}})),
            std::vector<std::string>{"layering"});
}

}  // namespace
}  // namespace vqx::contract

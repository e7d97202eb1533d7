// Replays every fuzz target over its seed corpus (seeds/<target>/) and over
// the inputs of every crash the fuzzers found (regressions/<target>/), in
// builds without libFuzzer (GCC, the release and ASan presets of CI). The
// targets' sources are compiled into this binary with their entry point
// renamed (tests/fuzz/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define VQX_FUZZ_DECLARE(name) \
  extern "C" int vqx_fuzz_##name(const std::uint8_t* data, std::size_t size);
VQX_FUZZ_DECLARE(y4m)
VQX_FUZZ_DECLARE(raw)
VQX_FUZZ_DECLARE(model_json)
VQX_FUZZ_DECLARE(cli)
VQX_FUZZ_DECLARE(specs)
#if VQX_FUZZ_HAVE_LIBAV
VQX_FUZZ_DECLARE(libav)
#endif

namespace {

namespace fs = std::filesystem;

using Entry = int (*)(const std::uint8_t*, std::size_t);

// Runs `fn` on every file under seeds/<name> and regressions/<name>;
// returns how many it ran.
std::size_t replay(const std::string& name, Entry fn) {
  std::size_t n = 0;
  for (const char* kind : {"seeds", "regressions"}) {
    const fs::path dir = fs::path(VQX_FUZZ_DIR) / kind / name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      SCOPED_TRACE(f.string());
      std::ifstream in(f, std::ios::binary);
      const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
      const std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
      EXPECT_EQ(fn(data.data(), data.size()), 0);
      ++n;
    }
  }
  return n;
}

#define VQX_FUZZ_REPLAY(name) \
  TEST(FuzzReplay, name) { EXPECT_GT(replay(#name, &vqx_fuzz_##name), 0U); }
VQX_FUZZ_REPLAY(y4m)
VQX_FUZZ_REPLAY(raw)
VQX_FUZZ_REPLAY(model_json)
VQX_FUZZ_REPLAY(cli)
VQX_FUZZ_REPLAY(specs)
#if VQX_FUZZ_HAVE_LIBAV
VQX_FUZZ_REPLAY(libav)
#endif

}  // namespace

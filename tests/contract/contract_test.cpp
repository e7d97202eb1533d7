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

// Every source of the twins added in issues 13 and 14 is read by the check
// (the file names the rules of is_gpu_source must take), and no device code
// hides in a file it does not read (the test below).
TEST(Contract, TheNewTwinSourcesAreChecked) {
  const auto files = gpu_sources(VQX_SOURCE_DIR);
  for (const char* want :
       {// float_ssim, float_ms_ssim
        "src/metrics/ssim/gpu.hpp", "src/metrics/ssim/ssim_gpu.cu",
        "src/metrics/ssim/ms_ssim_gpu.cu", "src/metrics/ssim/gpu_window.cuh",
        "src/metrics/ssim/gpu_decimate.cuh", "src/metrics/ssim/gpu_images.cuh",
        // speed_chroma, speed_temporal
        "src/metrics/speed/gpu.hpp", "src/metrics/speed/chroma_gpu.cu",
        "src/metrics/speed/temporal_gpu.cu", "src/metrics/speed/gpu_band.cu",
        "src/metrics/speed/gpu_band.cuh", "src/metrics/speed/gpu_kernels.cuh",
        // cambi
        "src/metrics/cambi/gpu.hpp", "src/metrics/cambi/gpu.cu",
        "src/metrics/cambi/gpu_kernels.cuh", "src/metrics/cambi/gpu_pool_kernels.cuh",
        "src/metrics/cambi/gpu_buffers.cuh",
        // ssimulacra2
        "src/metrics/ssimulacra2/gpu.hpp", "src/metrics/ssimulacra2/gpu.cu",
        "src/metrics/ssimulacra2/gpu_kernels.cuh",
        // float_adm, float_vif, float_motion and their shared steps
        "src/metrics/float_common/gpu_kernels.cuh", "src/metrics/float_common/gpu_images.cuh",
        "src/metrics/float_adm/gpu.hpp", "src/metrics/float_adm/gpu.cu",
        "src/metrics/float_adm/gpu_kernels.cuh", "src/metrics/float_vif/gpu.hpp",
        "src/metrics/float_vif/gpu.cu", "src/metrics/float_vif/gpu_kernels.cuh",
        "src/metrics/float_motion/gpu.hpp", "src/metrics/float_motion/gpu.cu",
        // ssim (integer SSIM)
        "src/metrics/integer_ssim/gpu.hpp", "src/metrics/integer_ssim/gpu.cu",
        "src/metrics/integer_ssim/gpu_kernels.cuh",
        // float_ansnr
        "src/metrics/ansnr/gpu.hpp", "src/metrics/ansnr/gpu.cu",
        "src/metrics/ansnr/gpu_kernels.cuh",
        // psnr_hvs
        "src/metrics/psnr_hvs/gpu.hpp", "src/metrics/psnr_hvs/gpu.cu",
        "src/metrics/psnr_hvs/gpu_kernels.cuh",
        // ciede
        "src/metrics/ciede/gpu.hpp", "src/metrics/ciede/gpu.cu",
        "src/metrics/ciede/gpu_kernels.cuh",
        // the exact sequential sums (psnr_hvs, ciede, ssim)
        "src/gpu/chain_sum.cuh", "src/gpu/chain_sums.cuh"}) {
    bool found = false;
    for (const auto& f : files) found = found || f.path == want;
    EXPECT_TRUE(found) << want << " is not among the checked GPU sources";
  }
  // The arithmetic both twins call: plain constexpr headers, among the
  // sources checked for device code (none may hide there).
  const auto others = other_sources(VQX_SOURCE_DIR);
  for (const char* shared :
       {"src/metrics/ssim/pointwise.hpp", "src/metrics/speed/pointwise.hpp",
        "src/metrics/cambi/pointwise.hpp", "src/metrics/ssimulacra2/pointwise.hpp",
        "src/metrics/ssimulacra2/recursion.hpp"}) {
    bool found = false;
    for (const auto& f : others) found = found || f.path == shared;
    EXPECT_TRUE(found) << shared << " is not among the sources checked for device code";
  }
}

TEST(Contract, DeviceCodeIsOnlyInTheCheckedSources) {
  const auto others = other_sources(VQX_SOURCE_DIR);
  ASSERT_GE(others.size(), 100U);
  for (const auto& x : check_device_code_placement(others)) ADD_FAILURE() << format(x);
  std::printf("checked %zu other source files for device code\n", others.size());
}

TEST(Contract, DeviceCodeInAPlainHeaderIsCaught) {
  const std::vector<std::pair<std::string, std::string>> planted = {
      {"src/metrics/fixture/window.hpp",
       "__device__ inline float twice(float v) { return 2 * v; }"},
      {"src/metrics/fixture/sums.hpp",
       "template <int N> __global__ void k(float* p) { p[0] = N; }"},
      {"src/metrics/fixture/run.cpp", "void run(float* p) { k<3><<<1, 32, 0, s>>>(p); }"},
      {"src/metrics/fixture/table.hpp", "namespace x { __constant__ float c_taps[3]; }"},
  };
  for (const auto& [path, text] : planted) {
    const auto v = check_device_code_placement({{path, text}});
    ASSERT_EQ(v.size(), 1U) << path;
    EXPECT_EQ(v[0].rule, "device-code-placement");
    std::printf("  %s -> %s\n", path.c_str(), format(v[0]).c_str());
  }
  // Mentions in comments and strings, shifts and templates are not device code.
  const std::string clean =
      "// __device__ code goes in .cuh files\n"
      "const char* k = \"__global__\";\n"
      "int f(int a) { return (a << 2) < 3 ? a << 1 : std::vector<int>{}.size(); }";
  EXPECT_TRUE(check_device_code_placement({{"src/metrics/fixture/ok.hpp", clean}}).empty());
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

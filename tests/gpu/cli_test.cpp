// Every model, every feature, on the GPU, through the `vqx` command (issue
// 14): on every corpus pair present (VQX_GPU_CORPUS_DIR, else
// tests/data/corpus_subset), `vqx --backend cuda|hip` with all 17 libvmaf
// features, ssimulacra2, integer SSIM and all 13 built-in models writes the
// values `--backend cpu` writes, bit for bit (JSON at round-trip
// precision), and its backend record names no feature computed on the CPU:
// only the model scores are the host's.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "gpu/pipeline.hpp"
#include "gpu_test_util.hpp"
#include "model/builtin_models.hpp"
#include "vqx/features.hpp"
#include "vqx/video_reader.hpp"

namespace vqx::gputest {
namespace {

namespace fs = std::filesystem;

// The vqx command beside this test's binary (build/tests/gpu/ -> build/),
// or VQX_CLI.
fs::path vqx_command() {
  if (const char* env = std::getenv("VQX_CLI")) return env;
  return fs::read_symlink("/proc/self/exe").parent_path().parent_path().parent_path() / "vqx";
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Runs the command; its exit status, stderr in `err`.
int run(const std::string& command, std::string& err) {
  const fs::path err_file =
      fs::temp_directory_path() / ("vqx_cli_test_" + std::to_string(getpid()) + ".err");
  const int rc = std::system((command + " 2>" + quoted(err_file.string())).c_str());
  std::ifstream in(err_file);
  err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fs::remove(err_file);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(GpuCli, EveryFeatureAndModelOnEveryCorpusPairEqualsTheCpu) {
  VQX_REQUIRE_GPU();
  const fs::path vqx = vqx_command();
  ASSERT_TRUE(fs::exists(vqx)) << vqx << " (set VQX_CLI)";
  const char* env = std::getenv("VQX_GPU_CORPUS_DIR");
  const fs::path dir =
      env != nullptr ? fs::path(env) : fs::path(VQX_TEST_DATA_DIR) / "corpus_subset";
  const char* frames_env = std::getenv("VQX_GPU_CORPUS_FRAMES");
  const std::string frames = frames_env != nullptr ? frames_env : "3";
  const std::string backend = gpu::compiled_backend();
  const fs::path out = fs::temp_directory_path() / ("vqx_cli_test_" + std::to_string(getpid()));
  fs::create_directories(out);
  // Every family the registry knows (libvmaf's 17, ssimulacra2 and integer
  // SSIM) and every built-in model (the v0.6.x five, the v1.0.16 and _hfr
  // eight).
  ASSERT_GE(list_features().size(), 19U);
  ASSERT_GE(detail::builtin_model_files().size(), 13U);
  unsigned pairs = 0;
  for (const auto& [ref, dist] : corpus_pairs(dir)) {
    auto video = open_video(ref.string(), std::nullopt);
    ASSERT_TRUE(video.ok()) << ref;
    const PictureFormat fmt = (*video)->format();
    // What the pictures take (P9, 176x144, is too small for SpEED and
    // CAMBI: it gets the other features and the models that do not read
    // them).
    std::string args;
    bool all_fit = true;
    for (const FeatureInfo& info : list_features()) {
      const std::string& f = info.name;
      if (fits(f, fmt)) {
        args += " --feature " + f;
      } else {
        all_fit = false;
      }
    }
    std::set<std::string> models;
    for (const detail::BuiltinModelFile& file : detail::builtin_model_files()) {
      const std::string m(file.version);
      if (!all_fit && m.rfind("vmaf_v1.0.16", 0) == 0) continue;
      args += " -m version=" + m + ":name=" + m;
      models.insert(m);
    }
    const std::string what = dist.filename().string();
    nlohmann::json result[2];
    for (int side = 0; side < 2; ++side) {
      const fs::path json = out / (side == 0 ? "cpu.json" : "gpu.json");
      const std::string command =
          quoted(vqx.string()) + " -r " + quoted(ref.string()) + " -d " + quoted(dist.string()) +
          " --frame_cnt " + frames + " --json --precision max -q --backend " +
          (side == 0 ? "cpu" : backend) + args + " -o " + quoted(json.string());
      std::string err;
      ASSERT_EQ(run(command, err), 0) << what << ": " << command << "\n" << err;
      std::ifstream in(json);
      result[side] = nlohmann::json::parse(in);
    }
    const nlohmann::json& cpu = result[0];
    const nlohmann::json& gpu = result[1];
    ASSERT_FALSE(cpu["frames"].empty()) << what;
    // Round-trip text: equal values are equal doubles.
    EXPECT_EQ(cpu["frames"], gpu["frames"]) << what;
    EXPECT_EQ(cpu["pooled_metrics"], gpu["pooled_metrics"]) << what;
    EXPECT_FALSE(cpu.contains("backend")) << what;
    ASSERT_TRUE(gpu.contains("backend")) << what;
    unsigned on_gpu = 0;
    for (const auto& [metric, where] : gpu["backend"]["metrics"].items()) {
      // A model's score, and the bootstrap model's per-model scores, bagging,
      // stddev and interval (vmaf_b_v0.6.3_*): the host's.
      bool model = false;
      for (const std::string& m : models) model = model || metric.rfind(m, 0) == 0;
      if (model) continue;
      EXPECT_EQ(where.get<std::string>(), backend) << what << ": " << metric;
      ++on_gpu;
    }
    EXPECT_EQ(gpu["backend"]["metrics"].size(), cpu["frames"][0]["metrics"].size()) << what;
    std::printf("%s: %zu outputs equal, %u computed on %s\n", what.c_str(),
                cpu["frames"][0]["metrics"].size(), on_gpu, backend.c_str());
    ++pairs;
  }
  fs::remove_all(out);
  EXPECT_GT(pairs, 0U) << "no corpus pair in " << dir;
}

}  // namespace
}  // namespace vqx::gputest

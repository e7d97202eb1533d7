// Shared helpers of the GPU tests: synthetic and adversarial pictures, runs
// of one video through a context on a given backend, and the twin
// comparison rule (ARCHITECTURE.md section 6: integer features and the
// model scores built on them bit-identical, float features within 1e-6).
#pragma once

#include <gtest/gtest.h>
#include <filesystem>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vqx/vqx.hpp"

namespace vqx::gputest {

// Whether this build has a GPU backend and a device is present; if not,
// why (printed when a test skips).
bool gpu_available();
std::string skip_reason();

#define VQX_REQUIRE_GPU()                                                                \
  do {                                                                                   \
    if (!::vqx::gputest::gpu_available()) GTEST_SKIP() << ::vqx::gputest::skip_reason(); \
  } while (0)

// The backend this build's GPU has (kCuda or kHip); kCpu when none.
Backend gpu_backend();

enum class Content {
  kNoise,    // uniform over the full range
  kFlat,     // one mid-grey value
  kMax,      // every sample at the maximum
  kZero,     // every sample 0
  kSmooth,   // smooth pattern with fine texture, moving with the frame number
  kChecker,  // 4x4 checkerboard of 0 and the maximum
  kRamp,     // horizontal gradient over the full range
};

// `frame` moves kSmooth (so that motion sees motion); `seed` varies noise.
Picture make_picture(const PictureFormat& fmt, Content c, unsigned frame, std::uint32_t seed);
// `ref` plus uniform noise in [-amplitude, amplitude], clamped.
Picture distort(const Picture& ref, unsigned amplitude, std::uint32_t seed);
// `src`'s samples into `dst`, a picture of the same format.
void copy_samples(Picture& dst, const Picture& src);
Picture clone(const Picture& p);

struct FramePair {
  Picture ref;
  Picture dist;
};
using Video = std::vector<FramePair>;

// `frames` frames: ref of content `ref_c`; dist = ref distorted by
// `amplitude` (or, with `dist_c` set, a picture of that content).
Video make_video(const PictureFormat& fmt, Content ref_c, unsigned frames, unsigned amplitude,
                 std::uint32_t seed, std::optional<Content> dist_c = std::nullopt);

struct Run {
  std::map<std::string, std::vector<double>> values;  // metric -> per frame
  std::map<std::string, std::string> backends;        // metric -> "cpu", "cuda", "hip"
};

struct RunOptions {
  Backend backend = Backend::kCpu;
  unsigned threads = 0;
  std::vector<std::string> features;  // --feature specs
  std::vector<std::string> models;    // --model specs
};

// A fresh context of `o`'s backend and threads, its models and features
// registered.
Expected<std::unique_ptr<Context>> make_context(const RunOptions& o);
// Scores `video` (copies of its pictures) in a fresh context.
Expected<Run> score(const RunOptions& o, const Video& video);
// Scores `video` with `o` on the CPU and on this build's GPU backend: both
// must refuse it, with the same message (a twin refuses what its CPU twin
// refuses, as its CPU twin says it).
void expect_same_refusal(RunOptions o, const Video& video, const std::string& what);

// A synthetic case of the parity tests: the pictures' format and contents.
struct ParityCase {
  unsigned w, h, bpc;
  ChromaFormat chroma;
  Content ref;
  std::optional<Content> dist;  // else ref + noise of `amplitude`
  unsigned amplitude;
};
// "1920x1080 10-bit 4:2:0 <what>", naming a case in failures.
std::string describe(const PictureFormat& f, const std::string& what);
// The values and backends of a flushed context.
Run read_run(const Context& ctx);

// The twin rule, per metric and frame; `what` names the case in failures.
// Also checks that every feature with a GPU twin ran on the GPU. Integer
// features (integer SSIM's "ssim" among them), the model scores built on them, and the float
// features whose twins are bit-identical by construction (float_ssim*, float_ms_ssim*, speed_*,
// cambi*, float_ansnr, float_anpsnr, psnr_hvs*, ciede2000, and float_adm's, float_vif's and
// float_motion's adm*, aim*, vif*, motion*: docs/gpu.md) must be equal to the bit; the other float
// features (and float_adm's with adm_p_norm other than 3, "_apn_") within ARCHITECTURE.md's 1e-6.
void expect_twins_agree(const Run& cpu, const Run& gpu, const std::string& what);
// Bit-identical runs (determinism).
void expect_identical(const Run& a, const Run& b, const std::string& what);

// Every feature that has a GPU twin, with option variants.
std::vector<std::string> twin_features();
// Variants that write names a twin_features() request writes with other
// values (psnr's reduced_hbd_peak, min_sse; float_ssim's and float_ms_ssim's
// enable_db, clip_db and scale): a context refuses them beside those (one
// producer per output name), so they are scored in contexts of their own,
// one per group.
std::vector<std::vector<std::string>> twin_features_apart();
// The models whose features all have twins.
std::vector<std::string> twin_models();
// The float_ssim and float_ms_ssim variants: every option and every
// output, grouped by context as twin_features_apart() is.
std::vector<std::vector<std::string>> ssim_feature_groups();
// The speed_chroma and speed_temporal variants: every option of each (one
// context holds them all: every SpEED option renames the outputs).
std::vector<std::vector<std::string>> speed_feature_groups();
// The ssimulacra2 variants: every matrix, range and transfer (24; one
// context holds them all: every option renames the output).
std::vector<std::string> ssimulacra2_variants();
// Whether a feature request takes pictures of `fmt` (float_ms_ssim needs
// 176 samples per side, float_ssim its window after subsampling; SpEED
// (one 5x5 block after decimating by 16: 80x80 luma for speed_temporal,
// 80x80 chroma for speed_chroma, each scaled by the prescale), cambi,
// float_adm, float_vif, float_motion, float_ansnr, psnr_hvs and ciede are
// asked through their CPU extractors' own checks; the others take every
// size the GPU tests use).
bool fits(const std::string& spec, const PictureFormat& fmt);
// The contexts that together score every twin variant that fits `fmt`:
// twin_features() with twin_models(), then each group of
// twin_features_apart().
std::vector<RunOptions> twin_runs(Backend backend, unsigned threads, const PictureFormat& fmt);

// The pairs in `dir`: a distorted file NAME__ENCODING.y4m and its reference,
// the file without "__" whose name after the clip's id is NAME's and whose
// id begins NAME's (P1a_pan_..., P1b_pan_... are P1_pan_...'s).
std::vector<std::pair<std::filesystem::path, std::filesystem::path>> corpus_pairs(
    const std::filesystem::path& dir);

}  // namespace vqx::gputest

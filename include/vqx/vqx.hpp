// VQX: video quality measurement with the reference libvmaf's numbers.
//
//   auto ctx = vqx::Context::create({.threads = 2});
//   ctx.value()->use_model("version=vmaf_v0.6.1");
//   for (...) ctx.value()->read_pictures(std::move(ref), std::move(dist), i);
//   ctx.value()->flush();
//   double score = ctx.value()->score_at_index("vmaf", 0).value();
//
// Contexts are independent: a process may hold many, of any sizes, and use
// them from different threads at once (one thread per context at a time,
// except for fetch_picture()).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vqx/output_files.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/temporal_reach.hpp"

namespace vqx {

const char* version();

// Where features are computed. kAuto takes the GPU when this build has a
// GPU backend and a device is present, else the CPU; kCuda and kHip fail
// (at Context::create) when that backend or its device is not there, never
// falling back to the CPU. Features without a GPU twin run on the CPU
// whatever the backend; metric_backend() says which computed each one.
enum class Backend { kAuto, kCpu, kCuda, kHip };

// The device index (for ContextSettings::gpu) of a GPU context that a
// program made itself through the vendor's driver API: a CUcontext in a
// CUDA build (libvmaf_cuda.h's cu_ctx). VQX then computes on that device,
// in its own streams. kUnsupported in a build without CUDA.
Expected<unsigned> gpu_device_of_native_context(void* native_context);

// The most worker threads a context runs (ContextSettings::threads).
inline constexpr unsigned kMaxThreads = 256;

struct ContextSettings {
  // Worker threads. 0 or 1 computes each frame on the calling thread; more
  // keeps several frames in flight. Results are identical for any value.
  unsigned threads = 0;
  // Compute the non-temporal features (and model scores) of every n-th frame.
  unsigned subsample = 1;
  Backend backend = Backend::kAuto;
  // The GPU's index among the backend's devices.
  unsigned gpu = 0;
  // The set the context's files go to (write_output(), CAMBI's heatmaps):
  // a program that holds a run's files gives its contexts one set
  // (vqx/output_files.hpp). Null: the context makes a private set of its
  // own, which renames each file into place as soon as it is complete.
  std::shared_ptr<OutputFiles> output_files = nullptr;
};

enum class PoolMethod { kMin, kMax, kMean, kHarmonicMean };

enum class OutputFormat { kXml, kJson, kCsv, kSub };

// The model a run uses when none is named (the CLI without -m, vqx.score()
// with models=None; python/vqx/_args.py spells it again for now): the
// reference vmaf tool's default, its score named "vmaf".
inline constexpr const char* kDefaultModel = "version=vmaf_v0.6.1:name=vmaf";

// Digits after the decimal point in output files; kPrecisionDefault is the
// reference tool's own formatting, kPrecisionMax round-trips every double.
inline constexpr int kPrecisionDefault = -1;
inline constexpr int kPrecisionMax = 17;

struct RunValues;  // vqx/run_values.hpp

namespace detail {
struct ContextInternals;  // VQX's own tests' access (src/engine/context_internals.hpp)
}

class Context {
 public:
  static Expected<std::unique_ptr<Context>> create(const ContextSettings& settings);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // "psnr", "adm=debug=true", "vif=vif_enhn_gain_limit=1.0:debug=true".
  Status use_feature(std::string_view spec);
  Status use_feature(std::string_view name, const std::map<std::string, std::string>& options);
  // A model spec as the CLI's --model takes it: "version=vmaf_v0.6.1",
  // "path=m.json:name=x", "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0".
  // Registers the features the model needs.
  Status use_features_from_model(std::string_view model_spec);

  // A picture of the given format, recycled from this context's pool when
  // one is free (no allocation in steady state). Safe to call from any
  // thread, also while another calls read_pictures() (the reader threads
  // of vqx/read_ahead.hpp do), until the context is destroyed.
  Expected<Picture> fetch_picture(const PictureFormat& fmt);
  // The caller holds up to `pictures` from fetch_picture() besides the
  // frames it has handed to read_pictures() (a read-ahead's: two videos,
  // `depth` each, vqx/read_ahead.hpp): the pool keeps as many more given
  // back for reuse (otherwise they would be freed and allocated again,
  // frame after frame). Calls add up; call it before the pictures are
  // fetched. A kLimit error when the room cannot be had.
  Status reserve_pictures(unsigned pictures);
  // The planes of each picture that the registered features read: 1 when
  // every one reads the luma alone (a reader may then leave the chroma
  // unread: VideoReader::read_planes), else 3. Ask once the features and
  // models are registered. A picture marked as holding its luma alone is
  // refused by a context that reads more.
  [[nodiscard]] unsigned planes_read() const;
  // Frames must come with index 0, 1, 2, ...; ref and dist must share one
  // format, the same for every frame.
  Status read_pictures(Picture ref, Picture dist, unsigned index);
  // A value of one frame computed elsewhere (libvmaf's
  // vmaf_import_feature_score): reported, pooled and written like the
  // context's own metrics, for the frames the context reads (metric_backend
  // says "imported"). Errors: an empty name, a name a registered feature or
  // model writes (and registering one later that writes it), a second value
  // for a frame, a value that is not finite, a call after flush().
  Status import_feature_score(std::string_view name, double value, unsigned index);
  // Waits for every frame, finishes temporal features and computes model
  // scores. Call once, after the last frame.
  Status flush();

  // A model score or a feature value of one frame (after flush).
  [[nodiscard]] Expected<double> score_at_index(std::string_view name, unsigned index) const;
  [[nodiscard]] Expected<double> pooled_score(std::string_view name, PoolMethod method) const;
  // A whole-video value such as apsnr_y (after flush).
  [[nodiscard]] Expected<double> aggregate_score(std::string_view name) const;
  // The names of the whole-video values (after flush), in output order.
  [[nodiscard]] std::vector<std::string> aggregate_names() const;
  [[nodiscard]] std::vector<std::string> metric_names() const;
  // The names of the models' main scores, in registration order.
  [[nodiscard]] std::vector<std::string> model_names() const;
  [[nodiscard]] unsigned frame_count() const;
  // "cpu", "cuda" or "hip": what computed a feature's values (model scores
  // are computed on the CPU from them).
  [[nodiscard]] Expected<std::string> metric_backend(std::string_view name) const;
  // The device in use, e.g. "cuda:0 NVIDIA H200, 132 multiprocessors,
  // warp 32"; "cpu" when no GPU is used.
  [[nodiscard]] std::string device_description() const;

  // Writes every metric, per frame and pooled, in the reference's schemas.
  // The file appears only if the whole write succeeded.
  Status write_output(const std::string& path, OutputFormat format,
                      int precision = kPrecisionDefault, double fps = 0) const;
  // What write_output() writes, copied out of the context (after flush;
  // include vqx/run_values.hpp to use it).
  [[nodiscard]] Expected<RunValues> run_values() const;

  // The frames before and after a frame that its values depend on, over
  // every registered feature and model (0 and 0 when none is temporal).
  // nullopt when some value depends on the whole video: an aggregate
  // (psnr's apsnr) or a file written over the run (CAMBI's heatmaps).
  [[nodiscard]] std::optional<TemporalReach> temporal_reach() const;

 private:
  friend struct detail::ContextInternals;
  struct Impl;
  explicit Context(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace vqx

// The context: the public vqx::Context. It registers extractors and models
// (registration.cpp), chooses the backend (backend.cpp), hands frames to its
// scheduler (scheduler.cpp), predicts (prediction.cpp), pools and writes
// (report_assembly.cpp). Everything it uses is owned by it: no global state.
#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>
#include <optional>

#include "core/feature_spec.hpp"
#include "core/picture_internals.hpp"
#include "engine/backend.hpp"
#include "engine/context_internals.hpp"
#include "engine/feature_collector.hpp"
#include "engine/neutral_chroma.hpp"
#include "engine/no_throw.hpp"
#include "engine/pooling.hpp"
#include "engine/prediction.hpp"
#include "engine/registration.hpp"
#include "engine/report_assembly.hpp"
#include "engine/sample_range.hpp"
#include "engine/scheduler.hpp"
#include "engine/slot_writer.hpp"
#include "gpu/pipeline.hpp"
#include "output/atomic_file.hpp"
#include "output/report.hpp"
#include "output/writers.hpp"
#include "vqx/run_values.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

const char* version() { return "0.1.0"; }

struct Context::Impl {
  ContextSettings settings;
  // The context's surroundings: output_files is the settings' set, or a
  // private one (never null).
  ExtractorEnv env;
  FeatureCollector collector;
  Aggregates aggregates;  // whole-video values, in write order
  Registrations registrations{collector};
  std::optional<PictureFormat> format;  // the pictures' (set at the first frame)
  // Set at the first frame when it is 4:0:0 and a registered extractor
  // reads chroma: the families see 4:2:0 with neutral chroma. Under
  // neutral_mutex: fetch_picture() uses it on the readers' threads while
  // read_pictures() sets it and widens pictures with it.
  std::mutex neutral_mutex;
  std::optional<NeutralChroma> neutral;
  // The metrics whose values import_feature_score() gave.
  std::vector<std::string> imported;
  unsigned next_index = 0;
  // While read_batch_pictures() hands a frame over: its reference frame's
  // number in the batch (the GPU pipeline's shared upload); else 0.
  std::uint64_t batch_reference_frame = 0;
  bool flushed = false;
  Status flush_status;  // what flush() returned
  std::unique_ptr<FrameScheduler> scheduler;
  std::unique_ptr<gpu::Pipeline> gpu;  // null: everything on the CPU

  [[nodiscard]] std::vector<unsigned> reported_frames() const;
  // Ok when the results are complete: flush() was called and succeeded.
  // Before it, values are missing or still being computed.
  [[nodiscard]] Status results_ready(const char* call) const;
  Status finish();  // flush()'s work
  // What the JSON records under "settings" (src/output/report.hpp).
  [[nodiscard]] ReportSettings run_settings() const;
  // Whether any family's frames go to the GPU.
  [[nodiscard]] bool gpu_frames() const { return gpu && !gpu->empty(); }
  [[nodiscard]] bool frame_is_sampled(unsigned i) const {
    return settings.subsample <= 1 || i % settings.subsample == 0;
  }
};

std::vector<unsigned> Context::Impl::reported_frames() const {
  std::vector<unsigned> frames;
  for (unsigned i = 0; i < next_index; ++i) {
    if (frame_is_sampled(i)) frames.push_back(i);
  }
  return frames;
}

Status Context::Impl::results_ready(const char* call) const {
  if (!flushed) {
    return Error(Errc::kInvalidArgument,
                 std::string(call) +
                     " before flush(): the scores are complete only once flush() has returned");
  }
  return flush_status;  // a failed flush's error: its results are not to be used
}

Context::Context(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Context::~Context() {
  if (!impl_) return;
  // Waits for the frames in flight and joins the workers before anything
  // they touch goes away.
  impl_->scheduler.reset();
}

Expected<std::unique_ptr<Context>> Context::create(const ContextSettings& settings) {
  if (settings.subsample == 0) {
    return Error(Errc::kInvalidArgument, "subsample must be at least 1");
  }
  if (settings.threads > kMaxThreads) {
    return Error(Errc::kInvalidArgument, "threads must be at most " + std::to_string(kMaxThreads));
  }
  auto impl = std::make_unique<Impl>();
  impl->settings = settings;
  impl->env.output_files =
      settings.output_files ? settings.output_files : std::make_shared<OutputFiles>();
  VQX_ASSIGN_OR_RETURN(impl->gpu, open_backend(settings));
  VQX_ASSIGN_OR_RETURN(impl->scheduler,
                       FrameScheduler::create(settings.threads, impl->registrations.extractors(),
                                              impl->collector, impl->env));
  if (impl->gpu) {
    // New pictures in the pipeline's pinned memory, so that their planes
    // are uploaded straight from their rows (docs/gpu.md). The pipeline
    // outlives the scheduler (~Context).
    impl->scheduler->set_picture_maker(
        [gpu = impl->gpu.get()](const PictureFormat& fmt) { return gpu->make_picture(fmt); },
        impl->gpu->picture_memory());
  }
  return std::unique_ptr<Context>(new Context(std::move(impl)));
}

Status Context::use_feature(std::string_view spec) {
  VQX_ASSIGN_OR_RETURN(FeatureRequest req, parse_feature_spec(spec));
  return use_feature(req.name, req.options);
}

Status Context::use_feature(std::string_view name,
                            const std::map<std::string, std::string>& options) {
  return impl_->registrations.add_feature(name, options);
}

Status Context::use_features_from_model(std::string_view model_spec) {
  return impl_->registrations.add_model(model_spec);
}

// Called on any thread (vqx/read_ahead.hpp's readers): the scheduler's
// recycling list has its own lock, the neutral chroma this one.
Expected<Picture> Context::fetch_picture(const PictureFormat& fmt) {
  Impl& s = *impl_;
  {
    std::lock_guard lock(s.neutral_mutex);
    // The recycled pictures are the 4:2:0 ones the families saw.
    if (s.neutral && fmt == s.neutral->gray_format()) {
      if (auto p = s.scheduler->take_recycled(s.neutral->colour_format())) {
        return s.neutral->narrow(std::move(*p));
      }
    }
  }
  // A new gray picture comes from the pool's maker too (in a GPU context
  // its luma is pinned; the neutral chroma planes are staged).
  return s.scheduler->fetch_picture(fmt);
}

Status Context::reserve_pictures(unsigned pictures) {
  return impl_->scheduler->reserve_pictures(pictures);
}

namespace {

// Whether a registered extractor reads chroma planes.
bool any_reads_chroma(const std::deque<RegisteredExtractor>& extractors) {
  for (const auto& r : extractors) {
    if (r.spec.reads_chroma) return true;
  }
  return false;
}

}  // namespace

unsigned Context::planes_read() const {
  for (const auto& r : impl_->registrations.extractors()) {
    if (!r.spec.luma_only) return 3;
  }
  return 1;
}

namespace {

// A picture a reader filled with its luma alone, given to a context that
// reads its chroma: refused, never scored with stale chroma.
Status check_planes_filled(const Context& ctx, const Picture& pic, const char* which,
                           unsigned index) {
  if (!detail::PictureInternals::luma_only(pic) || ctx.planes_read() == 1) return Status::Ok();
  return Error(Errc::kInvalidArgument,
               std::string("the ") + which + " picture of frame " + std::to_string(index) +
                   " holds its luma alone (read with read_planes(1)), but a feature of this "
                   "context reads its chroma");
}

}  // namespace

Status Context::read_pictures(Picture ref, Picture dist, unsigned index) {
  Impl& s = *impl_;
  if (s.flushed) return Error(Errc::kInvalidArgument, "read_pictures after flush");
  // A context that has failed stays failed: the same error, every call.
  if (Status failed = s.scheduler->first_error(); !failed.ok()) return failed;
  if (index != s.next_index) {
    return Error(Errc::kInvalidArgument, "frame index " + std::to_string(index) + " given where " +
                                             std::to_string(s.next_index) + " was expected");
  }
  if (!(ref.format() == dist.format())) {
    return Error(Errc::kMismatch,
                 "reference and distorted pictures differ in size, bit depth "
                 "or chroma format");
  }
  if (ref.plane_count() == 0 || ref.width() == 0) {
    return Error(Errc::kInvalidArgument, "empty picture");
  }
  // Before any family reads them (the error leaves the context usable).
  VQX_RETURN_IF_ERROR(check_planes_filled(*this, ref, "reference", index));
  VQX_RETURN_IF_ERROR(check_planes_filled(*this, dist, "distorted", index));
  // Shared with the workers in a GPU context, whose workers have little
  // else to do (on the CPU they are busy with earlier frames, and a share
  // queued behind those would hold this thread up instead).
  VQX_RETURN_IF_ERROR(
      check_sample_range(ref, dist, index, s.gpu_frames() ? s.scheduler->fork_join() : nullptr));
  if (!s.format) {
    if (ref.format().chroma == ChromaFormat::k400 &&
        any_reads_chroma(s.registrations.extractors())) {
      std::lock_guard lock(s.neutral_mutex);
      s.neutral.emplace(ref.format());
    }
    const PictureFormat scored = s.neutral ? s.neutral->colour_format() : ref.format();
    const Status init = no_throw("setting up the features", [&] {
      return init_extractors(s.registrations.extractors(), s.gpu.get(), s.env, s.collector,
                             s.aggregates, scored);
    });
    if (!init.ok()) {  // half set up: never to be used again
      s.scheduler->record(init);
      return init;
    }
    s.format = ref.format();
    s.registrations.close();
  } else if (!(*s.format == ref.format())) {
    return Error(Errc::kMismatch,
                 "frame " + std::to_string(index) + " has a different format from the first frame");
  }
  if (s.neutral) {  // 4:0:0 scored as 4:2:0 with neutral chroma (docs/metrics.md)
    std::lock_guard lock(s.neutral_mutex);
    VQX_ASSIGN_OR_RETURN(ref, s.neutral->widen(std::move(ref)));
    VQX_ASSIGN_OR_RETURN(dist, s.neutral->widen(std::move(dist)));
  }
  ++s.next_index;
  const bool sampled = s.frame_is_sampled(index);
  // Shared by the CPU work and the GPU upload: recycled when both are done.
  std::shared_ptr<FramePictures> pictures = s.scheduler->share(std::move(ref), std::move(dist));
  if (s.gpu_frames()) {
    // The GPU's share, computed later: planes in the pipeline's pinned
    // memory are uploaded straight from the pictures, which it holds until
    // the copy is done; the others are staged (copied) before this returns.
    const Status submitted =
        s.gpu->submit(pictures->ref, pictures->dist, index, sampled, s.scheduler->fork_join(),
                      pictures, s.batch_reference_frame);
    if (!submitted.ok()) {
      s.scheduler->record(submitted);
      return submitted;
    }
  }
  return s.scheduler->run(std::move(pictures), index, sampled);
}

Status Context::import_feature_score(std::string_view name, double value, unsigned index) {
  Impl& s = *impl_;
  const std::string metric(name);
  if (s.flushed) {
    return Error(Errc::kInvalidArgument, "scores of '" + metric + "' imported after flush()");
  }
  if (metric.empty()) return Error(Errc::kInvalidArgument, "imported scores need a name");
  if (!std::isfinite(value)) {
    return Error(Errc::kInvalidArgument, "imported score of '" + metric + "' at frame " +
                                             std::to_string(index) + " is not a finite number");
  }
  VQX_RETURN_IF_ERROR(s.registrations.add_import(metric));
  const std::size_t id = s.collector.add_metric(metric);
  if (std::find(s.imported.begin(), s.imported.end(), metric) == s.imported.end()) {
    s.imported.push_back(metric);
  }
  if (!std::isnan(s.collector.get(id, index))) {
    return Error(Errc::kInvalidArgument,
                 "'" + metric + "' already has a value at frame " + std::to_string(index));
  }
  s.collector.write(id, index, value);
  return Status::Ok();
}

Status Context::flush() {
  Impl& s = *impl_;
  if (s.flushed) return Error(Errc::kInvalidArgument, "flush called twice");
  s.flushed = true;
  s.flush_status = s.finish();
  return s.flush_status;
}

Status Context::Impl::finish() {
  Impl& s = *this;
  VQX_RETURN_IF_ERROR(s.scheduler->wait_idle());
  if (s.next_index == 0) return Error(Errc::kInvalidArgument, "no frames were read");
  if (s.gpu_frames()) VQX_RETURN_IF_ERROR(s.gpu->finish());
  for (auto& r : s.registrations.extractors()) {
    if (!r.spec.temporal || r.on_gpu) continue;
    SlotWriter w(s.collector, r.metric_ids, &r.aggregate_names, &s.aggregates);
    VQX_RETURN_IF_ERROR(r.temporal->flush(w));
  }
  return predict_models(s.registrations.models(), s.collector, s.reported_frames());
}

Expected<double> Context::score_at_index(std::string_view name, unsigned index) const {
  VQX_RETURN_IF_ERROR(impl_->results_ready("score_at_index"));
  auto id = impl_->collector.find(name);
  if (!id) return Error(Errc::kInvalidArgument, "no metric named '" + std::string(name) + "'");
  const double v = impl_->collector.get(*id, index);
  if (std::isnan(v)) {
    return Error(Errc::kInvalidArgument, "metric '" + std::string(name) +
                                             "' has no value at frame " + std::to_string(index));
  }
  return v;
}

Expected<double> Context::pooled_score(std::string_view name, PoolMethod method) const {
  VQX_RETURN_IF_ERROR(impl_->results_ready("pooled_score"));
  auto id = impl_->collector.find(name);
  if (!id) return Error(Errc::kInvalidArgument, "no metric named '" + std::string(name) + "'");
  std::vector<double> values;
  for (unsigned i : impl_->reported_frames()) {
    const double v = impl_->collector.get(*id, i);
    if (!std::isnan(v)) values.push_back(v);
  }
  if (values.empty()) {
    return Error(Errc::kInvalidArgument, "metric '" + std::string(name) + "' has no values");
  }
  const PooledStats p = pool(values);
  switch (method) {
    case PoolMethod::kMin:
      return p.min;
    case PoolMethod::kMax:
      return p.max;
    case PoolMethod::kMean:
      return p.mean;
    case PoolMethod::kHarmonicMean:
      return p.harmonic_mean;
  }
  return Error(Errc::kInvalidArgument, "unknown pooling method");
}

Expected<double> Context::aggregate_score(std::string_view name) const {
  VQX_RETURN_IF_ERROR(impl_->results_ready("aggregate_score"));
  for (const auto& [n, v] : impl_->aggregates) {
    if (n == name) return v;
  }
  return Error(Errc::kInvalidArgument, "no aggregate metric named '" + std::string(name) + "'");
}

std::vector<std::string> Context::aggregate_names() const {
  std::vector<std::string> names;
  if (!impl_->results_ready("aggregate_names").ok()) return names;
  for (const auto& [n, v] : impl_->aggregates) names.push_back(n);
  return names;
}

std::vector<std::string> Context::metric_names() const {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < impl_->collector.metric_count(); ++i) {
    names.push_back(impl_->collector.name(i));
  }
  return names;
}

std::vector<std::string> Context::model_names() const {
  std::vector<std::string> names;
  for (const auto& m : impl_->registrations.models()) names.push_back(m.model.name());
  return names;
}

unsigned Context::frame_count() const { return impl_->next_index; }

Expected<std::string> Context::metric_backend(std::string_view name) const {
  for (const auto& r : impl_->registrations.extractors()) {
    for (const auto& out : r.spec.outputs) {
      // Before the first frame, where it will be computed.
      const bool on_gpu = r.on_gpu || (impl_->gpu && !impl_->format && r.spec.make_twin);
      if (out.name == name) return on_gpu ? impl_->gpu->backend() : std::string("cpu");
    }
  }
  const auto& imported = impl_->imported;
  if (std::find(imported.begin(), imported.end(), name) != imported.end()) {
    return std::string("imported");
  }
  if (impl_->collector.find(name)) return std::string("cpu");  // a model score
  return Error(Errc::kInvalidArgument, "no metric named '" + std::string(name) + "'");
}

std::optional<gpu::UploadStats> detail::ContextInternals::upload_stats(const Context& ctx) {
  if (!ctx.impl_->gpu) return std::nullopt;
  return ctx.impl_->gpu->upload_stats();
}

Status detail::ContextInternals::read_batch_pictures(Context& ctx, Picture ref, Picture dist,
                                                     unsigned index,
                                                     std::uint64_t reference_frame) {
  ctx.impl_->batch_reference_frame = reference_frame;
  Status s = ctx.read_pictures(std::move(ref), std::move(dist), index);
  ctx.impl_->batch_reference_frame = 0;
  return s;
}

void detail::ContextInternals::share_reference(Context& ctx,
                                               const std::shared_ptr<gpu::SharedReference>& share) {
  if (ctx.impl_->gpu && share) ctx.impl_->gpu->share_reference(share);
}

ReportSettings Context::Impl::run_settings() const {
  const Impl& s = *this;
  ReportSettings r;
  r.version = version();
  r.backend = s.gpu ? s.gpu->backend() : std::string("cpu");
  r.device = s.gpu ? s.gpu->description() : std::string("cpu");
  r.subsample = s.settings.subsample;
  for (const auto& m : s.registrations.models()) {
    r.models.emplace_back(m.model.name(), m.model.origin());
  }
  for (const auto& e : s.registrations.extractors()) r.features.push_back(e.spec.request);
  return r;
}

std::string Context::device_description() const {
  return impl_->gpu ? impl_->gpu->description() : std::string("cpu");
}

Status Context::write_output(const std::string& path, OutputFormat format, int precision,
                             double fps) const {
  const Impl& s = *impl_;
  // Before flush the values are missing or still being written; after a
  // failed one they are incomplete: no output that looks valid.
  VQX_RETURN_IF_ERROR(s.results_ready("write_output"));
  const ReportSource source{s.collector,
                            s.reported_frames(),
                            s.aggregates,
                            s.format,
                            s.gpu ? s.gpu->description() : std::string(),
                            [this](std::string_view name) { return metric_backend(name); }};
  Report report;
  assemble_report(source, precision, fps, report);
  report.settings = s.run_settings();
  return write_file_atomically(*s.env.output_files, path, [&](std::ostream& out) {
    return write_report(report, format, out);
  });
}

Expected<RunValues> Context::run_values() const {
  const Impl& s = *impl_;
  VQX_RETURN_IF_ERROR(s.results_ready("run_values"));
  RunValues v;
  v.version = version();
  if (s.format) {
    v.width = s.format->width;
    v.height = s.format->height;
  }
  v.frames = s.reported_frames();
  for (std::size_t m = 0; m < s.collector.metric_count(); ++m) {
    RunMetric metric{s.collector.name(m), {}, {}};
    bool any = false;
    for (unsigned i : v.frames) {
      const double value = s.collector.get(m, i);
      any = any || !std::isnan(value);
      metric.values.push_back(value);
    }
    // As write_output: an output that never got a value is not listed.
    if (!any) continue;
    auto backend = metric_backend(metric.name);
    metric.backend = backend.ok() ? *backend : std::string("cpu");
    v.metrics.push_back(std::move(metric));
  }
  v.aggregates = s.aggregates;
  v.gpu_device = s.gpu ? s.gpu->description() : std::string();
  ReportSettings settings = s.run_settings();
  v.settings_backend = std::move(settings.backend);
  v.settings_device = std::move(settings.device);
  v.subsample = settings.subsample;
  v.models = std::move(settings.models);
  v.features = std::move(settings.features);
  return v;
}

std::optional<TemporalReach> Context::temporal_reach() const {
  TemporalReach widest;
  for (const auto& e : impl_->registrations.extractors()) {
    if (!e.spec.reach) return std::nullopt;
    widest.before = std::max(widest.before, e.spec.reach->before);
    widest.after = std::max(widest.after, e.spec.reach->after);
  }
  return widest;
}

}  // namespace vqx

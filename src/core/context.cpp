// The context: registers extractors and models, runs frames through the
// extractors (on the calling thread or on its own pool), then predicts,
// pools and writes. Everything it uses is owned by it: no global state.
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <mutex>
#include <new>

#include "core/extractor.hpp"
#include "core/feature_collector.hpp"
#include "core/feature_spec.hpp"
#include "core/thread_pool.hpp"
#include "gpu/pipeline.hpp"
#include "metrics/registry.hpp"
#include "model/model.hpp"
#include "output/atomic_file.hpp"
#include "output/report.hpp"
#include "output/writers.hpp"
#include "pool/pool.hpp"
#include "vqx/vqx.hpp"

namespace vqx {

const char* version() { return "0.1.0"; }

namespace {

// Runs extractor code, turning an exception (std::bad_alloc when memory runs
// out) into an error Status: thrown on a worker thread it would end the
// process (docs/reliability.md).
template <typename F>
Status no_throw(const char* doing, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, std::string("out of memory ") + doing);
  } catch (const std::exception& e) {
    return Error(Errc::kInternal, std::string("internal error ") + doing + ": " + e.what());
  } catch (...) {
    return Error(Errc::kInternal, std::string("internal error ") + doing);
  }
}

// Routes an extractor's slots to collector metrics.
class SlotWriter final : public FeatureWriter {
 public:
  SlotWriter(FeatureCollector& c, const std::vector<std::size_t>& ids,
             const std::vector<std::string>* aggregate_names = nullptr,
             std::vector<std::pair<std::string, double>>* aggregates = nullptr)
      : c_(c), ids_(ids), aggregate_names_(aggregate_names), aggregates_(aggregates) {}
  void write(std::size_t slot, unsigned frame, double value) override {
    c_.write(ids_[slot], frame, value);
  }
  void write_aggregate(std::size_t slot, double value) override {
    if (aggregates_ == nullptr) return;
    const std::string& name = (*aggregate_names_)[slot];
    for (auto& [n, v] : *aggregates_) {
      if (n == name) {
        v = value;
        return;
      }
    }
    aggregates_->emplace_back(name, value);
  }

 private:
  FeatureCollector& c_;
  const std::vector<std::size_t>& ids_;
  const std::vector<std::string>* aggregate_names_;
  std::vector<std::pair<std::string, double>>* aggregates_;
};

struct Registered {
  ExtractorSpec spec;
  std::vector<std::size_t> metric_ids;       // slot -> collector metric
  std::vector<std::string> aggregate_names;  // aggregate slot -> name
  // Plain extractors: idle instances, one per thread that has needed one.
  std::mutex idle_mutex;
  std::vector<std::unique_ptr<Extractor>> idle;
  // Temporal extractors: the single instance.
  std::unique_ptr<Extractor> temporal;
  // Computed by a GPU twin (the pipeline owns it) instead of the instances.
  bool on_gpu = false;
  std::unique_ptr<SlotWriter> gpu_writer;
};

struct ModelEntry {
  Model model;
  std::vector<std::size_t> feature_ids;  // in model.features() order
  std::vector<std::size_t> output_ids;   // in model.output_names() order
};

struct Frame {
  Picture ref;
  Picture dist;
  unsigned index = 0;
  std::atomic<int> parts_left{0};
};

}  // namespace

struct Context::Impl {
  ContextSettings settings;
  FeatureCollector collector;
  std::deque<Registered> extractors;  // deque: stable addresses
  std::vector<ModelEntry> models;
  std::vector<std::pair<std::string, double>> aggregates;  // whole-video values, in write order
  std::optional<PictureFormat> format;
  unsigned next_index = 0;
  bool flushed = false;
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<gpu::Pipeline> gpu;  // null: everything on the CPU

  // Frames in flight, bounded so that memory stays flat on long videos.
  std::mutex mutex;
  std::condition_variable cv;
  unsigned in_flight = 0;
  unsigned max_in_flight = 1;
  Status first_error;
  std::vector<Picture> recycled;

  // Temporal work runs strictly in index order, one frame at a time.
  std::deque<std::shared_ptr<Frame>> temporal_queue;
  bool temporal_running = false;

  Status register_spec(ExtractorSpec spec);
  Status run_plain(Frame& f);
  Status run_temporal(Frame& f);
  void part_done(const std::shared_ptr<Frame>& f);
  void record(const Status& s);
  void drain_temporal();
  Status wait_idle();
  Status predict_models();
  Status init_extractors(const PictureFormat& fmt);
  [[nodiscard]] std::vector<unsigned> reported_frames() const;
  [[nodiscard]] bool frame_is_sampled(unsigned i) const {
    return settings.subsample <= 1 || i % settings.subsample == 0;
  }
};

Context::Context(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Context::~Context() {
  if (!impl_) return;
  (void)impl_->wait_idle();
  impl_->pool.reset();  // joins the workers before anything they touch goes away
}

namespace {

// The GPU pipeline the settings ask for, or null for the CPU. A named
// backend that this build lacks, or whose device is missing, is an error.
Expected<std::unique_ptr<gpu::Pipeline>> open_backend(const ContextSettings& settings) {
  const char* compiled = gpu::compiled_backend();
  const std::string have = compiled == nullptr ? "" : compiled;
  switch (settings.backend) {
    case Backend::kCpu:
      return std::unique_ptr<gpu::Pipeline>();
    case Backend::kAuto:
      if (have.empty() || gpu::available_devices() == 0) return std::unique_ptr<gpu::Pipeline>();
      return gpu::Pipeline::open(settings.gpu);
    case Backend::kCuda:
    case Backend::kHip: {
      const std::string want = settings.backend == Backend::kCuda ? "cuda" : "hip";
      if (have != want) {
        return Error(
            Errc::kUnsupported,
            "backend " + want + " was asked for, but this build of VQX has " +
                (have.empty() ? std::string("no GPU backend") : "only the " + have + " backend"));
      }
      if (gpu::available_devices() == 0) {
        return Error(Errc::kDevice,
                     "backend " + want + " was asked for, but no " + want + " device is present");
      }
      return gpu::Pipeline::open(settings.gpu);
    }
  }
  return Error(Errc::kInvalidArgument, "unknown backend");
}

}  // namespace

Expected<std::unique_ptr<Context>> Context::create(const ContextSettings& settings) {
  if (settings.subsample == 0) {
    return Error(Errc::kInvalidArgument, "subsample must be at least 1");
  }
  constexpr unsigned kMaxThreads = 256;
  if (settings.threads > kMaxThreads) {
    return Error(Errc::kInvalidArgument, "threads must be at most " + std::to_string(kMaxThreads));
  }
  auto impl = std::make_unique<Impl>();
  impl->settings = settings;
  VQX_ASSIGN_OR_RETURN(impl->gpu, open_backend(settings));
  if (settings.threads >= 2) {
    try {
      impl->pool = std::make_unique<ThreadPool>(settings.threads);
    } catch (const std::exception& e) {  // std::system_error or std::bad_alloc
      return Error(Errc::kLimit, "cannot start " + std::to_string(settings.threads) +
                                     " worker threads (out of memory?): " + e.what());
    }
    impl->max_in_flight = settings.threads * 2;
  }
  return std::unique_ptr<Context>(new Context(std::move(impl)));
}

Status Context::Impl::register_spec(ExtractorSpec spec) {
  if (format) {
    return Error(Errc::kInvalidArgument,
                 "features must be registered before the first frame (" + spec.family + ")");
  }
  for (const auto& r : extractors) {
    if (r.spec.key == spec.key) return Status::Ok();
  }
  Registered& r = extractors.emplace_back();
  for (const auto& out : spec.outputs) r.metric_ids.push_back(collector.add_metric(out.name));
  for (const auto& agg : spec.aggregates) r.aggregate_names.push_back(agg.name);
  r.spec = std::move(spec);
  return Status::Ok();
}

Status Context::use_feature(std::string_view spec) {
  VQX_ASSIGN_OR_RETURN(FeatureRequest req, parse_feature_spec(spec));
  return use_feature(req.name, req.options);
}

Status Context::use_feature(std::string_view name,
                            const std::map<std::string, std::string>& options) {
  const ExtractorFamily* family = find_family(name);
  if (family == nullptr) {
    return Error(Errc::kInvalidArgument, "unknown feature '" + std::string(name) + "'");
  }
  VQX_ASSIGN_OR_RETURN(ExtractorSpec spec, family->make_spec(options));
  return impl_->register_spec(std::move(spec));
}

Status Context::use_features_from_model(std::string_view model_spec) {
  VQX_ASSIGN_OR_RETURN(Model model, parse_model_spec(model_spec));
  for (const auto& m : impl_->models) {
    if (m.model.name() == model.name()) {
      return Error(Errc::kInvalidArgument,
                   "two models are named '" + model.name() + "'; set name=... to tell them apart");
    }
  }
  ModelEntry entry{std::move(model), {}, {}};
  for (const ModelFeature& f : entry.model.features()) {
    VQX_ASSIGN_OR_RETURN(ExtractorSpec spec, f.family->make_spec(f.options));
    std::string metric;
    for (const auto& out : spec.outputs) {
      if (out.base == f.base) metric = out.name;
    }
    if (metric.empty()) {  // a debug output, and the model does not set debug=true
      return Error(Errc::kUnsupported, "model '" + entry.model.name() + "' needs feature '" +
                                           f.model_name + "', which " + spec.family +
                                           " does not write with the options the model gives it");
    }
    VQX_RETURN_IF_ERROR(impl_->register_spec(std::move(spec)));
    entry.feature_ids.push_back(impl_->collector.add_metric(metric));
  }
  impl_->models.push_back(std::move(entry));
  return Status::Ok();
}

Status Context::Impl::init_extractors(const PictureFormat& fmt) {
  for (auto& r : extractors) {
    if (gpu && r.spec.make_twin) {
      r.on_gpu = true;
      r.gpu_writer =
          std::make_unique<SlotWriter>(collector, r.metric_ids, &r.aggregate_names, &aggregates);
      gpu->add(r.spec.make_twin(), r.spec.family, r.spec.temporal, *r.gpu_writer);
      continue;
    }
    auto inst = r.spec.make();
    VQX_RETURN_IF_ERROR(inst->init(fmt));
    if (r.spec.temporal) {
      r.temporal = std::move(inst);
    } else {
      r.idle.push_back(std::move(inst));
    }
  }
  if (gpu && !gpu->empty()) VQX_RETURN_IF_ERROR(gpu->init(fmt));
  return Status::Ok();
}

Expected<Picture> Context::fetch_picture(const PictureFormat& fmt) {
  {
    std::lock_guard lock(impl_->mutex);
    auto& rec = impl_->recycled;
    for (auto it = rec.begin(); it != rec.end(); ++it) {
      if (it->format() == fmt) {
        Picture p = std::move(*it);
        rec.erase(it);
        return p;
      }
    }
  }
  return Picture::make(fmt);
}

void Context::Impl::record(const Status& s) {
  if (s.ok()) return;
  std::lock_guard lock(mutex);
  if (first_error.ok()) first_error = s;
}

Status Context::Impl::run_plain(Frame& f) {
  for (auto& r : extractors) {
    if (r.spec.temporal || r.on_gpu) continue;
    std::unique_ptr<Extractor> inst;
    {
      std::lock_guard lock(r.idle_mutex);
      if (!r.idle.empty()) {
        inst = std::move(r.idle.back());
        r.idle.pop_back();
      }
    }
    if (!inst) {  // first use on another thread: bounded by the thread count
      inst = r.spec.make();
      VQX_RETURN_IF_ERROR(inst->init(f.ref.format()));
    }
    SlotWriter w(collector, r.metric_ids);
    Status s = inst->extract(f.ref, f.dist, f.index, w);
    {
      std::lock_guard lock(r.idle_mutex);
      r.idle.push_back(std::move(inst));
    }
    VQX_RETURN_IF_ERROR(s);
  }
  return Status::Ok();
}

Status Context::Impl::run_temporal(Frame& f) {
  for (auto& r : extractors) {
    if (!r.spec.temporal || r.on_gpu) continue;
    SlotWriter w(collector, r.metric_ids);
    VQX_RETURN_IF_ERROR(r.temporal->extract(f.ref, f.dist, f.index, w));
  }
  return Status::Ok();
}

void Context::Impl::part_done(const std::shared_ptr<Frame>& f) {
  if (f->parts_left.fetch_sub(1) != 1) return;
  std::lock_guard lock(mutex);
  recycled.push_back(std::move(f->ref));
  recycled.push_back(std::move(f->dist));
  --in_flight;
  cv.notify_all();
}

void Context::Impl::drain_temporal() {
  for (;;) {
    std::shared_ptr<Frame> f;
    {
      std::lock_guard lock(mutex);
      if (temporal_queue.empty()) {
        temporal_running = false;
        return;
      }
      f = std::move(temporal_queue.front());
      temporal_queue.pop_front();
    }
    record(no_throw("computing the features", [&] { return run_temporal(*f); }));
    part_done(f);
  }
}

Status Context::Impl::wait_idle() {
  std::unique_lock lock(mutex);
  cv.wait(lock, [this] { return in_flight == 0; });
  return first_error;
}

Status Context::read_pictures(Picture ref, Picture dist, unsigned index) {
  Impl& s = *impl_;
  if (s.flushed) return Error(Errc::kInvalidArgument, "read_pictures after flush");
  {
    // A context that has failed stays failed: the same error, every call.
    std::lock_guard lock(s.mutex);
    if (!s.first_error.ok()) return s.first_error;
  }
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
  if (!s.format) {
    const Status init =
        no_throw("setting up the features", [&] { return s.init_extractors(ref.format()); });
    if (!init.ok()) {  // half set up: never to be used again
      s.record(init);
      return init;
    }
    s.format = ref.format();
  } else if (!(*s.format == ref.format())) {
    return Error(Errc::kMismatch,
                 "frame " + std::to_string(index) + " has a different format from the first frame");
  }
  ++s.next_index;
  const bool sampled = s.frame_is_sampled(index);
  if (s.gpu && !s.gpu->empty()) {
    // The GPU's share: staged (copied) before this returns, computed later.
    const Status submitted = s.gpu->submit(ref, dist, index, sampled, s.pool.get());
    if (!submitted.ok()) {
      s.record(submitted);
      return submitted;
    }
  }

  auto f = std::make_shared<Frame>();
  f->ref = std::move(ref);
  f->dist = std::move(dist);
  f->index = index;
  const bool plain = sampled;
  f->parts_left = plain ? 2 : 1;

  {
    std::unique_lock lock(s.mutex);
    s.cv.wait(lock, [&] { return s.in_flight < s.max_in_flight; });
    if (!s.first_error.ok()) return s.first_error;
    ++s.in_flight;
  }

  if (!s.pool) {  // synchronous: temporal first, then the rest, on this thread
    s.record(no_throw("computing the features", [&] { return s.run_temporal(*f); }));
    s.part_done(f);
    if (plain) {
      s.record(no_throw("computing the features", [&] { return s.run_plain(*f); }));
      s.part_done(f);
    }
    std::lock_guard lock(s.mutex);
    return s.first_error;
  }

  bool start_temporal = false;
  {
    std::lock_guard lock(s.mutex);
    s.temporal_queue.push_back(f);
    if (!s.temporal_running) start_temporal = s.temporal_running = true;
  }
  if (start_temporal) s.pool->submit([&s] { s.drain_temporal(); });
  if (plain) {
    s.pool->submit([&s, f] {
      s.record(no_throw("computing the features", [&] { return s.run_plain(*f); }));
      s.part_done(f);
    });
  }
  return Status::Ok();
}

std::vector<unsigned> Context::Impl::reported_frames() const {
  std::vector<unsigned> frames;
  for (unsigned i = 0; i < next_index; ++i) {
    if (frame_is_sampled(i)) frames.push_back(i);
  }
  return frames;
}

Status Context::Impl::predict_models() {
  const std::vector<unsigned> frames = reported_frames();
  for (auto& m : models) {
    for (const auto& name : m.model.output_names()) {
      m.output_ids.push_back(collector.add_metric(name));
    }
    std::vector<double> in(m.feature_ids.size());
    std::vector<double> out(m.output_ids.size());
    for (unsigned i : frames) {
      for (std::size_t k = 0; k < in.size(); ++k) {
        in[k] = collector.get(m.feature_ids[k], i);
        if (std::isnan(in[k])) {
          return Error(Errc::kInternal, "model '" + m.model.name() + "': feature " +
                                            collector.name(m.feature_ids[k]) +
                                            " is missing at frame " + std::to_string(i));
        }
      }
      VQX_RETURN_IF_ERROR(m.model.predict(in, out));
      for (std::size_t k = 0; k < out.size(); ++k) collector.write(m.output_ids[k], i, out[k]);
    }
  }
  return Status::Ok();
}

Status Context::flush() {
  Impl& s = *impl_;
  if (s.flushed) return Error(Errc::kInvalidArgument, "flush called twice");
  s.flushed = true;
  VQX_RETURN_IF_ERROR(s.wait_idle());
  if (s.next_index == 0) return Error(Errc::kInvalidArgument, "no frames were read");
  if (s.gpu && !s.gpu->empty()) VQX_RETURN_IF_ERROR(s.gpu->finish());
  for (auto& r : s.extractors) {
    if (!r.spec.temporal || r.on_gpu) continue;
    SlotWriter w(s.collector, r.metric_ids, &r.aggregate_names, &s.aggregates);
    VQX_RETURN_IF_ERROR(r.temporal->flush(w));
  }
  return s.predict_models();
}

Expected<double> Context::score_at_index(std::string_view name, unsigned index) const {
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
  for (const auto& [n, v] : impl_->aggregates) {
    if (n == name) return v;
  }
  return Error(Errc::kInvalidArgument, "no aggregate metric named '" + std::string(name) + "'");
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
  for (const auto& m : impl_->models) names.push_back(m.model.name());
  return names;
}

unsigned Context::frame_count() const { return impl_->next_index; }

Expected<std::string> Context::metric_backend(std::string_view name) const {
  for (const auto& r : impl_->extractors) {
    for (const auto& out : r.spec.outputs) {
      // Before the first frame, where it will be computed.
      const bool on_gpu = r.on_gpu || (impl_->gpu && !impl_->format && r.spec.make_twin);
      if (out.name == name) return on_gpu ? impl_->gpu->backend() : std::string("cpu");
    }
  }
  if (impl_->collector.find(name)) return std::string("cpu");  // a model score
  return Error(Errc::kInvalidArgument, "no metric named '" + std::string(name) + "'");
}

std::string Context::device_description() const {
  return impl_->gpu ? impl_->gpu->description() : std::string("cpu");
}

Status Context::write_output(const std::string& path, OutputFormat format, int precision,
                             double fps) const {
  const Impl& s = *impl_;
  Report report;
  report.version = version();
  report.fps = fps;
  report.precision = precision;
  if (s.format) {
    report.width = s.format->width;
    report.height = s.format->height;
  }
  report.frame_numbers = s.reported_frames();
  for (std::size_t m = 0; m < s.collector.metric_count(); ++m) {
    // The writers read the values from the collector: no copy of every value
    // of a long run (docs/reliability.md, the soak test).
    ReportMetric metric{
        s.collector.name(m), {}, [&s, m, &frames = report.frame_numbers](std::size_t i) {
          return s.collector.get(m, frames[i]);
        }};
    std::vector<double> present;
    for (unsigned i : report.frame_numbers) {
      const double v = s.collector.get(m, i);
      if (!std::isnan(v)) present.push_back(v);
    }
    // A declared output that never got a value (psnr_cb of a 4:0:0 video)
    // is not listed at all, as the reference does not list it.
    if (present.empty()) continue;
    const PooledStats p = pool(present);
    report.pooled.push_back({metric.name, ReportPooled{p.min, p.max, p.mean, p.harmonic_mean}});
    report.metrics.push_back(std::move(metric));
  }
  report.aggregate = s.aggregates;
  if (s.gpu) {
    report.device = s.gpu->description();
    for (const auto& m : report.metrics) {
      auto b = metric_backend(m.name);
      report.backends.emplace_back(m.name, b.ok() ? *b : std::string("cpu"));
    }
  }
  return write_file_atomically(
      path, [&](std::ostream& out) { return write_report(report, format, out); });
}

}  // namespace vqx

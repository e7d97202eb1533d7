#include "engine/scheduler.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <string>
#include <utility>

#include "engine/no_throw.hpp"
#include "engine/slot_writer.hpp"

namespace vqx {

struct FrameScheduler::Frame {
  std::shared_ptr<FramePictures> pictures;  // let go when the CPU work is done
  unsigned index = 0;
  bool sampled = false;
  // Its job, its ordered stage, its place in the window, and one for each
  // later frame whose prepare() reads its pictures.
  std::atomic<int> parts_left{0};
  // Frames index - 1, index - 2, ... whose pictures prepare() reads; let go
  // once it has.
  std::array<std::shared_ptr<Frame>, FrameWindow::kMaxHistory> earlier;
  bool prepared = false;  // under mutex_
  bool failed = false;    // under mutex_: prepare() returned an error
};

Expected<std::unique_ptr<FrameScheduler>> FrameScheduler::create(
    unsigned threads, std::deque<RegisteredExtractor>& extractors, FeatureCollector& collector,
    ExtractorEnv env) {
  std::unique_ptr<FrameScheduler> s(new FrameScheduler(extractors, collector, std::move(env)));
  if (threads >= 2) {
    try {
      s->pool_ = std::make_unique<ThreadPool>(threads);
      s->fork_join_ = std::make_unique<PoolForkJoin>(*s->pool_);
    } catch (const std::exception& e) {  // std::system_error or std::bad_alloc
      return Error(Errc::kLimit, "cannot start " + std::to_string(threads) +
                                     " worker threads (out of memory?): " + e.what());
    }
    s->max_in_flight_ = threads * 2;
  }
  // Enough for a caller who fetches every picture; one who brings its own
  // would otherwise grow the list by two pictures a frame.
  s->recycler_ = PictureRecycler::create(2 * (std::size_t{s->max_in_flight_} + 1));
  return s;
}

FrameScheduler::~FrameScheduler() {
  (void)wait_idle();
  fork_join_.reset();
  pool_.reset();  // joins the workers before anything they touch goes away
}

Status FrameScheduler::first_error() {
  std::lock_guard lock(mutex_);
  return first_error_;
}

void FrameScheduler::record(const Status& s) {
  if (s.ok()) return;
  std::lock_guard lock(mutex_);
  if (first_error_.ok()) first_error_ = s;
}

Status FrameScheduler::plan() {
  planned_ = true;
  unsigned history = 0;
  for (auto& r : extractors_) {
    if (r.on_gpu) continue;
    if (!r.spec.temporal) {
      plain_.push_back(&r);
      continue;
    }
    TemporalStages* st = r.temporal->stages();
    temporal_.push_back({&r, st});
    if (st == nullptr) continue;
    any_stages_ = true;
    if (st->history() > FrameWindow::kMaxHistory) {
      return Error(Errc::kInternal, r.spec.family + ": reads " + std::to_string(st->history()) +
                                        " earlier frames, more than the scheduler keeps");
    }
    history = std::max(history, st->history());
  }
  history_ = history;
  unsigned bound = 0;
  {
    std::lock_guard lock(mutex_);
    // A frame kept for the next frames' prepare() counts as in flight:
    // without room for them the bound could be reached by kept frames alone.
    max_in_flight_ += history;
    bound = max_in_flight_;
  }
  const unsigned lanes = pool_ ? pool_->size() : 1;
  for (const Temporal& t : temporal_) {
    // Frame i is admitted only once finish(i - bound) has returned (the
    // frames i - bound .. i - 1 cannot all be in flight), so `bound`
    // entries, plus those finish() reads back, are never in use twice.
    if (t.stages != nullptr) {
      VQX_RETURN_IF_ERROR(t.stages->reserve(bound + t.stages->kept_entries(), lanes));
    }
  }
  if (any_stages_) {
    for (unsigned l = lanes; l > 0; --l) free_lanes_.push_back(l - 1);
  }
  return Status::Ok();
}

unsigned FrameScheduler::take_lane() {
  std::lock_guard lock(mutex_);
  // At most one job per worker runs, and each holds one lane.
  const unsigned lane = free_lanes_.back();
  free_lanes_.pop_back();
  return lane;
}

void FrameScheduler::give_lane(unsigned lane) {
  std::lock_guard lock(mutex_);
  free_lanes_.push_back(lane);
}

Status FrameScheduler::run_plain(Frame& f) {
  for (RegisteredExtractor* r : plain_) {
    VQX_RETURN_IF_ERROR(run_extractor(*r, take_instance(*r), f));
  }
  return Status::Ok();
}

namespace {

// An idle instance of `r`, or null (the caller holds the scheduler's lock).
std::unique_ptr<Extractor> pop_idle(RegisteredExtractor& r) {
  if (r.idle.empty()) return nullptr;
  std::unique_ptr<Extractor> inst = std::move(r.idle.back());
  r.idle.pop_back();
  return inst;
}

}  // namespace

std::unique_ptr<Extractor> FrameScheduler::take_instance(RegisteredExtractor& r) {
  std::lock_guard lock(mutex_);
  return pop_idle(r);
}

Status FrameScheduler::run_extractor(RegisteredExtractor& r, std::unique_ptr<Extractor> inst,
                                     const Frame& f) {
  if (!inst) {  // every instance is busy on another worker: at most one per worker
    inst = r.spec.make_cpu(env_);
    VQX_RETURN_IF_ERROR(inst->init(f.pictures->ref.format()));
  }
  SlotWriter w(collector_, r.metric_ids);
  const Status s = inst->extract(f.pictures->ref, f.pictures->dist, f.index, w);
  // (An instance whose extract() threw is dropped with its state.)
  std::lock_guard lock(mutex_);
  r.idle.push_back(std::move(inst));
  return s;
}

void FrameScheduler::run_plain_task() {
  PlainTask task;
  std::unique_ptr<Extractor> inst;
  {
    std::lock_guard lock(mutex_);
    // One job was queued for each task, so there is one. The oldest whose
    // extractor has an idle instance, so that the workers run different
    // extractors side by side rather than each making its own instance of
    // the same one (its buffers and caches, once per worker); else the
    // oldest, with a new instance, so that no worker waits.
    auto it = std::find_if(pending_plain_.begin(), pending_plain_.end(),
                           [](const PlainTask& t) { return !t.extractor->idle.empty(); });
    if (it == pending_plain_.end()) {
      it = pending_plain_.begin();
    } else {
      inst = pop_idle(*it->extractor);
    }
    task = std::move(*it);
    pending_plain_.erase(it);
  }
  record(no_throw("computing the features",
                  [&] { return run_extractor(*task.extractor, std::move(inst), *task.frame); }));
  part_done(task.frame);
}

Status FrameScheduler::prepare(Frame& f) {
  if (!any_stages_) return Status::Ok();
  FrameWindow w;
  w.index = f.index;
  w.ref[0] = &f.pictures->ref;
  w.dist[0] = &f.pictures->dist;
  for (unsigned k = 1; k <= history_; ++k) {
    if (const Frame* e = f.earlier[k - 1].get()) {
      w.ref[k] = &e->pictures->ref;
      w.dist[k] = &e->pictures->dist;
    }
  }
  struct Lane {  // given back however prepare() ends
    FrameScheduler& s;
    unsigned id;
    ~Lane() { s.give_lane(id); }
  } lane{*this, take_lane()};
  for (const Temporal& t : temporal_) {
    if (t.stages != nullptr) VQX_RETURN_IF_ERROR(t.stages->prepare(w, lane.id));
  }
  return Status::Ok();
}

Status FrameScheduler::run_ordered(Frame& f) {
  for (const Temporal& t : temporal_) {
    SlotWriter w(collector_, t.registered->metric_ids);
    if (t.stages != nullptr) {
      VQX_RETURN_IF_ERROR(t.stages->finish(f.index, w));
    } else {
      VQX_RETURN_IF_ERROR(
          t.registered->temporal->extract(f.pictures->ref, f.pictures->dist, f.index, w));
    }
  }
  return Status::Ok();
}

void FrameScheduler::part_done(const std::shared_ptr<Frame>& f) {
  if (f->parts_left.fetch_sub(1) != 1) return;
  // Recycled now, before the frame counts as done, unless another holder
  // (the GPU upload) still reads them.
  f->pictures.reset();
  {
    std::lock_guard lock(mutex_);
    --in_flight_;
    cv_.notify_all();
  }
}

void FrameScheduler::frame_prepared(const std::shared_ptr<Frame>& f, bool ok) {
  {
    std::lock_guard lock(mutex_);
    f->prepared = true;
    f->failed = !ok;
    if (ordering_) return;  // that thread finds this frame when it gets to it
    ordering_ = true;
  }
  drain_ordered();
}

void FrameScheduler::drain_ordered() {
  for (;;) {
    std::shared_ptr<Frame> f;
    bool skip = false;
    {
      std::lock_guard lock(mutex_);
      if (ordered_.empty() || !ordered_.front()->prepared) {
        ordering_ = false;
        return;
      }
      f = std::move(ordered_.front());
      ordered_.pop_front();
      // After an error no frame is finished: its values are never used,
      // and a later frame's finish() would miss the failed one.
      skip = f->failed || !first_error_.ok();
    }
    if (!skip) record(no_throw("computing the features", [&] { return run_ordered(*f); }));
    part_done(f);
  }
}

void FrameScheduler::run_frame(const std::shared_ptr<Frame>& f) {
  if (!temporal_.empty()) {
    const Status s = no_throw("computing the features", [&] { return prepare(*f); });
    record(s);
    for (std::shared_ptr<Frame>& e : f->earlier) {
      if (e) {
        part_done(e);
        e.reset();
      }
    }
    frame_prepared(f, s.ok());
  }
  // With a pool the plain extractors are tasks of their own (run()).
  if (f->sampled && !pool_) {
    record(no_throw("computing the features", [&] { return run_plain(*f); }));
  }
  part_done(f);
}

Status FrameScheduler::wait_idle() {
  std::deque<std::shared_ptr<Frame>> kept;
  {
    std::lock_guard lock(mutex_);
    kept.swap(window_);
  }
  for (const auto& f : kept) part_done(f);
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return in_flight_ == 0; });
  return first_error_;
}

Status FrameScheduler::run(Picture ref, Picture dist, unsigned index, bool sampled) {
  return run(share(std::move(ref), std::move(dist)), index, sampled);
}

Status FrameScheduler::run(std::shared_ptr<FramePictures> pictures, unsigned index, bool sampled) {
  if (!planned_) {
    const Status s = no_throw("setting up the temporal features", [&] { return plan(); });
    if (!s.ok()) {
      record(s);
      return s;
    }
  }
  auto f = std::make_shared<Frame>();
  f->pictures = std::move(pictures);
  f->index = index;
  f->sampled = sampled;
  const bool temporal = !temporal_.empty();
  // With a pool, each plain extractor's work on the frame is a task.
  const unsigned tasks = pool_ && sampled ? static_cast<unsigned>(plain_.size()) : 0;
  f->parts_left = static_cast<int>(1 + tasks + (temporal ? 1 : 0) + (history_ > 0 ? 1 : 0));

  std::shared_ptr<Frame> leaving;  // out of the window: no later frame reads it
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return in_flight_ < max_in_flight_; });
    if (!first_error_.ok()) return first_error_;
    ++in_flight_;
    if (history_ > 0) {
      for (unsigned k = 1; k <= history_ && k <= window_.size(); ++k) {
        f->earlier[k - 1] = window_[window_.size() - k];
        f->earlier[k - 1]->parts_left.fetch_add(1);  // kept by its window part
      }
      window_.push_back(f);
      if (window_.size() > history_) {
        leaving = std::move(window_.front());
        window_.pop_front();
      }
    }
    if (temporal) ordered_.push_back(f);
    for (unsigned t = 0; t < tasks; ++t) pending_plain_.push_back({f, plain_[t]});
  }
  if (leaving) part_done(leaving);

  if (!pool_) {  // synchronous: the same job, on this thread
    run_frame(f);
    return first_error();
  }
  pool_->submit([this, f] { run_frame(f); });
  for (unsigned t = 0; t < tasks; ++t) pool_->submit([this] { run_plain_task(); });
  return Status::Ok();
}

}  // namespace vqx

#include "engine/scheduler.hpp"

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
  std::atomic<int> parts_left{0};
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

Status FrameScheduler::run_plain(Frame& f) {
  for (auto& r : extractors_) {
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
      inst = r.spec.make_cpu(env_);
      VQX_RETURN_IF_ERROR(inst->init(f.pictures->ref.format()));
    }
    SlotWriter w(collector_, r.metric_ids);
    Status s = inst->extract(f.pictures->ref, f.pictures->dist, f.index, w);
    {
      std::lock_guard lock(r.idle_mutex);
      r.idle.push_back(std::move(inst));
    }
    VQX_RETURN_IF_ERROR(s);
  }
  return Status::Ok();
}

Status FrameScheduler::run_temporal(Frame& f) {
  for (auto& r : extractors_) {
    if (!r.spec.temporal || r.on_gpu) continue;
    SlotWriter w(collector_, r.metric_ids);
    VQX_RETURN_IF_ERROR(r.temporal->extract(f.pictures->ref, f.pictures->dist, f.index, w));
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

void FrameScheduler::drain_temporal() {
  for (;;) {
    std::shared_ptr<Frame> f;
    {
      std::lock_guard lock(mutex_);
      if (temporal_queue_.empty()) {
        temporal_running_ = false;
        return;
      }
      f = std::move(temporal_queue_.front());
      temporal_queue_.pop_front();
    }
    record(no_throw("computing the features", [&] { return run_temporal(*f); }));
    part_done(f);
  }
}

Status FrameScheduler::wait_idle() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [this] { return in_flight_ == 0; });
  return first_error_;
}

Status FrameScheduler::run(Picture ref, Picture dist, unsigned index, bool sampled) {
  return run(share(std::move(ref), std::move(dist)), index, sampled);
}

Status FrameScheduler::run(std::shared_ptr<FramePictures> pictures, unsigned index, bool sampled) {
  auto f = std::make_shared<Frame>();
  f->pictures = std::move(pictures);
  f->index = index;
  const bool plain = sampled;
  f->parts_left = plain ? 2 : 1;

  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return in_flight_ < max_in_flight_; });
    if (!first_error_.ok()) return first_error_;
    ++in_flight_;
  }

  if (!pool_) {  // synchronous: temporal first, then the rest, on this thread
    record(no_throw("computing the features", [&] { return run_temporal(*f); }));
    part_done(f);
    if (plain) {
      record(no_throw("computing the features", [&] { return run_plain(*f); }));
      part_done(f);
    }
    std::lock_guard lock(mutex_);
    return first_error_;
  }

  bool start_temporal = false;
  {
    std::lock_guard lock(mutex_);
    temporal_queue_.push_back(f);
    if (!temporal_running_) start_temporal = temporal_running_ = true;
  }
  if (start_temporal) pool_->submit([this] { drain_temporal(); });
  if (plain) {
    pool_->submit([this, f] {
      record(no_throw("computing the features", [&] { return run_plain(*f); }));
      part_done(f);
    });
  }
  return Status::Ok();
}

}  // namespace vqx

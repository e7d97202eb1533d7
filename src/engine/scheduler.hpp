// The frame scheduler: runs each frame's CPU extractors, on the calling
// thread or on the context's own pool, and hands the pictures back for
// reuse when the frame is done.
//
// With a pool (threads >= 2):
//  * the plain extractors of a frame run as one job; each takes an idle
//    instance (at most one instance per worker ever exists);
//  * temporal extractors run through a serial queue, strictly in index
//    order, one frame at a time, on whichever worker is free;
//  * frames in flight are bounded (2 x threads): run() blocks at the bound,
//    so memory stays flat however long the video;
//  * a finished frame's pictures go to the recycling list that
//    fetch_picture() takes from (engine/picture_recycler.hpp), once every
//    holder of the frame's FramePictures has let go: the CPU extractors,
//    and the GPU pipeline while it uploads straight from the pictures.
// Without one, run() computes the frame before it returns: temporal
// extractors first, then the rest. The first error of any frame is kept;
// the context returns it from every later call.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/extractor.hpp"
#include "core/fork_join.hpp"
#include "core/thread_pool.hpp"
#include "engine/feature_collector.hpp"
#include "engine/picture_recycler.hpp"
#include "engine/pool_fork_join.hpp"
#include "engine/registration.hpp"
#include "vqx/picture.hpp"
#include "vqx/status.hpp"

namespace vqx {

class FrameScheduler {
 public:
  // threads 0 or 1: everything on the calling thread; more: a pool of that
  // many workers (a kLimit error when they cannot start). The extractors
  // and the collector outlive the scheduler. Instances it makes (the first
  // use of a plain extractor on a worker) are made in `env`, the context's.
  static Expected<std::unique_ptr<FrameScheduler>> create(
      unsigned threads, std::deque<RegisteredExtractor>& extractors, FeatureCollector& collector,
      ExtractorEnv env);
  // Waits for the frames in flight, then joins the workers.
  ~FrameScheduler();
  FrameScheduler(const FrameScheduler&) = delete;
  FrameScheduler& operator=(const FrameScheduler&) = delete;

  // Frame `index`: its temporal extractors always, the others when
  // `sampled`. Without a pool, returns the first error once the frame is
  // done; with one, returns once the frame is queued (or the first error,
  // if one was recorded while it waited for room).
  Status run(Picture ref, Picture dist, unsigned index, bool sampled);
  // The same, with the pictures shared (share()) with another reader.
  Status run(std::shared_ptr<FramePictures> pictures, unsigned index, bool sampled);
  // A frame's pictures, to be shared by run() and another reader (the GPU
  // upload): recycled when the last holder lets go.
  std::shared_ptr<FramePictures> share(Picture ref, Picture dist) {
    return recycler_->share(std::move(ref), std::move(dist));
  }
  // Waits until no frame is in flight; returns the first error.
  Status wait_idle();
  // The first error recorded (Ok while there is none).
  [[nodiscard]] Status first_error();
  // Keeps `s` when it is the first error.
  void record(const Status& s);
  // A recycled picture of `fmt` when one is free, else a new one (from the
  // maker: Picture::make unless set_picture_maker() said otherwise).
  Expected<Picture> fetch_picture(const PictureFormat& fmt) { return recycler_->fetch(fmt); }
  // Before the first fetch: where new pictures come from.
  void set_picture_maker(PictureRecycler::Maker maker) { recycler_->set_maker(std::move(maker)); }
  // A recycled picture of `fmt`, if one is free.
  std::optional<Picture> take_recycled(const PictureFormat& fmt) { return recycler_->take(fmt); }
  // Pictures waiting to be fetched again: at most 2 x (frames in flight +
  // 1), so that a caller who never fetches does not grow memory.
  [[nodiscard]] std::size_t recycled_count() { return recycler_->count(); }
  // The workers as a ForkJoin, for sharing a frame's staging copy (the GPU
  // pipeline's); null without a pool.
  [[nodiscard]] const ForkJoin* fork_join() const { return fork_join_.get(); }

 private:
  struct Frame;
  FrameScheduler(std::deque<RegisteredExtractor>& extractors, FeatureCollector& collector,
                 ExtractorEnv env)
      : extractors_(extractors), collector_(collector), env_(std::move(env)) {}

  Status run_plain(Frame& f);
  Status run_temporal(Frame& f);
  void part_done(const std::shared_ptr<Frame>& f);
  void drain_temporal();

  std::deque<RegisteredExtractor>& extractors_;
  FeatureCollector& collector_;
  const ExtractorEnv env_;

  // Frames in flight, bounded so that memory stays flat on long videos.
  std::mutex mutex_;
  std::condition_variable cv_;
  unsigned in_flight_ = 0;
  unsigned max_in_flight_ = 1;
  Status first_error_;
  std::shared_ptr<PictureRecycler> recycler_;

  // Temporal work runs strictly in index order, one frame at a time.
  std::deque<std::shared_ptr<Frame>> temporal_queue_;
  bool temporal_running_ = false;

  // Last: joined (in the destructor) before anything its jobs touch goes.
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<PoolForkJoin> fork_join_;  // over pool_
};

}  // namespace vqx

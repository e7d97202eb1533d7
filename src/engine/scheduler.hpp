// The frame scheduler: runs each frame's CPU extractors, on the calling
// thread or on the context's own pool, and hands the pictures back for
// reuse when the frame is done.
//
// With a pool (threads >= 2), each frame is a job for its temporal
// extractors, and a job for each plain extractor when it is sampled:
//  * first the per-frame stage of the temporal extractors that have stages
//    (core/extractor.hpp, TemporalStages: prepare(), any order, several
//    frames at once, each job with a lane of its own), reading the frame's
//    pictures and those of up to FrameWindow::kMaxHistory frames before it,
//    which the scheduler keeps for it;
//  * then the ordered stage: whichever job completes the prepared run of
//    frames next in index order finishes them, one at a time in order
//    (finish(); temporal extractors without stages run extract() here
//    whole), while other jobs go on;
//  * when the frame is sampled, each plain extractor's work on it (VIF's,
//    ADM's) is a job of its own: a worker takes the oldest such task whose
//    extractor has an idle instance, so that workers run different
//    extractors side by side and a run of many features keeps about one
//    instance of each (their buffers and caches made once); when every
//    remaining task's extractor is busy, it makes one more instance rather
//    than wait (at most one per worker ever exists);
//  * frames in flight are bounded (2 x threads, plus the frames whose
//    pictures a later frame's prepare() reads): run() blocks at the bound,
//    so memory stays flat however long the video; the ring of each
//    extractor's stages has one entry per frame in flight (plus those its
//    finish() reads back);
//  * a finished frame's pictures go to the recycling list that
//    fetch_picture() takes from (engine/picture_recycler.hpp), once every
//    holder of the frame's FramePictures has let go: the CPU extractors,
//    the later frames whose prepare() reads them, and the GPU pipeline
//    while it uploads straight from the pictures.
// Without one, run() computes the frame before it returns, in the same
// order. The first error of any frame is kept; the context returns it from
// every later call.
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
  // The end of the video: lets go of the pictures kept for later frames,
  // waits until no frame is in flight and returns the first error.
  Status wait_idle();
  // The first error recorded (Ok while there is none).
  [[nodiscard]] Status first_error();
  // Keeps `s` when it is the first error.
  void record(const Status& s);
  // A recycled picture of `fmt` when one is free, else a new one (from the
  // maker: Picture::make unless set_picture_maker() said otherwise).
  Expected<Picture> fetch_picture(const PictureFormat& fmt) { return recycler_->fetch(fmt); }
  // Before the first fetch: where new pictures come from.
  // `memory`: where the maker's planes come from (PictureRecycler::set_maker).
  void set_picture_maker(PictureRecycler::Maker maker, const PlaneMemory* memory) {
    recycler_->set_maker(std::move(maker), memory);
  }
  // A recycled picture of `fmt`, if one is free.
  std::optional<Picture> take_recycled(const PictureFormat& fmt) { return recycler_->take(fmt); }
  // A caller that fetches up to `pictures` ahead of the frames it runs:
  // as many more are kept for reuse (PictureRecycler::add_room).
  Status reserve_pictures(std::size_t pictures) { return recycler_->add_room(pictures); }
  // Pictures waiting to be fetched again: at most 2 x (frames in flight +
  // 1), plus those reserved, so that a caller who never fetches does not
  // grow memory.
  [[nodiscard]] std::size_t recycled_count() { return recycler_->count(); }
  // The workers as a ForkJoin, for sharing a frame's staging copy (the GPU
  // pipeline's); null without a pool.
  [[nodiscard]] const ForkJoin* fork_join() const { return fork_join_.get(); }

 private:
  struct Frame;
  FrameScheduler(std::deque<RegisteredExtractor>& extractors, FeatureCollector& collector,
                 ExtractorEnv env)
      : extractors_(extractors), collector_(collector), env_(std::move(env)) {}

  // A CPU temporal extractor and its stages (null: extract() whole).
  struct Temporal {
    RegisteredExtractor* registered;
    TemporalStages* stages;
  };

  // At the first frame (the extractors are initialised by then): the
  // temporal extractors, the pictures kept for them, their rings and lanes.
  Status plan();
  // A plain extractor's work on a sampled frame, not begun (with a pool).
  struct PlainTask {
    std::shared_ptr<Frame> frame;
    RegisteredExtractor* extractor = nullptr;
  };

  void run_frame(const std::shared_ptr<Frame>& f);
  // Without a pool: the plain extractors on `f`, in registration order.
  Status run_plain(Frame& f);
  // With one: a job per task; each runs one pending task (the rule above).
  void run_plain_task();
  // An idle instance of `r`, or null when every one is busy.
  std::unique_ptr<Extractor> take_instance(RegisteredExtractor& r);
  // `r` on `f` with `inst` (null: a new instance), which then goes idle.
  Status run_extractor(RegisteredExtractor& r, std::unique_ptr<Extractor> inst, const Frame& f);
  Status prepare(Frame& f);
  Status run_ordered(Frame& f);
  // Frame `f` has been prepared (`ok`: without an error): finishes every
  // frame now ready in index order, unless another thread is doing it.
  void frame_prepared(const std::shared_ptr<Frame>& f, bool ok);
  void drain_ordered();
  void part_done(const std::shared_ptr<Frame>& f);
  unsigned take_lane();
  void give_lane(unsigned lane);

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

  // Set by plan(), then only read.
  bool planned_ = false;
  std::vector<Temporal> temporal_;           // registration order
  std::vector<RegisteredExtractor*> plain_;  // the CPU's plain extractors, the same
  bool any_stages_ = false;                  // some of temporal_ have stages
  unsigned history_ = 0;                     // earlier frames whose pictures prepare() reads

  // The last history_ frames, kept (one part each) for the next frames.
  std::deque<std::shared_ptr<Frame>> window_;
  // Frames whose ordered stage has not run, in index order.
  std::deque<std::shared_ptr<Frame>> ordered_;
  bool ordering_ = false;  // a thread is running the ordered stage
  std::vector<unsigned> free_lanes_;
  // Plain tasks not begun, in frame order; and every plain extractor's
  // `idle` list: both under mutex_.
  std::deque<PlainTask> pending_plain_;

  // Last: joined (in the destructor) before anything its jobs touch goes.
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<PoolForkJoin> fork_join_;  // over pool_
};

}  // namespace vqx

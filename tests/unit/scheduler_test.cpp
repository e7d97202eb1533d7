// The frame scheduler's recycling of finished frames' pictures.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/picture_internals.hpp"
#include "engine/feature_collector.hpp"
#include "engine/registration.hpp"
#include "engine/scheduler.hpp"

namespace vqx {
namespace {

TEST(Scheduler, RecycledPicturesAreBoundedWhenTheCallerNeverFetches) {
  // An API caller bringing its own pictures each frame: before, the
  // recycling list grew by two pictures a frame for the whole run.
  for (unsigned threads : {0U, 3U}) {
    FeatureCollector collector;
    std::deque<RegisteredExtractor> extractors;
    auto scheduler = FrameScheduler::create(threads, extractors, collector,
                                            ExtractorEnv{std::make_shared<OutputFiles>()})
                         .value();
    const PictureFormat fmt{16, 16, 8, ChromaFormat::k420};
    for (unsigned i = 0; i < 50; ++i) {
      ASSERT_TRUE(
          scheduler->run(Picture::make(fmt).value(), Picture::make(fmt).value(), i, true).ok());
    }
    ASSERT_TRUE(scheduler->wait_idle().ok());
    const std::size_t in_flight = threads >= 2 ? 2 * threads : 1;
    EXPECT_LE(scheduler->recycled_count(), 2 * (in_flight + 1)) << threads;
    EXPECT_GE(scheduler->recycled_count(), 2U) << threads;
  }
}

TEST(Scheduler, PicturesFetchedAheadAreKeptForReuseWhenRoomIsReserved) {
  // A read-ahead fetches pictures for the frames it reads ahead (here 8:
  // two videos, four frames each), and gets them back a few frames at a
  // time. Without the room reserved, the pool (4 pictures without workers)
  // freed those it had no room for, and the readers allocated new ones,
  // round after round.
  for (const std::size_t reserved : {0U, 8U}) {
    FeatureCollector collector;
    std::deque<RegisteredExtractor> extractors;
    auto scheduler = FrameScheduler::create(0, extractors, collector,
                                            ExtractorEnv{std::make_shared<OutputFiles>()})
                         .value();
    ASSERT_TRUE(scheduler->reserve_pictures(reserved).ok());
    const PictureFormat fmt{16, 16, 8, ChromaFormat::k420};
    unsigned made = 0;
    unsigned index = 0;
    for (unsigned round = 0; round < 10; ++round) {
      std::deque<Picture> ahead;
      for (unsigned k = 0; k < 8; ++k) {
        if (scheduler->recycled_count() == 0) ++made;
        ahead.push_back(scheduler->fetch_picture(fmt).value());
      }
      while (!ahead.empty()) {
        Picture ref = std::move(ahead.front());
        ahead.pop_front();
        Picture dist = std::move(ahead.front());
        ahead.pop_front();
        ASSERT_TRUE(scheduler->run(std::move(ref), std::move(dist), index++, true).ok());
      }
    }
    ASSERT_TRUE(scheduler->wait_idle().ok());
    EXPECT_EQ(made, reserved == 0 ? 8U + (9 * 4) : 8U) << reserved;
    EXPECT_EQ(scheduler->recycled_count(), reserved == 0 ? 4U : 8U) << reserved;
  }
}

std::unique_ptr<FrameScheduler> make_scheduler(unsigned threads, FeatureCollector& collector,
                                               std::deque<RegisteredExtractor>& extractors) {
  return FrameScheduler::create(threads, extractors, collector,
                                ExtractorEnv{std::make_shared<OutputFiles>()})
      .value();
}

TEST(Scheduler, AFramesPicturesAreRecycledOnlyOnceEveryHolderHasLetGo) {
  // The GPU pipeline holds a frame's pictures while it uploads straight
  // from them: the CPU work being done must not recycle them (a reader
  // would refill a picture still being copied).
  for (unsigned threads : {0U, 3U}) {
    FeatureCollector collector;
    std::deque<RegisteredExtractor> extractors;
    auto scheduler = make_scheduler(threads, collector, extractors);
    const PictureFormat fmt{16, 16, 8, ChromaFormat::k420};
    std::shared_ptr<FramePictures> pictures =
        scheduler->share(Picture::make(fmt).value(), Picture::make(fmt).value());
    const void* ref_rows = std::as_const(pictures->ref).plane(0).data();
    const void* dist_rows = std::as_const(pictures->dist).plane(0).data();
    std::shared_ptr<const void> upload = pictures;  // what the pipeline keeps
    ASSERT_TRUE(scheduler->run(std::move(pictures), 0, true).ok());
    ASSERT_TRUE(scheduler->wait_idle().ok());
    EXPECT_EQ(scheduler->recycled_count(), 0U)
        << threads << " threads: recycled while the upload still held them";
    upload.reset();
    EXPECT_EQ(scheduler->recycled_count(), 2U) << threads << " threads";
    const Picture a = scheduler->fetch_picture(fmt).value();
    const Picture b = scheduler->fetch_picture(fmt).value();
    EXPECT_EQ(a.plane(0).data(), ref_rows) << threads << " threads";
    EXPECT_EQ(b.plane(0).data(), dist_rows) << threads << " threads";
  }
}

TEST(Scheduler, AFrameLetGoAfterTheSchedulerIsGoneIsFreedWithoutHarm) {
  // The pipeline may outlive the scheduler (or the reverse): the pool lives
  // as long as its last holder.
  FeatureCollector collector;
  std::deque<RegisteredExtractor> extractors;
  auto scheduler = make_scheduler(3, collector, extractors);
  const PictureFormat fmt{16, 16, 8, ChromaFormat::k400};
  std::shared_ptr<const void> upload =
      scheduler->share(Picture::make(fmt).value(), Picture::make(fmt).value());
  scheduler.reset();
  upload.reset();  // (ASan: no use after free, no leak)
}

// Counts what it gives; ordinary aligned memory underneath.
class CountingMemory final : public PlaneMemory {
 public:
  void* allocate(std::size_t bytes) const override {
    ++allocations;
    return std::aligned_alloc(64, bytes);
  }
  void release(void* p) const override {
    ++releases;
    std::free(p);
  }
  mutable std::atomic<int> allocations{0};
  mutable std::atomic<int> releases{0};
};

// New pictures of `scheduler` made in `memory`.
void use_maker_of(FrameScheduler& scheduler, const CountingMemory& memory) {
  scheduler.set_picture_maker(
      [&memory](const PictureFormat& f) { return detail::PictureInternals::make_in(f, memory); },
      &memory);
}

TEST(Scheduler, NewPicturesComeFromTheMakerAndAreRecycledAsBefore) {
  // A GPU context's maker gives pinned pictures; their allocation is slow,
  // so in steady state every picture must be a recycled one.
  CountingMemory memory;
  {
    FeatureCollector collector;
    std::deque<RegisteredExtractor> extractors;
    auto scheduler = make_scheduler(0, collector, extractors);
    use_maker_of(*scheduler, memory);
    const PictureFormat fmt{32, 8, 8, ChromaFormat::k420};
    for (unsigned i = 0; i < 20; ++i) {
      Picture ref = scheduler->fetch_picture(fmt).value();
      Picture dist = scheduler->fetch_picture(fmt).value();
      EXPECT_EQ(std::as_const(ref).plane(1).memory(), &memory);
      ASSERT_TRUE(scheduler->run(std::move(ref), std::move(dist), i, true).ok());
    }
    EXPECT_EQ(memory.allocations.load(), 2 * 3) << "one frame's pictures, then recycled ones";
    EXPECT_EQ(memory.releases.load(), 0);
  }
  EXPECT_EQ(memory.releases.load(), 2 * 3) << "the recycled pictures freed with the scheduler";
}

// A caller's own pictures (Picture::make) given to a context whose maker
// makes pictures in other memory are freed after their frame, not kept:
// a fetch then hands out only the maker's pictures (in a GPU context, the
// pinned ones that are uploaded straight from their rows).
TEST(Scheduler, PicturesFromElsewhereAreNotHandedOutByAFetch) {
  CountingMemory memory;
  FeatureCollector collector;
  std::deque<RegisteredExtractor> extractors;
  auto scheduler = make_scheduler(0, collector, extractors);
  use_maker_of(*scheduler, memory);
  const PictureFormat fmt{32, 8, 8, ChromaFormat::k420};
  for (unsigned i = 0; i < 4; ++i) {
    ASSERT_TRUE(
        scheduler->run(Picture::make(fmt).value(), Picture::make(fmt).value(), i, true).ok());
  }
  EXPECT_EQ(scheduler->recycled_count(), 0U);
  Picture fetched = scheduler->fetch_picture(fmt).value();
  EXPECT_EQ(std::as_const(fetched).plane(0).memory(), &memory);
  EXPECT_EQ(memory.allocations.load(), 3);
}

// Extractors that meet in pairs: extract() of frame i waits (up to a few
// seconds) until a second extract() with the same meeting key has begun.
// Whatever the machine's load, the wait ends only when two workers run the
// two calls at once.
struct Meeting {
  std::mutex mutex;
  std::condition_variable cv;
  std::map<unsigned, int> arrived;  // by key
  int missed = 0;                   // waits that timed out
  std::atomic<int> made{0};         // instances made
};

class MeetingExtractor final : public Extractor {
 public:
  MeetingExtractor(Meeting& m, unsigned frames_per_key) : m_(m), per_key_(frames_per_key) {
    ++m_.made;
  }
  Status init(const PictureFormat& /*fmt*/) override { return Status::Ok(); }
  Status extract(const Picture& /*ref*/, const Picture& /*dist*/, unsigned index,
                 FeatureWriter& /*out*/) override {
    const unsigned key = index / per_key_;
    std::unique_lock lock(m_.mutex);
    ++m_.arrived[key];
    m_.cv.notify_all();
    if (!m_.cv.wait_for(lock, std::chrono::seconds(3), [&] { return m_.arrived[key] >= 2; })) {
      ++m_.missed;
    }
    return Status::Ok();
  }

 private:
  Meeting& m_;
  unsigned per_key_;
};

// Six frames on two workers through `families` plain extractors whose
// instances meet by key index / frames_per_key, each with the one instance
// a context makes at set-up.
void run_meeting(Meeting& m, unsigned families, unsigned frames_per_key) {
  FeatureCollector collector;
  std::deque<RegisteredExtractor> extractors;
  for (unsigned k = 0; k < families; ++k) {
    RegisteredExtractor& r = extractors.emplace_back();
    r.spec.family = "meeting" + std::to_string(k);
    r.spec.make_cpu = [&m, frames_per_key](const ExtractorEnv&) {
      return std::make_unique<MeetingExtractor>(m, frames_per_key);
    };
    r.idle.push_back(r.spec.make_cpu(ExtractorEnv{std::make_shared<OutputFiles>()}));
  }
  auto scheduler = make_scheduler(2, collector, extractors);
  const PictureFormat fmt{16, 16, 8, ChromaFormat::k400};
  for (unsigned i = 0; i < 6; ++i) {
    ASSERT_TRUE(
        scheduler->run(Picture::make(fmt).value(), Picture::make(fmt).value(), i, true).ok());
  }
  ASSERT_TRUE(scheduler->wait_idle().ok());
}

TEST(Scheduler, TwoWorkersRunAFramesExtractorsSideBySideWithOneInstanceEach) {
  // Two features, each of whose extract() of frame i waits for the other's:
  // a worker must take the other feature of the same frame rather than the
  // same feature of the next frame. Before, each frame was one job running
  // its extractors in turn, so the two workers ran the same feature on two
  // frames, each with an instance of its own (every buffer and cache made
  // twice: much of the 10-17 % more CPU that the 17 libvmaf features took
  // on 2 threads than on 1), and here every wait timed out.
  Meeting m;
  run_meeting(m, 2, 1);
  EXPECT_EQ(m.missed, 0) << "the two features of a frame did not run side by side";
  EXPECT_EQ(m.made.load(), 2) << "instances made beyond the one of each feature";
}

TEST(Scheduler, AWorkerMakesAnotherInstanceRatherThanWaitForABusyOne) {
  // One feature, two workers: frames 2k and 2k + 1 wait for each other, so
  // the second worker must run the feature on its own instance.
  Meeting m;
  run_meeting(m, 1, 2);
  EXPECT_EQ(m.missed, 0) << "two frames of the one feature did not run side by side";
  EXPECT_EQ(m.made.load(), 2) << "one instance per worker";
}

}  // namespace
}  // namespace vqx

// The frame scheduler's recycling of finished frames' pictures.
#include <gtest/gtest.h>

#include <deque>
#include <memory>

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

}  // namespace
}  // namespace vqx

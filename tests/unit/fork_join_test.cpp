// The engine's ForkJoin over a thread pool (what the GPU pipeline's staging
// copy runs on): every piece once, piece 0 on the caller, the others on the
// workers, and run() returns only when all have finished.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core/thread_pool.hpp"
#include "engine/pool_fork_join.hpp"

namespace vqx {
namespace {

TEST(PoolForkJoin, RunsEveryPieceOnceAndPieceZeroOnTheCaller) {
  ThreadPool pool(3);
  const PoolForkJoin fj(pool);
  EXPECT_EQ(fj.helpers(), 3U);
  std::vector<std::atomic<int>> runs(4);
  std::vector<std::thread::id> where(4);
  fj.run(3, [&](unsigned i) {
    runs[i].fetch_add(1);
    where[i] = std::this_thread::get_id();
  });
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(runs[i].load(), 1) << "piece " << i;
  EXPECT_EQ(where[0], std::this_thread::get_id());
  for (unsigned i = 1; i < 4; ++i) EXPECT_NE(where[i], std::this_thread::get_id()) << "piece " << i;
}

TEST(PoolForkJoin, ReturnsOnlyWhenTheSlowestPieceHasFinished) {
  ThreadPool pool(2);
  const PoolForkJoin fj(pool);
  std::atomic<bool> slow_done{false};
  fj.run(2, [&](unsigned i) {
    if (i == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      slow_done = true;
    }
  });
  EXPECT_TRUE(slow_done.load());
}

TEST(PoolForkJoin, NoHelpersRunsOnlyTheCallersPiece) {
  ThreadPool pool(2);
  const PoolForkJoin fj(pool);
  std::vector<unsigned> ran;
  fj.run(0, [&](unsigned i) { ran.push_back(i); });
  EXPECT_EQ(ran, std::vector<unsigned>{0});
}

}  // namespace
}  // namespace vqx

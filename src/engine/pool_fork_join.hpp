// The engine's ForkJoin: the pieces beyond the caller's run as jobs on the
// context's thread pool.
#pragma once

#include <functional>

#include "core/fork_join.hpp"
#include "core/thread_pool.hpp"

namespace vqx {

class PoolForkJoin final : public ForkJoin {
 public:
  // `pool` outlives this. Its workers must not call run(): a piece waiting
  // for pieces queued behind it on the same pool could wait forever.
  explicit PoolForkJoin(ThreadPool& pool) : pool_(pool) {}
  [[nodiscard]] unsigned helpers() const override { return pool_.size(); }
  void run(unsigned n, const std::function<void(unsigned)>& piece) const override;

 private:
  ThreadPool& pool_;
};

}  // namespace vqx

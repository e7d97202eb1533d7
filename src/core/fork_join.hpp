// Running a few pieces of one job side by side, and waiting for them all.
// The engine makes one from its thread pool; code below the engine (the GPU
// pipeline's staging copy) takes it to share a copy among threads without
// scheduling anything itself: it knows no pool, queue or thread.
#pragma once

#include <functional>

namespace vqx {

class ForkJoin {
 public:
  virtual ~ForkJoin() = default;
  // How many pieces may run beside the caller's own (0: none).
  [[nodiscard]] virtual unsigned helpers() const = 0;
  // Runs piece(1) .. piece(n) on helper threads and piece(0) on the calling
  // thread, and returns once all n + 1 have finished. n <= helpers().
  virtual void run(unsigned n, const std::function<void(unsigned)>& piece) const = 0;
};

}  // namespace vqx

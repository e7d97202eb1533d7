#include "engine/pool_fork_join.hpp"

#include <latch>

namespace vqx {

void PoolForkJoin::run(unsigned n, const std::function<void(unsigned)>& piece) const {
  std::latch finished(n);
  for (unsigned j = 1; j <= n; ++j) {
    pool_.submit([&piece, &finished, j] {
      piece(j);
      finished.count_down();
    });
  }
  piece(0);
  finished.wait();
}

}  // namespace vqx

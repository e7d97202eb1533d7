// Running a GPU kernel's own source on the CPU, without a device (the
// device-free kernel tests: ssim_kernels_test.cpp, speed_kernels_test.cpp).
// What nvcc and hipcc provide is given here for host threads: each block's
// threads are threads of this process (std::thread), its barriers a
// std::barrier, its shared arrays function-local statics (one array per
// kernel instantiation, shared by the block's threads; the blocks run one
// after the other). Include this before the kernels' header, and
// `#undef __shared__` after it.
#pragma once

#include <barrier>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;
};
inline thread_local dim3 threadIdx;
inline thread_local dim3 blockIdx;
inline thread_local dim3 blockDim;
inline thread_local std::barrier<>* t_block_barrier = nullptr;
inline void __syncthreads() { t_block_barrier->arrive_and_wait(); }
#define __global__
#define __device__
#define __launch_bounds__(...)
#define __shared__ static

namespace vqx::gpu_on_host {

// Runs `kernel()` as a grid of blocks of `block.x * block.y` threads: one
// host thread per GPU thread of a block, the blocks one after the other (a
// barrier between them). Every thread reaches every barrier, as CUDA
// requires of __syncthreads.
template <typename Kernel>
void run_grid(dim3 grid, dim3 block, const Kernel& kernel) {
  const unsigned threads = block.x * block.y;
  std::barrier<> barrier(threads);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned ty = 0; ty < block.y; ++ty) {
    for (unsigned tx = 0; tx < block.x; ++tx) {
      pool.emplace_back([&, tx, ty] {
        threadIdx = {tx, ty, 0};
        blockDim = {block.x, block.y, 1};
        t_block_barrier = &barrier;
        for (unsigned bz = 0; bz < grid.z; ++bz) {
          for (unsigned by = 0; by < grid.y; ++by) {
            for (unsigned bx = 0; bx < grid.x; ++bx) {
              blockIdx = {bx, by, bz};
              kernel();
              barrier.arrive_and_wait();  // the block's end
            }
          }
        }
      });
    }
  }
  for (auto& t : pool) t.join();
}

// Runs block `index` of a grid whose kernel never synchronises: its
// threads in turn, on the calling thread.
template <typename Kernel>
void run_block(dim3 index, dim3 block, const Kernel& kernel) {
  blockDim = {block.x, block.y, 1};
  blockIdx = index;
  for (unsigned ty = 0; ty < block.y; ++ty) {
    for (unsigned tx = 0; tx < block.x; ++tx) {
      threadIdx = {tx, ty, 0};
      kernel();
    }
  }
}

// Runs `kernel()` as a grid whose kernel never synchronises: every thread in
// turn, on the calling thread (much faster than run_grid, which starts a
// host thread per GPU thread of a block).
template <typename Kernel>
void run_each(dim3 grid, dim3 block, const Kernel& kernel) {
  for (unsigned bz = 0; bz < grid.z; ++bz) {
    for (unsigned by = 0; by < grid.y; ++by) {
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        run_block({bx, by, bz}, block, kernel);
      }
    }
  }
}

}  // namespace vqx::gpu_on_host

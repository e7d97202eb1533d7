// Zeroed, 64-byte aligned memory for large buffers that are written before
// they are read (pictures' planes, the float features' images), without
// writing the zeros where the kernel can give them.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

#include "core/index_math.hpp"

namespace vqx {

// The alignment of allocate_zeroed()'s memory (an AVX-512 vector).
inline constexpr std::size_t kZeroedAlign = 64;

// `bytes` of memory, every byte zero, 64-byte aligned; null when there is
// none. From 256 KiB on, where the kernel offers transparent huge pages,
// fresh mapped memory in whole huge pages (zero without being written, one
// page fault per 2 MiB when first written), which buffers of up to 1 MiB
// share with others; else aligned_alloc's, zeroed.
[[nodiscard]] void* allocate_zeroed(std::size_t bytes);
// Gives back what allocate_zeroed() returned (null: nothing).
void release_zeroed(void* p);
// Whether large buffers are such mappings here (transparent huge pages
// offered, not an AddressSanitizer build).
[[nodiscard]] bool large_buffers_are_mapped();

struct ReleaseZeroed {
  void operator()(void* p) const { release_zeroed(p); }
};

// An array of `n` zero values of a trivial type T, on allocate_zeroed();
// throws std::bad_alloc when there is no memory.
template <typename T>
using ZeroedArray = std::unique_ptr<T[], ReleaseZeroed>;
template <typename T>
ZeroedArray<T> make_zeroed_array(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "zero bytes must be a value of T");
  ZeroedArray<T> a(static_cast<T*>(allocate_zeroed(n * sizeof(T))));
  if (!a) throw std::bad_alloc();
  return a;
}

// Several zeroed arrays in one allocate_zeroed() block, each 64-byte
// aligned: a kernel's large buffers in one mapping, so that with huge pages
// their first writes take one page fault per 2 MiB of them all, not one per
// buffer's own 2 MiB (nor one per 4 KiB: on a virtual machine, thousands of
// those were a third of a short run's start-up; docs/performance.md, "Start-up
// without small page faults"). Plan every array, allocate, then take them.
class ZeroedSlab {
 public:
  // Plans an array of n values of T; returns its place for get().
  template <typename T>
  std::size_t plan(std::size_t n) {
    const std::size_t at = bytes_;
    bytes_ += round_up(n * sizeof(T), kZeroedAlign);
    return at;
  }
  // Allocates what was planned, zeroed; throws std::bad_alloc without memory.
  void allocate() { data_ = make_zeroed_array<std::byte>(bytes_); }
  // The array planned at `at`, once allocated.
  template <typename T>
  [[nodiscard]] T* get(std::size_t at) const {
    return reinterpret_cast<T*>(data_.get() + at);
  }

 private:
  std::size_t bytes_ = 0;
  ZeroedArray<std::byte> data_;
};

}  // namespace vqx

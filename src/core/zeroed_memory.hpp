// Zeroed, 64-byte aligned memory for large buffers that are written before
// they are read (pictures' planes, the float features' images), without
// writing the zeros where the kernel can give them.
#pragma once

#include <cstddef>
#include <memory>

namespace vqx {

// `bytes` of memory, every byte zero, 64-byte aligned; null when there is
// none. From 256 KiB on, where the kernel offers transparent huge pages, a
// fresh mapping of whole huge pages (zero without being written, one page
// fault per 2 MiB when first written); else aligned_alloc's, zeroed.
[[nodiscard]] void* allocate_zeroed(std::size_t bytes);
// Gives back what allocate_zeroed() returned (null: nothing).
void release_zeroed(void* p);
// Whether large buffers are such mappings here (transparent huge pages
// offered, not an AddressSanitizer build).
[[nodiscard]] bool large_buffers_are_mapped();

struct ReleaseZeroed {
  void operator()(void* p) const { release_zeroed(p); }
};

// An array of `n` zero values of a trivial type T, on allocate_zeroed().
template <typename T>
using ZeroedArray = std::unique_ptr<T[], ReleaseZeroed>;
template <typename T>
ZeroedArray<T> make_zeroed_array(std::size_t n) {
  return ZeroedArray<T>(static_cast<T*>(allocate_zeroed(n * sizeof(T))));
}

}  // namespace vqx

#include "core/zeroed_memory.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

#include "core/index_math.hpp"

namespace vqx {

namespace {
constexpr std::size_t kAlign = kZeroedAlign;

// Large buffers are mapped from the kernel, in huge pages, rather than
// taken from malloc, where the kernel offers transparent huge pages: a
// fresh mapping reads as zeros, so the buffer needs no memset (which, on
// fresh memory, also took every page fault: a short 4K run spent a third
// of its time zeroing new pictures that the reader then overwrote), and
// the first writes take one fault per 2 MiB instead of 512
// (docs/performance.md, "New pictures without zeroing"). Without huge pages
// a mapping would fault page by page as malloc's memory does, and malloc
// reuses what was freed, so buffers come from malloc (and are zeroed)
// there, as smaller buffers do everywhere.
// From 256 KiB on (a 1080p picture's chroma planes, 518,400 bytes, were
// the first below the former 1 MiB): a huge page is then up to 8 times
// what the buffer needs, but only once written, and a plane that is never
// written (the chroma of a luma-only run: no feature reads it, no reader
// fills it) costs nothing, where malloc's memset faulted in every page of
// it. With 2 threads at 1080p that was a fifth of `-n --feature motion`'s
// CPU time, and 1080p vmaf_v0.6.1 took 7 % less CPU without it
// (docs/performance.md, "Chroma planes without zeroing").
constexpr std::size_t kMapAtLeast = std::size_t{256} << 10;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// The mappings, so that release_zeroed() (which sees only the pointer)
// unmaps them. They are few and freed rarely.
//
// Each buffer starts at its own offset into its mapping (a multiple of 64
// bytes below 4 KiB, in turn): buffers that started on page boundaries
// would share their addresses' low 12 bits, and kernels that read two side
// by side (ref and dist planes) then stall on 4K aliasing and contend for
// the same cache sets (in a profile of planes on page boundaries, psnr's
// kernel took 4 times its samples).
class Mappings {
 public:
  void* allocate(std::size_t bytes) {
    const std::size_t offset = kAlign * (1 + next_colour_.fetch_add(1) % kColours);
    // Whole huge pages, on a huge page boundary: the kernel can then back
    // the plane with them (where transparent huge pages are on, or on
    // madvise), one fault per 2 MiB instead of 512.
    const std::size_t length = round_up(bytes + offset, kHugePage);
    const std::size_t reserve = length + kHugePage;
    void* area = mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED) return nullptr;
    auto* first = static_cast<std::uint8_t*>(area);
    auto* base = reinterpret_cast<std::uint8_t*>(
        round_up(reinterpret_cast<std::uintptr_t>(first), std::uintptr_t{kHugePage}));
    // The unaligned head and the tail given back.
    if (base > first) munmap(first, static_cast<std::size_t>(base - first));
    const std::size_t tail = reserve - static_cast<std::size_t>(base - first) - length;
    if (tail > 0) munmap(base + length, tail);
#ifdef MADV_HUGEPAGE
    (void)madvise(base, length, MADV_HUGEPAGE);  // a hint; may be refused
#endif
    void* p = base + offset;
    try {
      const std::lock_guard<std::mutex> lock(mutex_);
      mappings_.emplace(p, Mapping{base, length});
    } catch (const std::bad_alloc&) {
      munmap(base, length);
      return nullptr;
    }
    return p;
  }
  // Unmaps `p` if it is a mapping; false if it is not one.
  bool release(void* p) {
    Mapping m{};
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      const auto it = mappings_.find(p);
      if (it == mappings_.end()) return false;
      m = it->second;
      mappings_.erase(it);
    }
    munmap(m.base, m.length);
    return true;
  }

 private:
  static constexpr std::size_t kColours = 4096 / kAlign - 1;
  struct Mapping {
    void* base;
    std::size_t length;
  };
  std::atomic<std::size_t> next_colour_{0};
  std::mutex mutex_;
  std::unordered_map<void*, Mapping> mappings_;
};

// Never destroyed: a picture may be freed during the program's exit.
Mappings& mappings() {
  static auto* all = new Mappings();
  return *all;
}
}  // namespace

// Whether the kernel may back a mapping asked for with madvise() with huge
// pages: Linux with transparent huge pages not set to "never".
// (Not under AddressSanitizer: malloc's buffers have the redzones that
// catch a kernel reading or writing past one.)
bool large_buffers_are_mapped() {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  static const bool offered = [] {
    std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f == nullptr) return false;
    char line[128] = {};
    const bool read = std::fgets(line, sizeof line, f) != nullptr;
    std::fclose(f);
    return read && std::strstr(line, "[never]") == nullptr;
  }();
  return offered;
#else
  return false;
#endif
}

void* allocate_zeroed(std::size_t bytes) {
  if (bytes >= kMapAtLeast && large_buffers_are_mapped()) return mappings().allocate(bytes);
  void* p = std::aligned_alloc(kAlign, round_up(bytes == 0 ? 1 : bytes, kAlign));
  if (p != nullptr) std::memset(p, 0, bytes);
  return p;
}

void release_zeroed(void* p) {
  if (p != nullptr && !mappings().release(p)) std::free(p);
}

}  // namespace vqx

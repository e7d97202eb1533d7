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

// Buffers of up to this many bytes (their colour offset included) share
// huge pages: each is carved, front to back, from the open "arena", a
// mapping of one huge page, and a new arena is opened when the next one
// does not fit. A huge page is zeroed whole by the kernel when first
// written, and on a virtual machine each costs milliseconds on its first
// touch (docs/performance.md, "Small buffers share huge pages"): a 1080p
// picture's chroma planes (518,400 bytes) took a huge page each, four of
// them now share one. An arena's memory is never handed out twice, so it
// is still zero when handed out; the arena is unmapped when its last
// buffer is given back and it is no longer open. A plane that is never
// written costs nothing still, unless a buffer beside it is written.
constexpr std::size_t kShareUpTo = std::size_t{1} << 20;
constexpr std::size_t kSmallPage = 4096;

// The mappings, so that release_zeroed() (which sees only the pointer)
// unmaps them. They are few and freed rarely.
//
// Each buffer starts at its own offset into its mapping or its arena's
// 4 KiB page (a multiple of 64 bytes below 4 KiB, in turn): buffers that
// started on page boundaries would share their addresses' low 12 bits, and
// kernels that read two side by side (ref and dist planes) then stall on 4K
// aliasing and contend for the same cache sets (in a profile of planes on
// page boundaries, psnr's kernel took 4 times its samples).
class Mappings {
 public:
  void* allocate(std::size_t bytes) {
    const std::size_t offset = kAlign * (1 + next_colour_.fetch_add(1) % kColours);
    if (bytes + offset <= kShareUpTo) return allocate_in_arena(bytes, offset);
    const std::size_t length = round_up(bytes + offset, kHugePage);
    std::uint8_t* base = map(length);
    if (base == nullptr) return nullptr;
    void* p = base + offset;
    try {
      const std::lock_guard<std::mutex> lock(mutex_);
      blocks_.emplace(base, Block{length, length, 1});
      owners_.emplace(p, base);
    } catch (const std::bad_alloc&) {
      forget(base);
      munmap(base, length);
      return nullptr;
    }
    return p;
  }
  // Unmaps `p`'s mapping when it was its last buffer; false if `p` is not
  // one of them.
  bool release(void* p) {
    std::uint8_t* unmap_base = nullptr;
    std::size_t unmap_length = 0;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      const auto it = owners_.find(p);
      if (it == owners_.end()) return false;
      std::uint8_t* base = it->second;
      owners_.erase(it);
      Block& b = blocks_.at(base);
      if (--b.live == 0 && base != open_) {
        unmap_base = base;
        unmap_length = b.length;
        blocks_.erase(base);
      }
    }
    if (unmap_base != nullptr) munmap(unmap_base, unmap_length);
    return true;
  }

 private:
  static constexpr std::size_t kColours = kSmallPage / kAlign - 1;
  struct Block {
    std::size_t length;
    std::size_t used;  // bytes handed out from the start (an arena's cursor)
    std::size_t live;  // buffers not given back
  };

  // `length` bytes (a multiple of kHugePage) on a huge page boundary, asked
  // to be backed by huge pages; null when there is no memory.
  static std::uint8_t* map(std::size_t length) {
    // Whole huge pages, on a huge page boundary: the kernel can then back
    // the buffer with them (where transparent huge pages are on, or on
    // madvise), one fault per 2 MiB instead of 512.
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
    return base;
  }

  // Drops a block the bookkeeping may hold for `base` (after a failed
  // insertion). Never throws.
  void forget(std::uint8_t* base) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    blocks_.erase(base);
    if (open_ == base) open_ = nullptr;
  }

  void* allocate_in_arena(std::size_t bytes, std::size_t offset) {
    std::uint8_t* fresh = nullptr;
    for (;;) {
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (open_ != nullptr) {
          Block& b = blocks_.at(open_);
          const std::size_t start = round_up(b.used, kSmallPage) + offset;
          if (start + bytes <= b.length) {
            void* p = open_ + start;
            try {
              owners_.emplace(p, open_);
            } catch (const std::bad_alloc&) {
              if (fresh != nullptr) munmap(fresh, kHugePage);
              return nullptr;
            }
            b.used = start + bytes;
            ++b.live;
            if (fresh != nullptr) munmap(fresh, kHugePage);  // another thread opened one
            return p;
          }
        }
        if (fresh != nullptr) {
          try {
            blocks_.emplace(fresh, Block{kHugePage, 0, 0});
          } catch (const std::bad_alloc&) {
            munmap(fresh, kHugePage);
            return nullptr;
          }
          // The arena it replaces goes once its last buffer does.
          if (open_ != nullptr && blocks_.at(open_).live == 0) {
            munmap(open_, blocks_.at(open_).length);
            blocks_.erase(open_);
          }
          open_ = fresh;
          fresh = nullptr;
          continue;  // take the buffer from it, under the same rules
        }
      }
      fresh = map(kHugePage);  // outside the lock
      if (fresh == nullptr) return nullptr;
    }
  }

  std::atomic<std::size_t> next_colour_{0};
  std::mutex mutex_;
  std::unordered_map<std::uint8_t*, Block> blocks_;  // by base
  std::unordered_map<void*, std::uint8_t*> owners_;  // buffer -> its block's base
  std::uint8_t* open_ = nullptr;                     // the arena small buffers come from
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

#include "vqx/picture.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "core/index_math.hpp"

namespace vqx {

namespace {
constexpr std::size_t kAlign = 64;

// Large planes in ordinary memory are mapped from the kernel, in huge
// pages, rather than taken from malloc, where the kernel offers transparent
// huge pages: a fresh mapping reads as zeros, so the plane needs no memset
// (which, on fresh memory, also took every page fault: a short 4K run spent
// a third of its time zeroing new pictures that the reader then overwrote),
// and the reader's first writes take one fault per 2 MiB instead of 512
// (docs/performance.md, "New pictures without zeroing"). Without huge pages
// a mapping would fault page by page as malloc's memory does, and malloc
// reuses what was freed, so planes come from malloc (and are zeroed) there,
// as smaller planes do everywhere.
constexpr std::size_t kMapAtLeast = std::size_t{1} << 20;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Whether the kernel may back a mapping asked for with madvise() with huge
// pages: Linux with transparent huge pages not set to "never".
// (Not under AddressSanitizer: malloc's planes have the redzones that catch
// a kernel reading or writing past a plane.)
bool huge_pages_offered() {
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

// The mapped planes, so that Release (which sees only the pointer) unmaps
// them. Planes are few and freed rarely.
//
// Each plane starts at its own offset into its mapping (a multiple of 64
// bytes below 4 KiB, in turn): planes that started on page boundaries would
// share their addresses' low 12 bits, and kernels that read two planes side
// by side (ref and dist) then stall on 4K aliasing and contend for the same
// cache sets (in a profile of planes on page boundaries, psnr's kernel took
// 4 times its samples).
class MappedPlanes {
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
  // Unmaps `p` if it is a mapped plane; false if it is not one.
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
MappedPlanes& mapped_planes() {
  static auto* planes = new MappedPlanes();
  return *planes;
}
}  // namespace

const char* to_string(ChromaFormat c) {
  switch (c) {
    case ChromaFormat::k400:
      return "400";
    case ChromaFormat::k420:
      return "420";
    case ChromaFormat::k422:
      return "422";
    case ChromaFormat::k444:
      return "444";
  }
  return "?";
}

unsigned PictureFormat::plane_width(unsigned p) const {
  if (p == 0 || chroma == ChromaFormat::k444) return width;
  return (width + 1) / 2;
}

unsigned PictureFormat::plane_height(unsigned p) const {
  if (p == 0 || chroma != ChromaFormat::k420) return height;
  return (height + 1) / 2;
}

std::size_t PictureFormat::packed_frame_bytes() const {
  std::size_t n = 0;
  for (unsigned p = 0; p < plane_count(); ++p) {
    n += std::size_t{plane_width(p)} * plane_height(p);
  }
  return n * bytes_per_sample();
}

Status validate(const PictureFormat& fmt) {
  if (fmt.width == 0 || fmt.height == 0) {
    return Error(Errc::kInvalidArgument, "picture size must be at least 1x1");
  }
  if (fmt.width > kMaxDimension || fmt.height > kMaxDimension ||
      std::uint64_t{fmt.width} * fmt.height > kMaxPixels) {
    return Error(Errc::kLimit, "picture size " + std::to_string(fmt.width) + "x" +
                                   std::to_string(fmt.height) + " exceeds the limit of " +
                                   std::to_string(kMaxDimension) + " per side");
  }
  if (fmt.bpc < 8 || fmt.bpc > 16) {
    return Error(Errc::kUnsupported,
                 "bit depth " + std::to_string(fmt.bpc) + " is not supported (8 to 16)");
  }
  return Status::Ok();
}

void Plane::Release::operator()(std::uint8_t* p) const {
  if (memory == nullptr) {
    if (!mapped_planes().release(p)) std::free(p);
  } else {
    memory->release(p);
  }
}

Plane::Plane(unsigned width, unsigned height, unsigned bytes_per_sample)
    : Plane(width, height, bytes_per_sample, nullptr) {}

Plane::Plane(unsigned width, unsigned height, unsigned bytes_per_sample, const PlaneMemory* memory)
    : data_(nullptr, Release{memory}),
      width_(width),
      height_(height),
      bps_(bytes_per_sample),
      stride_(round_up(std::size_t{width} * bytes_per_sample, kAlign)) {
  const std::size_t bytes = stride_ * height;
  // Every byte, padding included, is zeroed so that no uninitialised memory
  // is ever read; a fresh mapping already is.
  const bool mapped = memory == nullptr && bytes >= kMapAtLeast && huge_pages_offered();
  void* p = nullptr;
  if (mapped) {
    p = mapped_planes().allocate(bytes);
  } else {
    p = memory == nullptr ? std::aligned_alloc(kAlign, bytes) : memory->allocate(bytes);
  }
  if (p == nullptr) throw std::bad_alloc();
  if (!mapped) std::memset(p, 0, bytes);
  data_.reset(static_cast<std::uint8_t*>(p));
}

Expected<Picture> Picture::make(const PictureFormat& fmt) { return make_in(fmt, nullptr); }

Expected<Picture> Picture::make_in(const PictureFormat& fmt, const PlaneMemory* memory) {
  VQX_RETURN_IF_ERROR(validate(fmt));
  Picture pic;
  pic.fmt_ = fmt;
  try {
    for (unsigned p = 0; p < fmt.plane_count(); ++p) {
      pic.planes_[p] =
          Plane(fmt.plane_width(p), fmt.plane_height(p), fmt.bytes_per_sample(), memory);
    }
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, "out of memory allocating a " + std::to_string(fmt.width) + "x" +
                                   std::to_string(fmt.height) + " picture");
  }
  return pic;
}

}  // namespace vqx

// Planes in memory from an allocator other than aligned_alloc (PlaneMemory,
// vqx/picture.hpp; made through detail::PictureInternals::make_in): the
// same layout as Picture::make, every row given back through the allocator
// that made it, exactly once, however the picture is moved.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "core/picture_internals.hpp"
#include "core/zeroed_memory.hpp"
#include "metrics/adm/cpu.hpp"
#include "metrics/cambi/scorer.hpp"
#include "metrics/ciede/cpu.hpp"
#include "metrics/float_common/image.hpp"
#include "metrics/ssim/image.hpp"
#include "metrics/vif/cpu.hpp"
#include "vqx/picture.hpp"

namespace vqx {
namespace {

// Hands out aligned_alloc memory filled with 0xA5 (so that zeroing shows),
// and records what it gave and what came back.
class FakeMemory final : public PlaneMemory {
 public:
  explicit FakeMemory(unsigned fail_after = ~0U) : fail_after_(fail_after) {}

  void* allocate(std::size_t bytes) const override {
    std::lock_guard lock(mutex_);
    if (given_.size() >= fail_after_) return nullptr;
    void* p = std::aligned_alloc(64, bytes);
    std::memset(p, 0xA5, bytes);
    given_.push_back(p);
    sizes_.push_back(bytes);
    return p;
  }
  void release(void* p) const override {
    std::lock_guard lock(mutex_);
    released_.push_back(p);
    std::free(p);
  }

  std::vector<void*> given() const {
    std::lock_guard lock(mutex_);
    return given_;
  }
  std::vector<std::size_t> sizes() const {
    std::lock_guard lock(mutex_);
    return sizes_;
  }
  std::vector<void*> released() const {
    std::lock_guard lock(mutex_);
    return released_;
  }

 private:
  const unsigned fail_after_;
  mutable std::mutex mutex_;
  mutable std::vector<void*> given_;
  mutable std::vector<std::size_t> sizes_;
  mutable std::vector<void*> released_;
};

TEST(PlaneMemory, PlanesComeFromTheAllocatorWithTheUsualLayout) {
  FakeMemory memory;
  const PictureFormat fmt{37, 11, 10, ChromaFormat::k420};
  Picture pic = detail::PictureInternals::make_in(fmt, memory).value();
  const Picture plain = Picture::make(fmt).value();
  ASSERT_EQ(memory.given().size(), 3U);
  for (unsigned p = 0; p < 3; ++p) {
    const Plane& pl = std::as_const(pic).plane(p);
    EXPECT_EQ(pl.memory(), &memory) << "plane " << p;
    EXPECT_EQ(plain.plane(p).memory(), nullptr) << "plane " << p;
    EXPECT_EQ(static_cast<const void*>(pl.data()), memory.given()[p]) << "plane " << p;
    // 37 samples of 2 bytes: 74 bytes, rounded up to a 128-byte stride.
    EXPECT_EQ(pl.stride_bytes(), plain.plane(p).stride_bytes()) << "plane " << p;
    EXPECT_EQ(pl.stride_bytes(), p == 0 ? 128U : 64U) << "plane " << p;
    EXPECT_EQ(memory.sizes()[p], pl.stride_bytes() * pl.height()) << "plane " << p;
    EXPECT_EQ(pl.width(), p == 0 ? 37U : 19U);
    EXPECT_EQ(pl.height(), p == 0 ? 11U : 6U);
    // Every byte zeroed, the padding too (the allocator filled 0xA5).
    for (std::size_t b = 0; b < memory.sizes()[p]; ++b) {
      ASSERT_EQ(pl.data()[b], 0) << "plane " << p << " byte " << b;
    }
  }
  EXPECT_TRUE(memory.released().empty());
}

TEST(PlaneMemory, EveryPlaneGoesBackToItsAllocatorOnceWhateverTheMoves) {
  FakeMemory memory;
  const PictureFormat fmt{64, 32, 8, ChromaFormat::k444};
  {
    Picture a = detail::PictureInternals::make_in(fmt, memory).value();
    a.plane(0).row<std::uint8_t>(3)[5] = 77;
    Picture b = std::move(a);  // moved: nothing freed
    Picture c;
    c = std::move(b);
    EXPECT_TRUE(memory.released().empty());
    EXPECT_EQ(c.plane(0).at(5, 3), 77U);
    // A plane moved out to another picture (as the neutral chroma does)
    // keeps its allocator.
    Plane luma = detail::PictureInternals::take_plane(c, 0);
    EXPECT_EQ(luma.memory(), &memory);
    EXPECT_EQ(luma.at(5, 3), 77U);
    Picture gray = detail::PictureInternals::assemble(PictureFormat{64, 32, 8, ChromaFormat::k400},
                                                      std::move(luma), Plane(), Plane());
    EXPECT_EQ(std::as_const(gray).plane(0).memory(), &memory);
    EXPECT_TRUE(memory.released().empty());
  }
  const std::vector<void*> given = memory.given();
  const std::vector<void*> released = memory.released();
  ASSERT_EQ(released.size(), 3U) << "each of the three planes freed once";
  EXPECT_EQ(std::multiset<void*>(released.begin(), released.end()),
            std::multiset<void*>(given.begin(), given.end()));
}

TEST(PlaneMemory, AssigningOverAPlaneGivesItsRowsBackToTheirOwnAllocator) {
  FakeMemory first;
  FakeMemory second;
  const PictureFormat fmt{16, 16, 8, ChromaFormat::k400};
  Picture pic = detail::PictureInternals::make_in(fmt, first).value();
  Picture other = detail::PictureInternals::make_in(fmt, second).value();
  pic = std::move(other);
  ASSERT_EQ(first.released().size(), 1U);
  EXPECT_EQ(first.released()[0], first.given()[0]);
  EXPECT_TRUE(second.released().empty());
  pic = Picture::make(fmt).value();  // ordinary memory over `second`'s
  ASSERT_EQ(second.released().size(), 1U);
  EXPECT_EQ(second.released()[0], second.given()[0]);
  EXPECT_EQ(std::as_const(pic).plane(0).memory(), nullptr);
}

TEST(PlaneMemory, AnAllocatorOutOfMemoryIsALimitErrorAndGivesBackWhatItGave) {
  FakeMemory memory(2);  // the third plane fails
  auto pic =
      detail::PictureInternals::make_in(PictureFormat{640, 360, 8, ChromaFormat::k420}, memory);
  ASSERT_FALSE(pic.ok());
  EXPECT_EQ(pic.status().code(), Errc::kLimit);
  EXPECT_EQ(pic.status().message(), "out of memory allocating a 640x360 picture");
  ASSERT_EQ(memory.given().size(), 2U);
  EXPECT_EQ(memory.released().size(), 2U);
  // A bad format is refused before any allocation.
  FakeMemory untouched;
  auto bad =
      detail::PictureInternals::make_in(PictureFormat{0, 360, 8, ChromaFormat::k420}, untouched);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::kInvalidArgument);
  EXPECT_TRUE(untouched.given().empty());
}

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// A large plane in ordinary memory is a fresh mapping (where the kernel
// offers huge pages), which reads as zeros without being written: making a
// 4K picture (12 MB) touches none of its pages, where zeroing it took about
// 3000 page faults (one per 4 KiB page). Small planes, and planes
// of another allocator, are zeroed as before (the tests above).
TEST(PlaneMemory, ALargePictureIsZeroWithoutItsPagesBeingTouched) {
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): large planes "
                    "come from malloc";
  }
  const PictureFormat fmt{3840, 2160, 8, ChromaFormat::k420};
  const long before = minor_faults();
  Picture pic = Picture::make(fmt).value();
  const long faults = minor_faults() - before;
  EXPECT_LT(faults, 200) << "making a 4K picture took " << faults << " page faults";
  for (unsigned p = 0; p < 3; ++p) {
    const Plane& pl = std::as_const(pic).plane(p);
    EXPECT_EQ(pl.memory(), nullptr) << "plane " << p;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pl.data()) % 64, 0U) << "plane " << p;
    const std::size_t bytes = pl.stride_bytes() * pl.height();
    for (std::size_t b = 0; b < bytes; b += 509) {
      ASSERT_EQ(pl.data()[b], 0) << "plane " << p << " byte " << b;
    }
    ASSERT_EQ(pl.data()[bytes - 1], 0) << "plane " << p;
  }
}

// The same from 256 KiB on: a 1080p picture's chroma planes (518,400 bytes
// each) were zeroed by memset, 254 page faults for planes that a luma-only
// run never writes.
TEST(PlaneMemory, A1080pPictureIsZeroWithoutItsChromaPagesBeingTouched) {
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): planes "
                    "come from malloc";
  }
  const PictureFormat fmt{1920, 1080, 8, ChromaFormat::k420};
  const long before = minor_faults();
  Picture pic = Picture::make(fmt).value();
  const long faults = minor_faults() - before;
  EXPECT_LT(faults, 60) << "making a 1080p picture took " << faults << " page faults";
  for (unsigned p = 1; p < 3; ++p) {
    const Plane& pl = std::as_const(pic).plane(p);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(pl.data()) % 64, 0U) << "plane " << p;
    const std::size_t bytes = pl.stride_bytes() * pl.height();
    for (std::size_t b = 0; b < bytes; b += 509) {
      ASSERT_EQ(pl.data()[b], 0) << "plane " << p << " byte " << b;
    }
    ASSERT_EQ(pl.data()[bytes - 1], 0) << "plane " << p;
  }
}

// Freed mappings are unmapped and a new picture is zero again, also where
// the old one was written; pictures of every size are freed by moves and
// assignments alike (ASan and the leak check see the rest).
TEST(PlaneMemory, LargePlanesAreFreedAndNewOnesAreZeroAgain) {
  const PictureFormat big{1920, 1080, 16, ChromaFormat::k444};  // 4 MB planes
  for (int round = 0; round < 3; ++round) {
    Picture pic = Picture::make(big).value();
    for (unsigned p = 0; p < 3; ++p) {
      Plane& pl = pic.plane(p);
      for (unsigned y = 0; y < pl.height(); y += 7) {
        EXPECT_EQ(pl.at(y % pl.width(), y), 0U) << "round " << round << " plane " << p;
        std::memset(pl.row<std::uint8_t>(y), 0xA5, pl.stride_bytes());
      }
    }
    Picture small = Picture::make(PictureFormat{64, 64, 8, ChromaFormat::k420}).value();
    pic = std::move(small);  // the large planes freed here
    EXPECT_EQ(std::as_const(pic).plane(0).at(5, 5), 0U);
  }
}

// The same memory for other large buffers: a 4K float image (33 MB, every
// float feature's working format) is sized without touching its pages,
// where zeroing it took about 8100 page faults; small buffers are zeroed
// malloc memory. Every buffer is 64-byte aligned and zero.
TEST(ZeroedMemory, LargeBuffersAndFloatImagesAreZeroWithoutTheirPagesBeingTouched) {
  for (const std::size_t bytes :
       {std::size_t{1000}, std::size_t{300} << 10, std::size_t{1} << 20, std::size_t{40} << 20}) {
    auto* p = static_cast<std::uint8_t*>(allocate_zeroed(bytes));
    ASSERT_NE(p, nullptr) << bytes;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0U) << bytes;
    for (std::size_t b = 0; b < bytes; b += 4093) ASSERT_EQ(p[b], 0) << bytes << " byte " << b;
    EXPECT_EQ(p[bytes - 1], 0) << bytes;
    std::memset(p, 0x5A, bytes);  // all of it is ours to write
    release_zeroed(p);
  }
  release_zeroed(nullptr);  // nothing
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): large buffers "
                    "come from malloc";
  }
  float_common::FloatImage image;
  const long before = minor_faults();
  image.resize(3840, 2160);
  const long faults = minor_faults() - before;
  EXPECT_LT(faults, 200) << "sizing a 4K float image took " << faults << " page faults";
  for (unsigned y = 0; y < 2160; y += 97) {
    EXPECT_EQ(image.row(y)[y % 3840], 0.0f) << "row " << y;
  }
}

// Buffers of 256 KiB to 1 MiB (a 1080p picture's chroma planes) share huge
// pages, four such planes to one, each still zero, 64-byte aligned and at
// its own offset in its 4 KiB page; an arena is unmapped once its last
// buffer is given back, and its memory is never handed out again.
TEST(ZeroedMemory, SmallBuffersShareHugePagesAndGoWithTheirLast) {
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): buffers "
                    "come from malloc";
  }
  constexpr std::size_t kPlane = 518400;
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  std::vector<std::uint8_t*> buffers;
  std::set<std::uintptr_t> regions;
  std::set<std::uintptr_t> colours;
  // Until three huge pages were used: the first two are then closed.
  while (regions.size() < 3) {
    auto* p = static_cast<std::uint8_t*>(allocate_zeroed(kPlane));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0U);
    for (std::size_t b = 0; b < kPlane; b += 4093) ASSERT_EQ(p[b], 0) << "byte " << b;
    ASSERT_EQ(p[kPlane - 1], 0);
    std::memset(p, 0xA5, kPlane);
    buffers.push_back(p);
    regions.insert(reinterpret_cast<std::uintptr_t>(p) / kHuge);
    colours.insert(reinterpret_cast<std::uintptr_t>(p) % 4096);
  }
  // The first huge page may have been opened before; the second held four.
  EXPECT_GE(buffers.size(), 6U) << "small buffers do not share huge pages";
  EXPECT_LE(buffers.size(), 9U);
  EXPECT_EQ(colours.size(), buffers.size()) << "two buffers at one offset in their 4 KiB pages";
  for (std::uint8_t* p : buffers) release_zeroed(p);
  // The huge page between the first (which may hold others' buffers) and
  // the open one held only these, and is gone (msync: ENOMEM for memory not
  // mapped); what the open one hands out next is fresh and zero.
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(buffers.front()) / kHuge;
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(buffers.back()) / kHuge;
  for (const std::uintptr_t r : regions) {
    if (r == first || r == last) continue;
    errno = 0;
    EXPECT_EQ(msync(reinterpret_cast<void*>(r * kHuge), 4096, MS_ASYNC), -1)
        << "a closed huge page is still mapped";
    EXPECT_EQ(errno, ENOMEM);
  }
  auto* again = static_cast<std::uint8_t*>(allocate_zeroed(kPlane));
  ASSERT_NE(again, nullptr);
  for (std::size_t b = 0; b < kPlane; b += 4093) ASSERT_EQ(again[b], 0) << "byte " << b;
  release_zeroed(again);
}

// A slab's arrays: each 64-byte aligned, zero, and clear of the others.
TEST(ZeroedMemory, ASlabHandsOutAlignedZeroArraysThatDoNotOverlap) {
  ZeroedSlab slab;
  const std::size_t a = slab.plan<std::uint8_t>(1);
  const std::size_t b = slab.plan<std::int16_t>(1000);
  const std::size_t c = slab.plan<double>(std::size_t{1} << 17);  // 1 MiB
  const std::size_t d = slab.plan<std::int32_t>(3);
  slab.allocate();
  const auto* pa = slab.get<std::uint8_t>(a);
  auto* pb = slab.get<std::int16_t>(b);
  auto* pc = slab.get<double>(c);
  auto* pd = slab.get<std::int32_t>(d);
  for (const void* p : {static_cast<const void*>(pa), static_cast<const void*>(pb),
                        static_cast<const void*>(pc), static_cast<const void*>(pd)}) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0U);
  }
  EXPECT_EQ(*pa, 0);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(pb[i], 0) << i;
  for (std::size_t i = 0; i < (std::size_t{1} << 17); i += 511) ASSERT_EQ(pc[i], 0.0) << i;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(pd[i], 0) << i;
  // Each array written whole leaves its neighbours as they were.
  std::fill_n(pb, 1000, std::int16_t{-1});
  std::fill_n(pd, 3, -1);
  EXPECT_EQ(*pa, 0);
  EXPECT_EQ(pc[0], 0.0);
  EXPECT_EQ(pc[(std::size_t{1} << 17) - 1], 0.0);
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(pb + 1000),
            reinterpret_cast<std::uint8_t*>(pb) + 2000);
  EXPECT_GE(reinterpret_cast<std::uintptr_t>(pc), reinterpret_cast<std::uintptr_t>(pb + 1000));
  EXPECT_GE(reinterpret_cast<std::uintptr_t>(pd),
            reinterpret_cast<std::uintptr_t>(pc + (std::size_t{1} << 17)));
}

// Integer VIF's and ADM's kernels take their large buffers (VIF's pyramid,
// ADM's approximation bands: about 6 MB at 1080p) from one slab each:
// sizing them touches none of those pages, where zero-filled vectors took
// about 1500 page faults, a third of a 1-frame vmaf_v0.6.1 run's CPU time
// on a virtual machine (docs/performance.md, "Start-up without small page
// faults").
TEST(ZeroedMemory, VifAndAdmKernelsAreSizedWithoutTouchingTheirLargeBuffers) {
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): large buffers "
                    "come from malloc";
  }
  const long before = minor_faults();
  vif::CpuKernel vif_kernel;
  ASSERT_TRUE(vif_kernel.init(1920, 1080, 8).ok());
  const long vif_faults = minor_faults() - before;
  auto adm_kernel = adm::AdmCpu::create(adm::AdmParams{}, 1920, 1080, 8);
  ASSERT_TRUE(adm_kernel.ok());
  const long adm_faults = minor_faults() - before - vif_faults;
  EXPECT_LT(vif_faults, 100) << "sizing VIF's kernel for 1080p took " << vif_faults
                             << " page faults";
  EXPECT_LT(adm_faults, 100) << "sizing ADM's kernel for 1080p took " << adm_faults
                             << " page faults";
}

// The same for the large buffers of cambi (its picture-sized planes, about
// 23 MB at 1080p: about 5600 faults when zero-filled), ciede (its 6 MB
// colour cache, empty as zero bytes: about 1600 when filled with kNoKey)
// and the SSIM family's scale images (2 MB at scale 1 of 1080p: about 500).
TEST(ZeroedMemory, CambiCiedeAndSsimBuffersAreSizedWithoutTouchingTheirPages) {
  if (!large_buffers_are_mapped()) {
    GTEST_SKIP() << "no transparent huge pages here (or an AddressSanitizer build): large buffers "
                    "come from malloc";
  }
  long before = minor_faults();
  cambi::Scorer scorer;
  ASSERT_TRUE(scorer.allocate(1920, 1080, 32, 4, 4).ok());
  const long cambi_faults = minor_faults() - before;
  before = minor_faults();
  ciede::FrameKernel ciede_kernel;
  ASSERT_TRUE(ciede_kernel.init(PictureFormat{1920, 1080, 8, ChromaFormat::k420}).ok());
  const long ciede_faults = minor_faults() - before;
  before = minor_faults();
  const ssim::FloatImage image(960, 540);
  const long ssim_faults = minor_faults() - before;
  // (Its row-sized buffers are zero-filled vectors still: about 100 faults.)
  EXPECT_LT(cambi_faults, 500) << "sizing cambi's scorer for 1080p took " << cambi_faults
                               << " page faults";
  EXPECT_LT(ciede_faults, 200) << "sizing ciede's kernel for 1080p took " << ciede_faults
                               << " page faults";
  EXPECT_LT(ssim_faults, 100) << "a 960x540 SSIM image took " << ssim_faults << " page faults";
  for (int y = 0; y < 540; y += 53) EXPECT_EQ(image.row(y)[y], 0.0f) << "row " << y;
}

}  // namespace
}  // namespace vqx

// Planes in memory from an allocator other than aligned_alloc (PlaneMemory,
// vqx/picture.hpp; made through detail::PictureInternals::make_in): the
// same layout as Picture::make, every row given back through the allocator
// that made it, exactly once, however the picture is moved.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "core/picture_internals.hpp"
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

}  // namespace
}  // namespace vqx

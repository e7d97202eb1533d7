// Pictures: 1 to 3 planar channels of 8 to 16 bit samples with padded rows.
// 8-bit samples are stored as uint8_t, deeper ones as uint16_t (native endian).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "vqx/status.hpp"

namespace vqx {

enum class ChromaFormat { k400, k420, k422, k444 };

const char* to_string(ChromaFormat c);

struct PictureFormat {
  unsigned width = 0;
  unsigned height = 0;
  unsigned bpc = 8;  // bits per component, 8..16
  ChromaFormat chroma = ChromaFormat::k420;

  [[nodiscard]] unsigned plane_count() const { return chroma == ChromaFormat::k400 ? 1 : 3; }
  // Chroma planes round up for odd sizes: (w + 1) / 2.
  [[nodiscard]] unsigned plane_width(unsigned p) const;
  [[nodiscard]] unsigned plane_height(unsigned p) const;
  [[nodiscard]] unsigned bytes_per_sample() const { return bpc > 8 ? 2 : 1; }
  // Bytes of one frame when packed without padding (raw .yuv layout).
  [[nodiscard]] std::size_t packed_frame_bytes() const;
  bool operator==(const PictureFormat&) const = default;
};

// Limits checked before any allocation, so that a header claiming an absurd
// size is refused rather than allocated.
inline constexpr unsigned kMaxDimension = 16384;
inline constexpr std::uint64_t kMaxPixels = 16384ULL * 16384ULL;

// Returns an error naming the problem if `fmt` is not a picture VQX accepts.
Status validate(const PictureFormat& fmt);

// Where a plane's rows live when they are not in ordinary memory
// (std::aligned_alloc, what Plane's constructor and Picture::make use):
// VQX's GPU contexts hand out pictures whose rows are in the device
// runtime's pinned memory, which the upload reads directly. A plane made in
// such memory keeps a pointer to its allocator and gives its rows back
// through it; the pointer also says where the rows came from, so an
// allocator must outlive every plane it made (VQX's are static objects).
class PlaneMemory {
 public:
  // `bytes` of memory aligned to 64 bytes, or null when there is none.
  [[nodiscard]] virtual void* allocate(std::size_t bytes) const = 0;
  // Gives back what allocate() returned.
  virtual void release(void* p) const = 0;

 protected:
  // Not deleted through this class (so a static allocator needs no
  // destructor run at exit, when a picture may still be freed).
  PlaneMemory() = default;
  PlaneMemory(const PlaneMemory&) = default;
  PlaneMemory& operator=(const PlaneMemory&) = default;
  ~PlaneMemory() = default;
};

// One plane: move-only, 64-byte aligned rows.
class Plane {
 public:
  Plane() = default;
  Plane(unsigned width, unsigned height, unsigned bytes_per_sample);

  [[nodiscard]] unsigned width() const { return width_; }
  [[nodiscard]] unsigned height() const { return height_; }
  [[nodiscard]] std::size_t stride_bytes() const { return stride_; }
  [[nodiscard]] unsigned bytes_per_sample() const { return bps_; }
  // The allocator the rows came from; null for ordinary memory.
  [[nodiscard]] const PlaneMemory* memory() const { return data_.get_deleter().memory; }

  [[nodiscard]] std::uint8_t* data() { return data_.get(); }
  [[nodiscard]] const std::uint8_t* data() const { return data_.get(); }
  template <typename T>
  [[nodiscard]] T* row(unsigned y) {
    return reinterpret_cast<T*>(data_.get() + (y * stride_));
  }
  template <typename T>
  [[nodiscard]] const T* row(unsigned y) const {
    return reinterpret_cast<const T*>(data_.get() + (y * stride_));
  }
  // Sample at (x, y) widened to 32 bits, whatever the storage.
  [[nodiscard]] std::uint32_t at(unsigned x, unsigned y) const {
    return bps_ == 1 ? row<std::uint8_t>(y)[x] : row<std::uint16_t>(y)[x];
  }

 private:
  friend class Picture;  // make_in()
  // The rows from `memory` (null: aligned_alloc); std::bad_alloc when it
  // has none. Every byte, padding included, is zeroed.
  Plane(unsigned width, unsigned height, unsigned bytes_per_sample, const PlaneMemory* memory);

  struct Release {
    // Null: std::free. (No default member initializer: unique_ptr
    // value-initializes its deleter, which makes it null.)
    const PlaneMemory* memory;
    void operator()(std::uint8_t* p) const;
  };
  std::unique_ptr<std::uint8_t[], Release> data_;
  unsigned width_ = 0;
  unsigned height_ = 0;
  unsigned bps_ = 1;
  std::size_t stride_ = 0;
};

namespace detail {
struct PictureInternals;  // VQX's own access (src/core/picture_internals.hpp)
}

class Picture {
 public:
  Picture() = default;
  // The factory: validates the format, then allocates every plane.
  static Expected<Picture> make(const PictureFormat& fmt);

  [[nodiscard]] const PictureFormat& format() const { return fmt_; }
  [[nodiscard]] unsigned width() const { return fmt_.width; }
  [[nodiscard]] unsigned height() const { return fmt_.height; }
  [[nodiscard]] unsigned bpc() const { return fmt_.bpc; }
  [[nodiscard]] unsigned plane_count() const { return fmt_.plane_count(); }
  // Access for writing the samples. Context::read_pictures checks every
  // sample against the bit depth (an error for one above it), except in
  // pictures that VQX's own readers filled and checked; writing through
  // this access makes the picture one to check again (and one whose every
  // plane counts as filled: see VideoReader::read_planes).
  [[nodiscard]] Plane& plane(unsigned p) {
    samples_checked_ = false;
    luma_only_ = false;
    return planes_[p];
  }
  [[nodiscard]] const Plane& plane(unsigned p) const { return planes_[p]; }

 private:
  friend struct detail::PictureInternals;
  // make(), with the planes' rows from `memory` (null: aligned_alloc).
  static Expected<Picture> make_in(const PictureFormat& fmt, const PlaneMemory* memory);

  PictureFormat fmt_;
  std::array<Plane, 3> planes_;
  bool samples_checked_ = false;  // by the reader that filled it (see plane())
  bool luma_only_ = false;        // a reader filled the luma alone (see plane())
};

}  // namespace vqx

#include "vqx/picture.hpp"

#include <cstring>
#include <new>
#include <string>

#include "core/index_math.hpp"
#include "core/zeroed_memory.hpp"

namespace vqx {

namespace {
constexpr std::size_t kAlign = 64;
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
    release_zeroed(p);
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
  // is ever read (allocate_zeroed: for large planes without writing them).
  void* p = memory == nullptr ? allocate_zeroed(bytes) : memory->allocate(bytes);
  if (p == nullptr) throw std::bad_alloc();
  if (memory != nullptr) std::memset(p, 0, bytes);
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

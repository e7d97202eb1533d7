// The readers' shared parts (reader_detail.hpp): the plane copy, messages,
// buffers.
#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "io/reader_detail.hpp"

namespace vqx {

namespace io_detail {

namespace {

// Copies one row of 16-bit little-endian samples, returning the OR of them.
std::uint32_t copy_row16(const std::uint8_t* src, std::uint16_t* dst, unsigned n) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(dst, src, std::size_t{n} * 2);
  } else {
    for (std::size_t x = 0; x < n; ++x) {
      dst[x] = static_cast<std::uint16_t>(src[2 * x] | (src[(2 * x) + 1] << 8));
    }
  }
  std::uint16_t acc = 0;
  for (unsigned x = 0; x < n; ++x) acc = static_cast<std::uint16_t>(acc | dst[x]);
  return acc;
}

}  // namespace

std::uint32_t copy_plane(const std::uint8_t* src, std::ptrdiff_t src_stride, unsigned row_samples,
                         unsigned rows, unsigned bpc, Plane& dst) {
  std::uint32_t acc = 0;
  if (bpc <= 8) {
    for (unsigned y = 0; y < rows; ++y) {
      std::memcpy(dst.row<std::uint8_t>(y), src + (static_cast<std::ptrdiff_t>(y) * src_stride),
                  row_samples);
    }
    return 0;
  }
  for (unsigned y = 0; y < rows; ++y) {
    acc |= copy_row16(src + (static_cast<std::ptrdiff_t>(y) * src_stride),
                      dst.row<std::uint16_t>(y), row_samples);
  }
  return bpc >= 16 ? 0 : acc;
}

std::string above_depth_message(unsigned bpc) {
  const unsigned max = (1U << bpc) - 1;
  return "has sample values above the " + std::to_string(bpc) + "-bit maximum " +
         std::to_string(max) + " (is the bit depth right?)";
}

std::string quote_bytes(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  out += '\'';
  return out;
}

Status ensure_format(Picture& pic, const PictureFormat& fmt) {
  if (pic.format() == fmt && pic.plane(0).data() != nullptr) return Status::Ok();
  VQX_ASSIGN_OR_RETURN(pic, Picture::make(fmt));
  return Status::Ok();
}

Expected<std::unique_ptr<std::uint8_t[]>> allocate_buffer(const std::string& path,
                                                          std::size_t bytes) {
  try {
    // Default-initialised: pages are touched only when a frame is read.
    return std::unique_ptr<std::uint8_t[]>(new std::uint8_t[bytes]);
  } catch (const std::bad_alloc&) {
    return Error(Errc::kLimit, path + ": out of memory allocating a " + std::to_string(bytes) +
                                   "-byte frame buffer");
  }
}

}  // namespace io_detail

}  // namespace vqx

// The readers' shared parts (reader_detail.hpp): the plane copy and
// unpacking of packed frames, the input file with its peek, buffers.
#include <sys/types.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <string>
#include <system_error>

#include "core/picture_internals.hpp"
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

// strerror() is not thread-safe; std::error_code's message() is.
std::string error_text(int err) {
  return err != 0 ? std::error_code(err, std::generic_category()).message() : "unknown error";
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

Status unpack_frame(const std::uint8_t* src, const PictureFormat& fmt, Picture& pic) {
  std::uint32_t acc = 0;
  const unsigned bps = fmt.bytes_per_sample();
  for (unsigned p = 0; p < fmt.plane_count(); ++p) {
    const unsigned w = fmt.plane_width(p);
    const unsigned h = fmt.plane_height(p);
    const auto stride = static_cast<std::ptrdiff_t>(std::size_t{w} * bps);
    acc |= copy_plane(src, stride, w, h, fmt.bpc, pic.plane(p));
    src += static_cast<std::size_t>(stride) * h;
  }
  if (fmt.bpc < 16 && (acc >> fmt.bpc) != 0) {
    const unsigned max = (1U << fmt.bpc) - 1;
    return Error(Errc::kParse, "has sample values above the " + std::to_string(fmt.bpc) +
                                   "-bit maximum " + std::to_string(max) +
                                   " (is the bit depth right?)");
  }
  detail::PictureInternals::mark_samples_checked(pic);  // the context need not check again
  return Status::Ok();
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

Expected<InputFile> InputFile::open(const std::string& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::is_directory(st)) {
    return Error(Errc::kIo, path + ": cannot open: is a directory");
  }
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    return Error(Errc::kIo, path + ": cannot open: " + error_text(err));
  }
  InputFile in;
  in.f_.reset(f);
  if (!ec && std::filesystem::is_regular_file(st)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) in.size_ = static_cast<std::int64_t>(size);
  }
  return in;
}

std::size_t InputFile::read(void* dst, std::size_t n) {
  std::size_t from_peek = 0;
  if (peeked_pos_ < peeked_.size()) {
    from_peek = std::min(n, peeked_.size() - peeked_pos_);
    std::memcpy(dst, peeked_.data() + peeked_pos_, from_peek);
    peeked_pos_ += from_peek;
    if (from_peek == n) return n;
  }
  return from_peek + std::fread(static_cast<char*>(dst) + from_peek, 1, n - from_peek, f_.get());
}

int InputFile::getc() {
  if (peeked_pos_ < peeked_.size()) return static_cast<unsigned char>(peeked_[peeked_pos_++]);
  return std::fgetc(f_.get());
}

std::string_view InputFile::peek(std::size_t n) {
  peeked_.erase(0, peeked_pos_);
  peeked_pos_ = 0;
  if (peeked_.size() < n) {
    const std::size_t have = peeked_.size();
    peeked_.resize(n);
    peeked_.resize(have + std::fread(peeked_.data() + have, 1, n - have, f_.get()));
  }
  return std::string_view(peeked_).substr(0, n);
}

std::int64_t InputFile::position() const {
  const auto at = static_cast<std::int64_t>(::ftello(f_.get()));
  return at < 0 ? -1 : at - static_cast<std::int64_t>(peeked_.size() - peeked_pos_);
}

bool InputFile::seek(std::int64_t pos) {
  peeked_.clear();
  peeked_pos_ = 0;
  return ::fseeko(f_.get(), static_cast<off_t>(pos), SEEK_SET) == 0;
}

bool InputFile::error() const { return std::ferror(f_.get()) != 0; }

Status InputFile::read_error(const std::string& path) const {
  const int err = errno;
  return Error(Errc::kIo, path + ": read error: " + error_text(err));
}

void InputFile::Closer::operator()(std::FILE* f) const { std::fclose(f); }

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

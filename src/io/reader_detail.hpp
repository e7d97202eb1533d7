// The readers' shared parts (src/io only; reader_detail.cpp): the plane copy
// and unpacking, the input file with its peek, and the readers' entry points
// on a file open_video() has already opened. Reading and skipping the frames
// of Y4M and raw files is PackedFrameReader's (packed_reader.hpp). The public
// API is vqx/video_reader.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "vqx/picture.hpp"
#include "vqx/status.hpp"
#include "vqx/video_reader.hpp"

namespace vqx {

namespace io_detail {

// Copies `rows` rows of `row_samples` samples from `src` (rows `src_stride`
// bytes apart; 16-bit samples little-endian) into `dst`. For 9..15-bit
// pictures returns the OR of every sample copied, so that the caller can
// refuse values above the bit depth (which would otherwise index past
// tables sized for the depth); returns 0 for 8 and 16 bit.
std::uint32_t copy_plane(const std::uint8_t* src, std::ptrdiff_t src_stride, unsigned row_samples,
                         unsigned rows, unsigned bpc, Plane& dst);

// Unpacks one packed planar frame (raw .yuv / Y4M payload layout) into `pic`.
// Returns an error (without the file name) when a sample exceeds the depth.
Status unpack_frame(const std::uint8_t* src, const PictureFormat& fmt, Picture& pic);

// "'abc\x01'" for error messages about unexpected bytes.
std::string quote_bytes(std::string_view bytes);

// Ensures that `pic` has format `fmt`, reallocating it when it does not.
Status ensure_format(Picture& pic, const PictureFormat& fmt);

// A buffer for one frame's bytes, or a kLimit error naming the file.
Expected<std::unique_ptr<std::uint8_t[]>> allocate_buffer(const std::string& path,
                                                          std::size_t bytes);

// A file opened for reading (stdio underneath), with its size when it is a
// regular file.
class InputFile {
 public:
  // kIo error "<path>: cannot open: <reason>" on failure.
  static Expected<InputFile> open(const std::string& path);
  // Reads up to n bytes; fewer only at end of file or on error().
  std::size_t read(void* dst, std::size_t n);
  int getc();  // EOF at end of file or on error()
  // The next n bytes (fewer at end of file), left unread: the following
  // read() and getc() return them first. This is how open_video() looks at
  // a file's first bytes without reopening it, which a pipe would not allow.
  std::string_view peek(std::size_t n);
  // The offset of the next byte read() returns, and a move to an offset:
  // for regular files only (size() >= 0). seek() drops what peek() held.
  [[nodiscard]] std::int64_t position() const;
  bool seek(std::int64_t pos);
  [[nodiscard]] bool error() const;
  [[nodiscard]] Status read_error(const std::string& path) const;
  [[nodiscard]] std::int64_t size() const { return size_; }  // -1 when not a regular file

 private:
  struct Closer {
    void operator()(std::FILE* f) const;
  };
  std::unique_ptr<std::FILE, Closer> f_;
  std::int64_t size_ = -1;
  std::string peeked_;  // bytes peek() read and read()/getc() have not returned yet
  std::size_t peeked_pos_ = 0;
};

// open_y4m() and open_raw() on a file open_video() has already opened.
Expected<std::unique_ptr<VideoReader>> open_y4m_file(const std::string& path, InputFile file);
Expected<std::unique_ptr<VideoReader>> open_raw_file(const std::string& path,
                                                     const RawVideoParams& params, InputFile file);

}  // namespace io_detail

}  // namespace vqx
